import assert from "node:assert/strict";
import {
  contrastRatio,
  mix,
  parseHex,
  relativeLuminance,
  toHex,
} from "./color.ts";

Deno.test("parseHex reads 3, 4, 6 and 8 digits, alpha ignored", () => {
  assert.deepEqual(parseHex("#0E6E5C"), [14, 110, 92]);
  assert.deepEqual(parseHex("#0e6e5c"), [14, 110, 92]);
  assert.deepEqual(parseHex("#abc"), [170, 187, 204]);
  assert.deepEqual(parseHex("#abcd"), [170, 187, 204]);
  assert.deepEqual(parseHex("#0e6e5c80"), [14, 110, 92]);
  assert.deepEqual(parseHex("  #fff "), [255, 255, 255]);
});

Deno.test("parseHex refuses anything that is not a hex colour", () => {
  for (
    const value of [
      "red",
      "",
      "#",
      "#12345",
      "#1234567",
      "#GGGGGG",
      "url(javascript:alert(1))",
      "#fff; background: red",
      undefined,
      null,
      0xffffff,
    ]
  ) {
    assert.equal(parseHex(value), null, String(value));
  }
});

Deno.test("toHex rounds channels and pads", () => {
  assert.equal(toHex([14, 110, 92]), "#0e6e5c");
  assert.equal(toHex([0, 0, 0]), "#000000");
  assert.equal(toHex([254.5, 0.49, 15.5]), "#ff0010");
});

Deno.test("mix weighs the first colour by amount", () => {
  assert.deepEqual(mix([255, 255, 255], [0, 0, 0], 1), [255, 255, 255]);
  assert.deepEqual(mix([255, 255, 255], [0, 0, 0], 0), [0, 0, 0]);
  assert.deepEqual(mix([200, 100, 0], [0, 100, 200], 0.75), [150, 100, 50]);
});

Deno.test("relative luminance: WCAG reference points", () => {
  assert.equal(relativeLuminance([0, 0, 0]), 0);
  assert.equal(relativeLuminance([255, 255, 255]), 1);
  assert.equal(relativeLuminance([255, 0, 0]), 0.2126);
  assert.equal(relativeLuminance([0, 255, 0]), 0.7152);
  assert.equal(relativeLuminance([0, 0, 255]), 0.0722);
  assert.ok(Math.abs(relativeLuminance([128, 128, 128]) - 0.2158605) < 1e-6);
});

Deno.test("contrast ratio: 21 for black on white, symmetric, 1 for equal", () => {
  const white = [255, 255, 255] as [number, number, number];
  const black = [0, 0, 0] as [number, number, number];
  assert.equal(contrastRatio(black, white), 21);
  assert.equal(contrastRatio(white, black), 21);
  assert.equal(contrastRatio([14, 110, 92], [14, 110, 92]), 1);
  // #767676 is the lightest grey that passes AA on white; #777777 is not.
  assert.ok(contrastRatio(parseHex("#767676")!, white) >= 4.5);
  assert.ok(contrastRatio(parseHex("#777777")!, white) < 4.5);
});
