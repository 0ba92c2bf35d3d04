/**
 * Text helpers for the share card: cleaning untrusted input and estimating
 * how much room a string needs, so the name can be sized before layout.
 */

/** Maximum number of user-perceived characters kept from a tourist's name. */
export const MAX_NAME_GRAPHEMES = 120;

/** Shown when a name is empty after cleaning. */
export const DEFAULT_NAME = "Viajero";

const segmenter = new Intl.Segmenter("es", { granularity: "grapheme" });

/**
 * Characters removed outright: C0/C1 controls (except whitespace, which is
 * collapsed below), bidi embeddings/overrides/isolates (they can visually
 * reorder the rest of the card), zero-width space/joiner-less formatting
 * marks, BOM, soft hyphen, object replacement and the interlinear
 * annotation controls. ZWJ (U+200D), ZWNJ (U+200C) and variation selectors
 * are kept: emoji sequences and Persian/Arabic text need them.
 */
const STRIP_RE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000E-\u001F\u007F-\u009F\u00AD\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFC]/g;

/** ANSI CSI / OSC escape sequences (terminal colours, titles, ...). */
const ANSI_RE =
  // deno-lint-ignore no-control-regex
  /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?|[@-Z\\-_])/g;

/** Any whitespace (including line/paragraph separators and tabs). */
const SPACE_RE = /[\s\u2028\u2029\u0085]+/gu;

/** Max combining marks kept per grapheme ("Zalgo" text stacks hundreds). */
const MAX_MARKS = 3;
/** Longest legitimate clusters are ZWJ emoji families with skin tones (~11). */
const MAX_CLUSTER_CODE_POINTS = 16;
const MARK_RE = /\p{M}/u;

/** Bound the size of one grapheme cluster; "" drops it. */
function tameCluster(cluster: string): string {
  const cps = [...cluster];
  if (cps.length <= 2) return cluster;
  if (cps.length > MAX_CLUSTER_CODE_POINTS) return "";
  let marks = 0;
  return cps.filter((ch) => !MARK_RE.test(ch) || ++marks <= MAX_MARKS).join("");
}

/** Split a string into grapheme clusters. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/**
 * Clean a string for display: lone surrogates replaced, controls and
 * invisible formatting removed, whitespace collapsed, trimmed and cut to
 * `maxGraphemes` grapheme clusters (never splitting an emoji sequence).
 * The result is plain text: it is only ever passed to satori as a child
 * string, never parsed as markup.
 */
export function cleanText(input: unknown, maxGraphemes: number): string {
  if (typeof input !== "string") return "";
  let text = input.toWellFormed();
  // Drop whole ANSI escape sequences first ("\x1b[31m"), then stray controls.
  text = text.replace(ANSI_RE, "");
  // Unicode "Cc"/"Cf" classes not listed in STRIP_RE (e.g. tag characters
  // outside flag sequences) are harmless to satori; keep the list explicit.
  text = text.replace(SPACE_RE, " ").replace(STRIP_RE, "");
  text = text.replace(/ {2,}/g, " ").trim();
  const parts: string[] = [];
  for (const g of graphemes(text)) {
    if (parts.length >= maxGraphemes) break;
    const cluster = tameCluster(g);
    if (cluster) parts.push(cluster);
  }
  return parts.join("").replace(/ {2,}/g, " ").trim();
}

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
