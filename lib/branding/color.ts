/**
 * WCAG colour maths on sRGB hex colours. The site's theme CSS and the share
 * card both use it, so they agree on what "readable" means.
 */

/** An sRGB colour as 0-255 channels; mixing may leave fractions. */
export type Rgb = [number, number, number];

/**
 * Parse `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (alpha ignored: branding
 * colours are drawn opaque). Anything else, including a non-string, gives
 * null, so callers can fall back to a default instead of passing operator
 * text on to CSS or satori.
 */
export function parseHex(value: unknown): Rgb | null {
  if (typeof value !== "string") return null;
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim());
  if (!m) return null;
  let hex = m[1];
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join("");
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

/** `#rrggbb` (lower case, channels rounded): a value CSS and satori take. */
export function toHex([r, g, b]: Rgb): string {
  return "#" +
    [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

/**
 * `amount` (0-1) of `a` over `b`, channel by channel in sRGB, as CSS
 * `color-mix(in srgb, ...)` does: tints and shades of the brand colours.
 */
export function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => a[i] * amount + b[i] * (1 - amount)) as Rgb;
}

/**
 * WCAG 2 relative luminance, 0 (black) to 1 (white): the input of
 * {@linkcode contrastRatio}, and a quick "is this background light" test.
 */
export function relativeLuminance([r, g, b]: Rgb): number {
  // 0.03928 is WCAG 2.0's threshold (2.1 says 0.04045); it matters only for
  // channel values between 10 and 11, and changing it would move colours
  // derived by mixing, so it stays.
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * WCAG contrast ratio of two colours, 1 to 21, in either order. Text needs
 * 4.5 to pass AA.
 */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
