/**
 * Fonts for the share card.
 *
 * - Inter latin + latin-ext (400, 700) are static `bytes` imports: always in
 *   memory, parsed by satori once (satori caches parsed fonts per data object
 *   and font managers per `fonts` array, so we always pass the same objects).
 * - Everything else (Inter cyrillic/greek/vietnamese, Noto Sans Arabic, the
 *   ~120 Noto Sans JP unicode-range slices) is loaded lazily, only for the
 *   code points a card actually contains, through literal `import()` calls in
 *   `_generated/fallback_fonts.ts` (part of the module graph, no fs/network).
 */
import interLatin400 from "@fontsource/inter/files/inter-latin-400-normal.woff" with {
  type: "bytes",
};
import interLatin700 from "@fontsource/inter/files/inter-latin-700-normal.woff" with {
  type: "bytes",
};
import interLatinExt400 from "@fontsource/inter/files/inter-latin-ext-400-normal.woff" with {
  type: "bytes",
};
import interLatinExt700 from "@fontsource/inter/files/inter-latin-ext-700-normal.woff" with {
  type: "bytes",
};
import type { Font } from "satori";
import type { FallbackSubset } from "./font_types.ts";
import { graphemes } from "@/lib/text/clean.ts";
import { isEmoji } from "./text.ts";
import {
  FALLBACK_SUBSETS,
  INTER_BASE_RANGES,
} from "./_generated/fallback_fonts.ts";
import { LRUCache } from "lru-cache";

export type Weight = 400 | 700;

/** Family names used in styles. */
export const FAMILY = "Inter";
export const FAMILY_EXT = "Inter latin-ext";

/** The bytes as a standalone ArrayBuffer (what satori's types expect). */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  if (
    buffer instanceof ArrayBuffer && byteOffset === 0 &&
    byteLength === buffer.byteLength
  ) {
    return buffer;
  }
  return bytes.slice().buffer;
}

function face(name: string, bytes: Uint8Array, weight: Weight): Font {
  return { name, data: toArrayBuffer(bytes), weight, style: "normal" };
}

/** The fonts every render gets (same array identity on every call). */
export const BASE_FONTS: Font[] = [
  face(FAMILY, interLatin400, 400),
  face(FAMILY, interLatin700, 700),
  face(FAMILY_EXT, interLatinExt400, 400),
  face(FAMILY_EXT, interLatinExt700, 700),
];

type Range = [number, number];

function parseRanges(compact: string): Range[] {
  const out: Range[] = [];
  for (const part of compact.split(",")) {
    if (!part) continue;
    const [a, b] = part.split("-");
    const start = parseInt(a, 16);
    out.push([start, b ? parseInt(b, 16) : start]);
  }
  return out;
}

/** Parsed ranges per source: index 0 = eager base fonts, i + 1 = subset i. */
let sources: Range[][] | undefined;

function getSources(): Range[][] {
  sources ??= [
    parseRanges(INTER_BASE_RANGES),
    ...FALLBACK_SUBSETS.map((s: FallbackSubset) => parseRanges(s.ranges)),
  ].map((ranges) => ranges.sort((x, y) => x[0] - y[0]));
  return sources;
}

function inRanges(ranges: Range[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end] = ranges[mid];
    if (cp < start) hi = mid - 1;
    else if (cp > end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Code point → its subset, `none` when no font has it. */
const lookupCache = new LRUCache<number, { subset?: number }>({ max: 4096 });

/**
 * Which font covers a code point: -1 = the eager base fonts, i = the lazy
 * subset FALLBACK_SUBSETS[i] (first match in priority order), undefined = no
 * font has it. A binary search per source (~130 sources), memoised.
 */
export function subsetFor(cp: number): number | undefined {
  const cached = lookupCache.get(cp);
  if (cached) return cached.subset;
  const all = getSources();
  let found: number | undefined;
  for (let i = 0; i < all.length; i++) {
    if (inRanges(all[i], cp)) {
      found = i - 1;
      break;
    }
  }
  lookupCache.set(cp, { subset: found });
  return found;
}

/** Invisible joiners/selectors that need no glyph of their own. */
export function isZeroWidth(cp: number): boolean {
  return cp === 0x200c || cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0x20e3 || (cp >= 0xe0020 && cp <= 0xe007f);
}

/** True when one of our fonts (eager or lazy) has a glyph for `cp`. */
export function hasGlyph(cp: number): boolean {
  return cp < 0x250 || subsetFor(cp) !== undefined;
}

const faceCache = new Map<string, Promise<Font | null>>();

function loadFace(index: number, weight: Weight): Promise<Font | null> {
  const key = `${index}:${weight}`;
  let p = faceCache.get(key);
  if (!p) {
    const subset = FALLBACK_SUBSETS[index];
    const loader = weight === 700 ? subset.w700 : subset.w400;
    p = loader().then(
      (mod) => face(subset.family, mod.default, weight),
      () => {
        faceCache.delete(key); // allow a retry on a later render
        return null;
      },
    );
    faceCache.set(key, p);
  }
  return p;
}

/** Memoised `fonts` arrays per set of fallback faces (bounded). */
const fontSets = new LRUCache<string, Font[]>({ max: 32 });

/**
 * The satori `fonts` array for a card whose texts are given with the weight
 * they are drawn in. Returns {@link BASE_FONTS} itself when no fallback is
 * needed, and otherwise a memoised array (stable identity, so satori reuses
 * its font manager and shaping cache).
 */
export async function fontsFor(
  texts: readonly { text: string; weight: Weight }[],
): Promise<Font[]> {
  const needed = new Set<string>();
  for (const { text, weight } of texts) {
    for (const g of graphemes(text)) {
      if (isEmoji(g)) continue; // drawn as twemoji images
      for (const ch of g) {
        const cp = ch.codePointAt(0)!;
        if (cp < 0x250 || isZeroWidth(cp)) continue; // fast path: latin
        const subset = subsetFor(cp);
        if (subset === undefined || subset < 0) continue;
        needed.add(`${subset}:${weight}`);
      }
    }
  }
  if (needed.size === 0) return BASE_FONTS;
  const keys = [...needed].sort((a, b) => {
    const [sa, wa] = a.split(":").map(Number);
    const [sb, wb] = b.split(":").map(Number);
    return sa - sb || wa - wb;
  });
  const setKey = keys.join(",");
  const cached = fontSets.get(setKey);
  if (cached) return cached;
  const faces = await Promise.all(keys.map((k) => {
    const [s, w] = k.split(":").map(Number);
    return loadFace(s, w as Weight);
  }));
  const extra = faces.filter((f): f is Font => f !== null);
  const fonts = [...BASE_FONTS, ...extra];
  if (extra.length === faces.length) {
    fontSets.set(setKey, fonts);
  }
  return fonts;
}
