/**
 * Photos made in the test, never shipped: a photo-like JPEG (with a
 * phone's EXIF, GPS position included, written by `piexifjs`), a PNG of any
 * declared size (a decompression bomb is a 50,000 x 50,000 header over a few
 * bytes of data), a WebP, an SVG with a script.
 */
import piexif from "piexifjs";
import { encodeJpeg, encodeWebp, type Pixels } from "@/lib/photos/codecs.ts";

/** A photo-like picture: gradients and a pattern, so it compresses as a photo does. */
export function makePixels(width: number, height: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = ((x ^ y) * 7) & 255;
      data[i + 3] = 255;
    }
  }
  return { data, width, height };
}

function toBinaryString(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return out;
}

function fromBinaryString(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** Where the test's phone says it was: the Plaza de Armas of Tequila, Jalisco. */
export const TEST_GPS = { latitude: 20.8823, longitude: -103.8363 };

/**
 * A JPEG `width` x `height`, with a phone's EXIF (make, model, the date
 * taken and, with `gps`, the position) when `exif` is not false.
 */
export async function makeJpeg(
  width: number,
  height: number,
  { exif = true, gps = true, orientation }: {
    exif?: boolean;
    gps?: boolean;
    orientation?: number;
  } = {},
): Promise<Uint8Array> {
  const jpeg = await encodeJpeg(makePixels(width, height), 90);
  if (!exif) return jpeg;
  const zeroth: Record<number, unknown> = {
    [piexif.ImageIFD.Make]: "TestPhone",
    [piexif.ImageIFD.Model]: "TP-1",
    ...(orientation ? { [piexif.ImageIFD.Orientation]: orientation } : {}),
  };
  const exifIfd = {
    [piexif.ExifIFD.DateTimeOriginal]: "2026:11:30 12:34:56",
  };
  const gpsIfd = gps
    ? {
      [piexif.GPSIFD.GPSLatitudeRef]: "N",
      [piexif.GPSIFD.GPSLatitude]: piexif.GPSHelper.degToDmsRational(
        TEST_GPS.latitude,
      ),
      [piexif.GPSIFD.GPSLongitudeRef]: "W",
      [piexif.GPSIFD.GPSLongitude]: piexif.GPSHelper.degToDmsRational(
        -TEST_GPS.longitude,
      ),
    }
    : {};
  const block = piexif.dump({ "0th": zeroth, Exif: exifIfd, GPS: gpsIfd });
  return fromBinaryString(piexif.insert(block, toBinaryString(jpeg)));
}

/** A lossless-enough WebP `width` x `height`. */
export async function makeWebp(
  width: number,
  height: number,
): Promise<Uint8Array> {
  return await encodeWebp(makePixels(width, height), 90);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new CompressionStream("deflate"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * An RGBA PNG. With `declare`, its header says that size whatever pixels
 * follow (`declare: {width: 50_000, height: 50_000}` over a 1 x 1 picture:
 * a bomb's header).
 */
export async function makePng(
  width: number,
  height: number,
  { declare, alpha = false }: {
    declare?: { width: number; height: number };
    alpha?: boolean;
  } = {},
): Promise<Uint8Array> {
  const pixels = makePixels(width, height).data;
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    for (let i = 0; i < width * 4; i++) {
      const value = pixels[y * width * 4 + i];
      raw[y * (width * 4 + 1) + 1 + i] = alpha && i % 4 === 3 ? 128 : value;
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, declare?.width ?? width);
  view.setUint32(4, declare?.height ?? height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", await deflate(raw)),
    pngChunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An SVG that runs a script when opened in a browser. */
export const SVG_WITH_SCRIPT = new TextEncoder().encode(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
    "<script>alert(document.cookie)</script><rect width='10' height='10'/></svg>",
);
