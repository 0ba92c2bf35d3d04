/**
 * The share card's colours, derived from the operator's five branding
 * colours so that any branding gives a readable card.
 */
import {
  contrastRatio,
  mix,
  parseHex,
  relativeLuminance,
  type Rgb,
  toHex,
} from "@/lib/branding/color.ts";
import type { ShareCardBranding } from "./card_types.ts";

/** The branding used where the operator's is missing or not a hex colour. */
export const DEFAULT_COLORS: ShareCardBranding["colors"] = {
  primary: "#0E6E5C",
  secondary: "#C2410C",
  accent: "#F2B705",
  background: "#FFF8EE",
  text: "#1F2937",
};

/** Every colour the card draws with, as `#rrggbb`. */
export interface Palette {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
  text: string;
  muted: string;
  surface: string;
  border: string;
  track: string;
  primaryTint: string;
  onPrimary: string;
  onPrimaryMuted: string;
  /** Primary, darkened if needed to be readable on the background. */
  primaryInk: string;
  secondaryInk: string;
}

const WHITE: Rgb = [255, 255, 255];
/** The card's dark ink: a blue-black, not pure black. */
const INK: Rgb = [17, 24, 39];
/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

/**
 * The card's palette for `colors`. Operator colours are untrusted for
 * legibility: text below AA on the background is replaced by ink or white,
 * and brand colours used as text are pushed towards ink or white until they
 * read.
 */
export function cardPalette(
  colors: Partial<ShareCardBranding["colors"]> | undefined,
): Palette {
  const pick = (key: keyof ShareCardBranding["colors"]): Rgb =>
    parseHex(colors?.[key]) ?? parseHex(DEFAULT_COLORS[key])!;
  const primary = pick("primary");
  const secondary = pick("secondary");
  const accent = pick("accent");
  const background = pick("background");
  const lightBackground = relativeLuminance(background) > 0.4;
  let text = pick("text");
  if (contrastRatio(text, background) < MIN_CONTRAST) {
    text = lightBackground ? INK : WHITE;
  }
  const onPrimary = contrastRatio(WHITE, primary) >= contrastRatio(INK, primary)
    ? WHITE
    : INK;
  // At most six steps: each moves 25% of the way to ink (or white).
  const ink = (c: Rgb): Rgb => {
    let out = c;
    for (
      let i = 0;
      i < 6 && contrastRatio(out, background) < MIN_CONTRAST;
      i++
    ) {
      out = mix(out, lightBackground ? INK : WHITE, 0.75);
    }
    return out;
  };
  return {
    primary: toHex(primary),
    secondary: toHex(secondary),
    accent: toHex(accent),
    background: toHex(background),
    text: toHex(text),
    muted: toHex(mix(text, background, 0.68)),
    surface: toHex(lightBackground ? WHITE : mix(WHITE, background, 0.08)),
    border: toHex(mix(primary, background, 0.16)),
    track: toHex(mix(lightBackground ? primary : WHITE, background, 0.14)),
    primaryTint: toHex(mix(primary, background, 0.1)),
    onPrimary: toHex(onPrimary),
    onPrimaryMuted: toHex(mix(onPrimary, primary, 0.78)),
    primaryInk: toHex(ink(primary)),
    secondaryInk: toHex(ink(secondary)),
  };
}
