/**
 * Cleaning text a visitor typed (names, notes) before it is stored or
 * shown: the one rule for the ticket endpoint, ratings, sign-in names and
 * the share card.
 */

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
 * Removes what never belongs in visible text and could disguise or
 * reorder it: controls (but newlines and tabs), bidi overrides and
 * isolates, zero-width marks, ANSI escapes; lone surrogates become U+FFFD.
 * Whitespace and length are left as they are.
 */
export function stripInvisible(input: string): string {
  return input.toWellFormed().replace(ANSI_RE, "").replace(STRIP_RE, "");
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
