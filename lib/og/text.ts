/**
 * Text helpers for the share card: the name as the card shows it, and how
 * much room a string needs, so the name can be sized before layout.
 */
import { cleanText, graphemes } from "@/lib/text/clean.ts";

/** Maximum number of user-perceived characters kept from a tourist's name. */
export const MAX_NAME_GRAPHEMES = 120;

/** Shown when a name is empty after cleaning. */
export const DEFAULT_NAME = "Visitante";

/** Clean a tourist's name; empty results become {@link DEFAULT_NAME}. */
export function cleanName(input: unknown): string {
  return cleanText(input, MAX_NAME_GRAPHEMES) || DEFAULT_NAME;
}

const EMOJI_RE = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

/** True when the grapheme cluster is an emoji (rendered as a twemoji image). */
export function isEmoji(cluster: string): boolean {
  return EMOJI_RE.test(cluster);
}

/** First emoji grapheme of a badge icon string, or "" if there is none. */
export function firstEmoji(icon: unknown): string {
  if (typeof icon !== "string") return "";
  for (const g of graphemes(icon.slice(0, 64))) {
    if (isEmoji(g)) return g;
  }
  return "";
}

const RTL_RE = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const LETTER_RE = /\p{L}/u;

/** True when the first strong directional character is right-to-left. */
export function isRtl(text: string): boolean {
  for (const ch of text) {
    if (RTL_RE.test(ch)) return true;
    if (LETTER_RE.test(ch)) return false;
  }
  return false;
}

/**
 * Rough advance width of one grapheme in em for Inter Bold (and the Noto
 * fallbacks). Deliberately errs on the wide side: the estimate only picks a
 * font size; satori's line clamp is the hard guarantee against overflow.
 */
function clusterWidthEm(cluster: string): number {
  const cp = cluster.codePointAt(0) ?? 0x20;
  if (isEmoji(cluster)) return 1.2;
  if (cp === 0x20) return 0.26;
  // CJK, kana, hangul, fullwidth forms.
  if (
    (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    cp >= 0x20000
  ) {
    return 1.0;
  }
  if ("WMmwЖЩШЮжщшю@%ÆŒæœ".includes(cluster[0])) return 0.95;
  if ("il.,:;'!|Iíìïî1jtf()[]".includes(cluster[0])) return 0.33;
  if (cp >= 0x0600 && cp <= 0x08ff) return 0.5;
  const ch = cluster[0];
  if (ch !== ch.toLowerCase()) return 0.72; // other capitals
  if (cp >= 0x0400 && cp <= 0x052f) return 0.62; // cyrillic lowercase
  return 0.6;
}

/** Estimated width of `text` in em units. */
export function estimateWidthEm(text: string): number {
  let total = 0;
  for (const g of graphemes(text)) total += clusterWidthEm(g);
  return total;
}

/** Font sizes tried for the name, largest first. */
export const NAME_SIZES = [76, 68, 60, 54, 48, 42] as const;

/** Largest size at which the name may wrap onto a second line. */
const MAX_TWO_LINE_SIZE = 60;

/**
 * Pick the name's font size: the largest size at which the estimated width
 * fits on one line, or (for sizes up to 60px) on two lines, with some slack
 * for word wrapping. Longer names get the minimum size; satori then clamps
 * them to two lines with an ellipsis. The result never grows as the name
 * gets longer.
 */
export function pickNameSize(
  name: string,
  maxWidthPx: number,
): { fontSize: number; lines: 1 | 2 } {
  const em = estimateWidthEm(name);
  for (const size of NAME_SIZES) {
    if (em * size <= maxWidthPx) return { fontSize: size, lines: 1 };
    if (size <= MAX_TWO_LINE_SIZE && em * size <= maxWidthPx * 1.85) {
      return { fontSize: size, lines: 2 };
    }
  }
  return { fontSize: NAME_SIZES[NAME_SIZES.length - 1], lines: 2 };
}
