/** A lazily loaded fallback font subset (see `_generated/fallback_fonts.ts`). */
export interface FallbackSubset {
  /** Unique satori family name (satori keeps one face per family+weight). */
  family: string;
  /** Compact hex code point ranges, e.g. "400-45f,490". */
  ranges: string;
  w400: () => Promise<{ default: Uint8Array }>;
  w700: () => Promise<{ default: Uint8Array }>;
}
