import assert from "node:assert/strict";
import { contrastRatio, parseHex } from "@/lib/branding/color.ts";
import { cardPalette, DEFAULT_COLORS } from "./palette.ts";

// Expected values: what card.ts derived before the palette moved here.
Deno.test("default branding gives the card's usual palette", () => {
  const expected = {
    primary: "#0e6e5c",
    secondary: "#c2410c",
    accent: "#f2b705",
    background: "#fff8ee",
    text: "#1f2937",
    muted: "#676b72",
    surface: "#ffffff",
    border: "#d8e2d7",
    track: "#dde5da",
    primaryTint: "#e7eadf",
    onPrimary: "#ffffff",
    onPrimaryMuted: "#cadfdb",
    primaryInk: "#0e6e5c",
    secondaryInk: "#c2410c",
  };
  assert.deepEqual(cardPalette(undefined), expected);
  assert.deepEqual(cardPalette(DEFAULT_COLORS), expected);
});

Deno.test("dark background: unreadable text becomes white", () => {
  assert.deepEqual(
    cardPalette({
      primary: "#93C5FD",
      secondary: "#F472B6",
      accent: "#FDE047",
      background: "#0B1220",
      text: "#1F2937",
    }),
    {
      primary: "#93c5fd",
      secondary: "#f472b6",
      accent: "#fde047",
      background: "#0b1220",
      text: "#ffffff",
      muted: "#b1b3b8",
      surface: "#1f2532",
      border: "#212f43",
      track: "#2d333f",
      primaryTint: "#192436",
      onPrimary: "#111827",
      onPrimaryMuted: "#2e3e56",
      primaryInk: "#93c5fd",
      secondaryInk: "#f472b6",
    },
  );
});

Deno.test("invalid colours fall back to the defaults, shorthand is read", () => {
  const p = cardPalette({
    primary: "url(javascript:alert(1))",
    secondary: "red; background: url(x)",
    accent: "#abcd",
    background: "#000",
    text: "#000",
  });
  assert.equal(p.primary, "#0e6e5c");
  assert.equal(p.secondary, "#c2410c");
  assert.equal(p.accent, "#aabbcc");
  assert.equal(p.background, "#000000");
  assert.equal(p.text, "#ffffff");
  assert.equal(p.primaryInk, "#4a9285");
  assert.equal(p.secondaryInk, "#d17149");
});

Deno.test("pale brand colours are darkened until they read as text", () => {
  const p = cardPalette({
    primary: "#FDE68A",
    secondary: "#FBCFE8",
    accent: "#fff",
    background: "#FFFFFF",
    text: "#EEEEEE",
  });
  assert.equal(p.text, "#111827");
  assert.equal(p.onPrimary, "#111827");
  assert.equal(p.primaryInk, "#756f51");
  assert.equal(p.secondaryInk, "#746578");
  const bg = parseHex(p.background)!;
  for (const ink of [p.text, p.primaryInk, p.secondaryInk]) {
    assert.ok(contrastRatio(parseHex(ink)!, bg) >= 4.5, ink);
  }
});
