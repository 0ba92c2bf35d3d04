/**
 * What an uploaded file really is, told by its first bytes (never by its
 * name or the type its sender declared), and how large its picture says it
 * is, read from its header before a single pixel is decoded: a 10 KB PNG
 * may declare 50,000 x 50,000 pixels (a decompression bomb, 10 GB of
 * pixels once decoded).
 */
import { imageSize } from "image-size";

/** The picture formats the photo library takes. */
export type PhotoFormat = "jpeg" | "png" | "webp";

/** What the first bytes say a file is: a taken format, an SVG, or something else. */
export type SniffedType = PhotoFormat | "svg" | "unknown";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, prefix: number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((byte, i) => bytes[at + i] === byte);
}

/**
 * The file's type by its magic bytes: JPEG (`FF D8 FF`), PNG (its 8-byte
 * signature), WebP (`RIFF....WEBP`); an SVG is told by a `<svg` (or an XML
 * declaration) at its start, after a byte-order mark and white space, so it
 * is refused by name ("SVG") rather than as an unknown file.
 */
export function sniffImageType(bytes: Uint8Array): SniffedType {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, PNG_SIGNATURE)) return "png";
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) return "webp";
  const head = new TextDecoder("utf-8", { fatal: false })
    .decode(bytes.subarray(0, 1024)).replace(/^\uFEFF/, "").trimStart()
    .toLowerCase();
  if (
    head.startsWith("<svg") ||
    (head.startsWith("<?xml") || head.startsWith("<!doctype svg") ||
        head.startsWith("<!--")) && head.includes("<svg")
  ) return "svg";
  return "unknown";
}

const EXTENSIONS: Readonly<Record<string, SniffedType>> = {
  jpg: "jpeg",
  jpeg: "jpeg",
  jpe: "jpeg",
  jfif: "jpeg",
  png: "png",
  webp: "webp",
  svg: "svg",
  svgz: "svg",
};

const MEDIA_TYPES: Readonly<Record<string, SniffedType>> = {
  "image/jpeg": "jpeg",
  "image/jpg": "jpeg",
  "image/pjpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
  "image/svg+xml": "svg",
};

/**
 * The type a file's name (its extension) or its declared media type claims,
 * when it names one of the types this module knows; `undefined` when it
 * says nothing (no extension, `application/octet-stream`, an empty type).
 */
export function claimedType(
  { name, mediaType }: { name?: string; mediaType?: string },
): { byName?: SniffedType; byMediaType?: SniffedType } {
  const extension = name?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const type = mediaType?.toLowerCase().split(";")[0].trim();
  return {
    byName: extension ? EXTENSIONS[extension] : undefined,
    byMediaType: type ? MEDIA_TYPES[type] : undefined,
  };
}

/** A picture's size as its header declares it, and its EXIF orientation (1-8) where a JPEG has one. */
export interface ImageHeader {
  width: number;
  height: number;
  orientation?: number;
}

/**
 * The width and height the file's header declares (`image-size`, which
 * reads the JPEG's frame header, the PNG's IHDR, the WebP's VP8/VP8L/VP8X
 * chunk): `null` when the header cannot be read (a truncated or broken
 * file).
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  try {
    const size = imageSize(bytes);
    if (!size.width || !size.height) return null;
    return {
      width: size.width,
      height: size.height,
      ...(size.orientation ? { orientation: size.orientation } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Whether a file of `format` reaches its end: a JPEG's end-of-image marker
 * (`FF D9`, perhaps followed by a camera's trailing bytes), a PNG's `IEND`
 * chunk, a WebP's whole RIFF length. A truncated upload would otherwise
 * decode into a picture with a grey or missing bottom.
 */
export function isComplete(bytes: Uint8Array, format: PhotoFormat): boolean {
  switch (format) {
    case "jpeg": {
      for (let i = bytes.length - 2; i >= 2; i--) {
        if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
      }
      return false;
    }
    case "png": {
      const iend = [0x49, 0x45, 0x4e, 0x44];
      for (let i = bytes.length - 8; i >= 8; i--) {
        if (startsWith(bytes, iend, i)) return true;
      }
      return false;
    }
    case "webp": {
      if (bytes.length < 12) return false;
      const riffSize = new DataView(bytes.buffer, bytes.byteOffset, 12)
        .getUint32(4, true);
      return bytes.length >= riffSize + 8;
    }
  }
}
