/**
 * The photo library: uploads checked by their bytes (JPEG, PNG, WebP; no
 * SVG, no lying names, no decompression bombs), resized and re-encoded
 * without EXIF in a worker, stored in KV (lib/db/photos.ts) and served by
 * content-hash names. Routes and components import this entry; it
 * re-exports light modules only (the codecs load with the first upload).
 *
 * @module
 */
export {
  ALT_MAX,
  CREDIT_MAX,
  type PhotoField,
  PhotoLibrary,
  PhotoUploadError,
} from "./library.ts";
export { MAX_PHOTO_BYTES } from "./refusal.ts";
export { type PhotoSources, photoSources, photoUrl } from "./sources.ts";
export { findPhotoUses, type PhotoUse } from "./uses.ts";
export type { StoredPhoto } from "@/lib/db/photos.ts";
