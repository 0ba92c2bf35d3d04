/**
 * What a page needs to show a stored photo: its URLs by width (WebP and
 * JPEG `srcset`s), the fallback `src`, its size (so the browser keeps its
 * room before it loads: no layout shift), its alt text in the page's
 * language and its credit.
 */
import type { StoredPhoto } from "@/lib/db/photos.ts";

/** A photo's sources for `<picture>`. */
export interface PhotoSources {
  id: string;
  webpSrcset: string;
  jpegSrcset: string;
  /** The fallback `<img src>`: the JPEG closest to 960 px. */
  src: string;
  width: number;
  height: number;
  alt: string;
  credit: string;
}

/** The URL of one rendition. */
export function photoUrl(
  id: string,
  width: number,
  extension: "webp" | "jpg",
): string {
  return `/fotos/${id}-${width}.${extension}`;
}

/** A stored photo's sources, its alt text in `lang` (Spanish for any language but English). */
export function photoSources(photo: StoredPhoto, lang: string): PhotoSources {
  const widths = photo.renditions.map((r) => r.width);
  const srcset = (extension: "webp" | "jpg") =>
    widths.map((w) => `${photoUrl(photo.id, w, extension)} ${w}w`).join(", ");
  const fallback = photo.renditions.find((r) => r.width >= 960) ??
    photo.renditions[photo.renditions.length - 1];
  return {
    id: photo.id,
    webpSrcset: srcset("webp"),
    jpegSrcset: srcset("jpg"),
    src: photoUrl(photo.id, fallback.width, "jpg"),
    width: fallback.width,
    height: fallback.height,
    alt: lang === "en" ? photo.alt.en : photo.alt.es,
    credit: photo.credit,
  };
}
