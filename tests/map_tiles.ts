/**
 * Map tiles for the tests, never from the internet: every test context and
 * service process points `MAP_TILE_URL` at {@linkcode TEST_MAP_TILE_URL}, a
 * loopback address where nothing listens, which `watchPage` (browser.ts)
 * answers inside Chromium with {@linkcode TILE_PNG}; a test about the tiles
 * themselves starts a real loopback tile server ({@linkcode serveTiles}) and
 * sets the setting to it.
 */
import { deflateSync } from "node:zlib";

/** The tiles' host in every test that does not start its own: port 9 (discard), nothing listens. */
export const TEST_TILE_ORIGIN = "http://127.0.0.1:9";
/** `MAP_TILE_URL` for tests. */
export const TEST_MAP_TILE_URL = `${TEST_TILE_ORIGIN}/{z}/{x}/{y}.png`;

/** A 256 × 256 PNG of one light colour: what every tile shows in the tests. */
export const TILE_PNG: Uint8Array = drawPng(256, 256, [0xe8, 0xef, 0xe4]);

/** A loopback tile server: `/{z}/{x}/{y}.png` answers {@linkcode TILE_PNG}, anything else 404. */
export interface TileServer extends AsyncDisposable {
  origin: string;
  /** `MAP_TILE_URL` for it. */
  url: string;
  /** The paths of the tiles it served, in order. */
  served: string[];
}

/** Starts a {@linkcode TileServer} on 127.0.0.1 and a free port. */
export function serveTiles(): TileServer {
  const served: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => {
      const { pathname } = new URL(request.url);
      if (!/^\/\d+\/\d+\/\d+\.png$/.test(pathname)) {
        return new Response("not a tile", { status: 404 });
      }
      served.push(pathname);
      return new Response(TILE_PNG.slice(), {
        headers: {
          "Content-Type": "image/png",
          // Never from the browser's cache: offline, a tile fails as
          // one never seen would on a phone that lost its signal.
          "Cache-Control": "no-store",
        },
      });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    origin,
    url: `${origin}/{z}/{x}/{y}.png`,
    served,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** An RGB PNG of one colour (filter 0 on every row, zlib-deflated). */
function drawPng(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
): Uint8Array {
  const row = new Uint8Array(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = new Uint8Array(row.length * height);
  for (let y = 0; y < height; y++) raw.set(row, y * row.length);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array()),
  ]);
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data]);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typed, 4);
  view.setUint32(8 + data.length, crc32(typed));
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** PNG's CRC-32 (ISO 3309), bit by bit: a few tiles' worth, once. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
