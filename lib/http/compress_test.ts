import assert from "node:assert/strict";
import { chooseEncoding, isCompressible } from "./compress.ts";

Deno.test("chooseEncoding follows Accept-Encoding, brotli first", () => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["gzip;q=0.5, br;q=0.8", "br"],
    ["*", "br"],
    ["*;q=0", null],
    ["deflate", null],
    ["GZIP", "gzip"],
  ];
  for (const [header, expected] of cases) {
    assert.equal(chooseEncoding(header), expected, String(header));
  }
});

Deno.test("isCompressible: text, JSON and SVG; not images, fonts or event streams", () => {
  for (
    const type of [
      "text/html; charset=UTF-8",
      "application/json",
      "text/css; charset=utf-8",
      "image/svg+xml",
      "text/javascript",
    ]
  ) {
    assert.equal(isCompressible(type), true, type);
  }
  for (
    const type of [
      null,
      "image/png",
      "font/woff2",
      "text/event-stream",
      "application/octet-stream",
    ]
  ) {
    assert.equal(isCompressible(type), false, String(type));
  }
});
