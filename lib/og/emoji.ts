/**
 * Twemoji lookup for satori's `loadAdditionalAsset("emoji", segment)`.
 *
 * The SVGs come from `@twemoji/svg` through literal `import(..., { with:
 * { type: "text" } })` calls in `_generated/twemoji.ts`, which is itself
 * imported lazily on the first emoji, so cards without emoji never pay for
 * the 3.7k-entry table.
 */

import { registerTrustedSvg } from "./inline_svg.ts";
import { LRUCache } from "lru-cache";

type Table = Record<string, () => Promise<{ default: string }>>;

let tablePromise: Promise<Table> | undefined;
/** File names keyed by their FE0F-less form, for sequences typed without VS16. */
let loose: Map<string, string> | undefined;

function table(): Promise<Table> {
  tablePromise ??= import("./_generated/twemoji.ts").then((m) => m.TWEMOJI)
    .catch((err) => {
      tablePromise = undefined;
      throw err;
    });
  return tablePromise;
}

function stripVs16(name: string): string {
  return name.split("-").filter((p) => p !== "fe0f").join("-");
}

/** Twemoji file name for an emoji grapheme, or undefined if there is none. */
export function twemojiName(segment: string, files: Table): string | undefined {
  const cps = [...segment].map((c) => c.codePointAt(0)!.toString(16));
  const exact = cps.join("-");
  if (Object.hasOwn(files, exact)) return exact;
  // Twemoji drops FE0F from names of sequences without ZWJ ("1f396" for
  // 🎖️, "23-20e3" for #️⃣) but keeps it in most ZWJ sequences.
  const stripped = stripVs16(exact);
  if (Object.hasOwn(files, stripped)) return stripped;
  if (!loose) {
    loose = new Map();
    for (const name of Object.keys(files)) {
      const key = stripVs16(name);
      if (!loose.has(key)) loose.set(key, name);
    }
  }
  return loose.get(stripped);
}

/** True when twemoji has an image for this emoji grapheme. */
export async function hasTwemoji(segment: string): Promise<boolean> {
  try {
    return twemojiName(segment, await table()) !== undefined;
  } catch {
    return false;
  }
}

const cache = new LRUCache<string, Promise<string | null>>({ max: 512 });

function toDataUri(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:image/svg+xml;base64,${btoa(bin)}`;
}

/**
 * Data URI of the twemoji SVG for `segment`, or null when twemoji has no
 * such emoji (or loading failed). Never rejects.
 */
export function emojiDataUri(segment: string): Promise<string | null> {
  const hit = cache.get(segment);
  if (hit) return hit;
  const p = (async () => {
    try {
      const files = await table();
      const name = twemojiName(segment, files);
      if (!name) return null;
      const mod = await files[name]();
      const uri = toDataUri(mod.default);
      registerTrustedSvg(uri, mod.default);
      return uri;
    } catch {
      cache.delete(segment); // transient failure: allow a retry
      return null;
    }
  })();
  cache.set(segment, p);
  return p;
}
