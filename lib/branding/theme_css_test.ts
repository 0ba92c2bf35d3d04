import assert from "node:assert/strict";
import { contrastText } from "./theme_css.ts";

/** contrastText as it was before it used color.ts: the reference. */
function contrastTextBefore(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05
    ? "#ffffff"
    : "#1a1a1a";
}

Deno.test("contrastText: same answers as before for brand colours", () => {
  const expected: Record<string, string> = {
    "#1D5C63": "#ffffff",
    "#0E6E5C": "#ffffff",
    "#C2410C": "#ffffff",
    "#8A4B1C": "#ffffff",
    "#E0A526": "#1a1a1a",
    "#F2B705": "#1a1a1a",
    "#FBF8F1": "#1a1a1a",
    "#000000": "#ffffff",
    "#ffffff": "#1a1a1a",
    // Either side of the switch, where contrast with white and with black
    // are equal (luminance ~0.179).
    "#757575": "#ffffff",
    "#767676": "#1a1a1a",
  };
  for (const [hex, text] of Object.entries(expected)) {
    assert.equal(contrastText(hex), text, hex);
    assert.equal(contrastTextBefore(hex), text, hex);
  }
});

Deno.test("contrastText: same answers as before across the colour cube", () => {
  // Every 5th channel value, upper and lower case: ~280k colours.
  for (let r = 0; r < 256; r += 5) {
    for (let g = 0; g < 256; g += 5) {
      for (let b = 0; b < 256; b += 5) {
        const hex = "#" +
          [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
        assert.equal(contrastText(hex), contrastTextBefore(hex), hex);
        const upper = hex.toUpperCase();
        assert.equal(contrastText(upper), contrastTextBefore(upper), upper);
      }
    }
  }
});

Deno.test("contrastText: dark text for what the schema refuses", () => {
  for (const value of ["", "red", "#fff", "#GGGGGG", " #123456"]) {
    assert.equal(contrastText(value), "#1a1a1a", value);
  }
});
