import type { Branding } from "@/lib/data/tourism_data.ts";

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

/** Black or white text, whichever reads better on `hex` (WCAG luminance). */
export function contrastText(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast with white (1.05 / (L + .05)) vs. with near-black.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05
    ? "#ffffff"
    : "#1a1a1a";
}
