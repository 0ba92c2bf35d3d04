/**
 * `static/`: hand-written assets, and `build/` below it for the bundle. From
 * this module's own folder (`lib/pages`), not node:url's `fileURLToPath`:
 * the service's start reads these paths, and node:url would start Deno's
 * Node layer for them.
 */
export const STATIC_DIR = `${
  import.meta.dirname!.slice(0, -"/lib/pages".length)
}/static`;
/** Where `deno task build` writes the islands bundle, styles and fonts. */
export const BUILD_DIR = `${STATIC_DIR}/build`;
/** The build's record of its hashed file names. */
export const MANIFEST_PATH = `${BUILD_DIR}/manifest.json`;

/** What a build produced: the public URLs pages link to. */
export interface AssetManifest {
  /** The islands' entry module (hydrates every island on the page). */
  client: string;
  /** The modules the entry imports statically: `modulepreload`ed with it. */
  clientImports: string[];
  /** Each island's chunk and the modules it imports: `modulepreload`ed on pages that show it. */
  islands: Record<string, string[]>;
  /** The site's stylesheet. */
  styles: string;
  /** Leaflet's stylesheet, linked by the map island when it draws a map. */
  mapStyles?: string;
  /** The font most text is set in: `preload`ed. */
  font: string;
  /** The service worker's bundle, served at `/sw.js` (routes/sw.js.ts). */
  serviceWorker?: string;
  /** The app icons drawn from the data set's logo, for the web app manifests. */
  icons?: { src: string; size: number; purpose: string }[];
  /** What the build drew `icons` from (lib/icons/). */
  iconsFrom?: { logoSvg: string; background: string };
  /** The bytes of the files the service worker precaches. */
  precacheBytes?: number;
}

/** How often pages look for a new build: a rebuild shows within this time. */
const MANIFEST_CHECK_MS = 1_000;

let cached:
  | { mtime: number; checkedAt: number; manifest: AssetManifest | null }
  | undefined;
let warned = false;

/**
 * The current build's assets, or null before the first build. The manifest
 * is looked at once a second at most (not on every page), and re-read when
 * it changed, so a rebuild shows without a restart.
 */
export function getAssets(): AssetManifest | null {
  const now = performance.now();
  if (cached && now - cached.checkedAt < MANIFEST_CHECK_MS) {
    return cached.manifest;
  }
  let mtime = -1;
  try {
    mtime = Deno.statSync(MANIFEST_PATH).mtime?.getTime() ?? 0;
  } catch {
    // No build yet: pages still render, unstyled and without islands.
  }
  if (cached && cached.mtime === mtime) {
    cached.checkedAt = now;
    return cached.manifest;
  }
  let manifest: AssetManifest | null = null;
  if (mtime >= 0) {
    try {
      manifest = JSON.parse(Deno.readTextFileSync(MANIFEST_PATH));
    } catch (error) {
      console.error(`Cannot read ${MANIFEST_PATH}:`, error);
    }
  }
  if (!manifest && !warned) {
    warned = true;
    console.warn(
      "No page bundle in static/build/: run `deno task build` (pages render without styles and islands).",
    );
  }
  cached = { mtime, checkedAt: now, manifest };
  return manifest;
}
