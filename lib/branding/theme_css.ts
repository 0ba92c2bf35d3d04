import type { Branding } from "@/lib/data/tourism_data.ts";
import { contrastRatio, parseHex, type Rgb } from "./color.ts";

/**
 * The branding colours as CSS custom properties, with derived shades. The
 * stylesheet uses only these variables, so a municipality re-brands by
 * editing its data set.
 */
export function renderThemeCss(colors: Branding["colors"]): string {
  // The data set's schema guarantees #RRGGBB, so nothing else reaches CSS.
  const safe = (value: string) =>
    /^#[0-9a-fA-F]{6}$/.test(value) ? value : "#000000";
  return `:root {
  --color-primary: ${safe(colors.primary)};
  --color-secondary: ${safe(colors.secondary)};
  --color-accent: ${safe(colors.accent)};
  --color-background: ${safe(colors.background)};
  --color-text: ${safe(colors.text)};
  --color-on-primary: ${contrastText(colors.primary)};
  --color-on-secondary: ${contrastText(colors.secondary)};
  --color-on-accent: ${contrastText(colors.accent)};
}
`;
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

/**
 * Black or white text, whichever has more WCAG contrast on `hex`. Dark text
 * is #1a1a1a, softer than pure black; the choice is still made against black.
 */
export function contrastText(hex: string): string {
  // The data set's schema allows only #RRGGBB; anything else gets dark text.
  const rgb = /^#[0-9a-fA-F]{6}$/.test(hex) ? parseHex(hex) : null;
  if (!rgb) return "#1a1a1a";
  return contrastRatio(WHITE, rgb) >= contrastRatio(BLACK, rgb)
    ? "#ffffff"
    : "#1a1a1a";
}
