/**
 * From an uploaded file to the photo library's renditions: the file's type
 * told by its bytes (a name or declared type that says otherwise is
 * refused), its byte size and its declared pixels checked before anything
 * is decoded, then decoded, resized to the responsive widths (never
 * enlarged) and encoded again as WebP and a JPEG fallback. Encoding from
 * pixels keeps no metadata at all: a phone photo's EXIF, with the GPS
 * position of whoever took it, is gone from every rendition.
 *
 * Pure: bytes in, bytes out. It is CPU work of about 1-3 s for a phone
 * photo, run in the photo worker (pool.ts), off the requests' thread.
 */
import {
  decodePixels,
  encodeJpeg,
  encodeWebp,
  type Pixels,
  resizePixels,
} from "./codecs.ts";
import {
  claimedType,
  isComplete,
  type PhotoFormat,
  readImageHeader,
  sniffImageType,
} from "./formats.ts";
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  PhotoRefusedError,
} from "./refusal.ts";

/** The widths (CSS pixels at 1x) every photo is offered in, when the original is as wide. */
export const PHOTO_WIDTHS = [480, 960, 1600] as const;
export { MAX_PHOTO_BYTES, MAX_PHOTO_PIXELS } from "./refusal.ts";
/** WebP quality: at 78 a 1600 px photo is about 150-300 KB. */
const WEBP_QUALITY = 78;
/** JPEG (fallback) quality. */
const JPEG_QUALITY = 80;

/** The limits a file is checked against; the defaults are the constants above. */
export interface PhotoLimits {
  maxBytes?: number;
  maxPixels?: number;
}

/** A file as the form sent it: its bytes, and what its sender says it is. */
export interface PhotoUpload {
  bytes: Uint8Array;
  /** The file's name as sent (only its extension is looked at). */
  name?: string;
  /** The media type the form declared for it. */
  mediaType?: string;
}

/** One width of a photo, in both formats. */
export interface PhotoRendition {
  width: number;
  height: number;
  webp: Uint8Array;
  jpeg: Uint8Array;
}

/** A processed photo: its id and renditions, widest last. */
export interface ProcessedPhoto {
  /** The SHA-256 of the uploaded bytes, hex, its first 32 digits: the photo's id and URL. */
  id: string;
  /** The source's format as its bytes told it. */
  sourceFormat: PhotoFormat;
  /** The picture's size as shown (after its EXIF orientation). */
  width: number;
  height: number;
  renditions: PhotoRendition[];
}

/**
 * Checks a file without decoding it: its size, its type by magic bytes
 * against what its name and declared type claim, and the pixels its header
 * declares. Throws {@linkcode PhotoRefusedError}; returns the format and
 * header's size.
 */
export function checkPhotoUpload(
  upload: PhotoUpload,
  limits: PhotoLimits = {},
): { format: PhotoFormat; width: number; height: number } {
  const maxBytes = limits.maxBytes ?? MAX_PHOTO_BYTES;
  const maxPixels = limits.maxPixels ?? MAX_PHOTO_PIXELS;
  const { bytes } = upload;
  if (bytes.length === 0) throw new PhotoRefusedError("missing");
  if (bytes.length > maxBytes) {
    throw new PhotoRefusedError("too_large", {
      megabytes: Math.round(maxBytes / (1024 * 1024)),
    });
  }
  const sniffed = sniffImageType(bytes);
  if (sniffed === "svg") throw new PhotoRefusedError("svg");
  const { byName, byMediaType } = claimedType(upload);
  if (byName === "svg" || byMediaType === "svg") {
    throw new PhotoRefusedError("svg");
  }
  if (sniffed === "unknown") throw new PhotoRefusedError("unsupported");
  for (const claimed of [byName, byMediaType]) {
    if (claimed !== undefined && claimed !== sniffed) {
      throw new PhotoRefusedError("type_mismatch", {
        claimed: FORMAT_NAMES[claimed],
        actual: FORMAT_NAMES[sniffed],
      });
    }
  }
  const header = readImageHeader(bytes);
  if (!header || !isComplete(bytes, sniffed)) {
    throw new PhotoRefusedError("corrupt");
  }
  if (header.width * header.height > maxPixels) {
    throw new PhotoRefusedError("too_many_pixels", {
      width: header.width,
      height: header.height,
      megapixels: Math.round(maxPixels / 1_000_000),
    });
  }
  return { format: sniffed, width: header.width, height: header.height };
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  jpeg: "JPEG",
  png: "PNG",
  webp: "WebP",
  svg: "SVG",
};

/**
 * The widths a photo `width` pixels wide is offered in: each of
 * {@linkcode PHOTO_WIDTHS} it reaches, and its own width when it is
 * narrower than the widest (never enlarged).
 */
export function renditionWidths(width: number): number[] {
  const widths: number[] = PHOTO_WIDTHS.filter((w) => w <= width);
  const widest = PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1];
  if (width < widest && !widths.includes(width)) widths.push(width);
  return widths;
}

/** The SHA-256 of `bytes`, its first 32 hex digits: a photo's id. */
export async function hashPhotoBytes(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as BufferSource),
  );
  return Array.from(
    digest.subarray(0, 16),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

/**
 * Checks, decodes, resizes and encodes one upload
 * ({@linkcode checkPhotoUpload} first). A file whose pixels cannot be
 * decoded (truncated, broken) is refused as `corrupt`.
 */
export async function processPhoto(
  upload: PhotoUpload,
  limits: PhotoLimits = {},
): Promise<ProcessedPhoto> {
  const { format } = checkPhotoUpload(upload, limits);
  const id = await hashPhotoBytes(upload.bytes);
  let source: Pixels;
  try {
    source = await decodePixels(upload.bytes, format);
  } catch {
    throw new PhotoRefusedError("corrupt");
  }
  if (!source || !(source.width > 0) || !(source.height > 0)) {
    throw new PhotoRefusedError("corrupt");
  }
  const widths = renditionWidths(source.width).sort((a, b) => b - a);
  const renditions: PhotoRendition[] = [];
  // Widest first, each smaller one from the one before: a 12 MP photo is
  // read once at full size.
  let previous = source;
  for (const width of widths) {
    const height = Math.max(
      1,
      Math.round(source.height * width / source.width),
    );
    const pixels = await resizePixels(previous, { width, height });
    renditions.push({
      width,
      height,
      webp: await encodeWebp(pixels, WEBP_QUALITY),
      jpeg: await encodeJpeg(pixels, JPEG_QUALITY),
    });
    previous = pixels;
  }
  renditions.reverse();
  return {
    id,
    sourceFormat: format,
    width: source.width,
    height: source.height,
    renditions,
  };
}
