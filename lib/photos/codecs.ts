/**
 * The picture codecs, Squoosh's WebAssembly builds as `@jsquash/*` ships
 * them (mozjpeg, libwebp, the PNG decoder and the Lanczos resizer): no
 * native addon and nothing read from disk or the network at run time. Each
 * `.wasm` is a `bytes` import, part of the module graph (as resvg's is in
 * lib/og/resvg.ts), compiled once per process or worker on first use.
 */
import decodeJpegWasm, {
  init as initJpegDecoder,
} from "@jsquash/jpeg/decode.js";
import encodeJpegWasm, {
  init as initJpegEncoder,
} from "@jsquash/jpeg/encode.js";
import {
  decode as decodePngWasm,
  init as initPngDecoder,
} from "@jsquash/png/decode.js";
import decodeWebpWasm, {
  init as initWebpDecoder,
} from "@jsquash/webp/decode.js";
import encodeWebpWasm, {
  init as initWebpEncoder,
} from "@jsquash/webp/encode.js";
import resizeWasm, { initResize } from "@jsquash/resize";
import jpegDecoderWasm from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm" with {
  type: "bytes",
};
import jpegEncoderWasm from "@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm" with {
  type: "bytes",
};
import pngDecoderWasm from "@jsquash/png/codec/pkg/squoosh_png_bg.wasm" with {
  type: "bytes",
};
import webpDecoderWasm from "@jsquash/webp/codec/dec/webp_dec.wasm" with {
  type: "bytes",
};
// The SIMD build: `@jsquash/webp`'s init picks it wherever WebAssembly SIMD
// runs (V8, so Deno and Deno Deploy), and expects that module.
import webpEncoderWasm from "@jsquash/webp/codec/enc/webp_enc_simd.wasm" with {
  type: "bytes",
};
import resizerWasm from "@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm" with {
  type: "bytes",
};
import type { PhotoFormat } from "./formats.ts";

/** RGBA pixels, as the codecs take and give them (the shape of the DOM's `ImageData`). */
export interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

// The codecs build `ImageData` results; Deno has no such global.
if (!("ImageData" in globalThis)) {
  (globalThis as Record<string, unknown>).ImageData = class ImageData {
    colorSpace = "srgb";
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
}

type Init = (module: WebAssembly.Module) => Promise<unknown>;

let ready: Promise<void> | undefined;

/** Compiles every codec once; concurrent first calls share it, a failed one is tried again. */
export function initCodecs(): Promise<void> {
  ready ??= (async () => {
    const pairs: [Init, Uint8Array][] = [
      [initJpegDecoder as unknown as Init, jpegDecoderWasm],
      [initJpegEncoder as unknown as Init, jpegEncoderWasm],
      [initPngDecoder as unknown as Init, pngDecoderWasm],
      [initWebpDecoder as unknown as Init, webpDecoderWasm],
      [initWebpEncoder as unknown as Init, webpEncoderWasm],
      [initResize as unknown as Init, resizerWasm],
    ];
    await Promise.all(
      pairs.map(async ([init, bytes]) =>
        await init(await WebAssembly.compile(bytes as BufferSource))
      ),
    );
  })().catch((error) => {
    ready = undefined;
    throw error;
  });
  return ready;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer as ArrayBuffer
    : bytes.slice().buffer;
}

/**
 * Decodes a file of a known format into RGBA pixels; a JPEG is turned the
 * way its EXIF orientation says (the EXIF itself goes: nothing of it is
 * kept once the pixels are encoded again).
 */
export async function decodePixels(
  bytes: Uint8Array,
  format: PhotoFormat,
): Promise<Pixels> {
  await initCodecs();
  const buffer = toArrayBuffer(bytes);
  switch (format) {
    case "jpeg":
      return await decodeJpegWasm(buffer, { preserveOrientation: true });
    case "png":
      return await decodePngWasm(buffer);
    case "webp":
      return await decodeWebpWasm(buffer);
  }
}

/** Resizes `pixels` to `width` x `height` (Lanczos 3, gamma-correct). */
export async function resizePixels(
  pixels: Pixels,
  { width, height }: { width: number; height: number },
): Promise<Pixels> {
  await initCodecs();
  if (pixels.width === width && pixels.height === height) return pixels;
  return await resizeWasm(pixels as ImageData, {
    width,
    height,
    method: "lanczos3",
    linearRGB: true,
    premultiply: true,
  });
}

/** The pixels as a WebP (lossy, `quality` 0-100): no metadata chunk. */
export async function encodeWebp(
  pixels: Pixels,
  quality: number,
): Promise<Uint8Array> {
  await initCodecs();
  return new Uint8Array(await encodeWebpWasm(pixels as ImageData, { quality }));
}

/**
 * The pixels as a progressive JPEG (mozjpeg, `quality` 0-100), transparent
 * parts laid on white: mozjpeg writes no EXIF of its own, only the JFIF
 * header.
 */
export async function encodeJpeg(
  pixels: Pixels,
  quality: number,
): Promise<Uint8Array> {
  await initCodecs();
  return new Uint8Array(
    await encodeJpegWasm(flattenOnWhite(pixels) as ImageData, { quality }),
  );
}

/** A copy of `pixels` with every partly transparent pixel blended onto white (a JPEG has no alpha). */
function flattenOnWhite(pixels: Pixels): Pixels {
  const { data } = pixels;
  let opaque = true;
  for (let i = 3; i < data.length; i += 4) {
    if (data[i] !== 255) {
      opaque = false;
      break;
    }
  }
  if (opaque) return pixels;
  const out = new Uint8ClampedArray(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3] / 255;
    out[i] = data[i] * alpha + 255 * (1 - alpha);
    out[i + 1] = data[i + 1] * alpha + 255 * (1 - alpha);
    out[i + 2] = data[i + 2] * alpha + 255 * (1 - alpha);
    out[i + 3] = 255;
  }
  return { data: out, width: pixels.width, height: pixels.height };
}
