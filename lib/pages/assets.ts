import { fileURLToPath } from "node:url";
import type { MiddlewareHandler } from "hono";
import { serveStatic } from "hono/deno";

/** `static/`: hand-written assets, and `build/` below it for the bundle. */
export const STATIC_DIR = fileURLToPath(
  new URL("../../static", import.meta.url),
);
/** Where `deno task build` writes the islands bundle, styles and fonts. */
export const BUILD_DIR = `${STATIC_DIR}/build`;
/** The build's record of its hashed file names. */
export const MANIFEST_PATH = `${BUILD_DIR}/manifest.json`;

/** What a build produced: the public URLs pages link to. */
export interface AssetManifest {
  /** The islands' entry module (hydrates every island on the page). */
  client: string;
  /** The site's stylesheet. */
  styles: string;
}

let cached: { mtime: number; manifest: AssetManifest | null } | undefined;
let warned = false;

/**
 * The current build's assets, or null before the first build. Re-read when
 * the manifest changes, so a rebuild shows without a restart.
 */
export function getAssets(): AssetManifest | null {
  let mtime = -1;
  try {
    mtime = Deno.statSync(MANIFEST_PATH).mtime?.getTime() ?? 0;
  } catch {
    // No build yet: pages still render, unstyled and without islands.
  }
  if (cached && cached.mtime === mtime) return cached.manifest;
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
  cached = { mtime, manifest };
  return manifest;
}

/** Content-hashed file names (`client-3FJ2KQ7A.js`, `chunk-….js`) never change content. */
const HASHED = /[-.][A-Za-z0-9]{8}\.(?:js|css)$/;

/**
 * Serves `static/` under `/static/`: hashed build files for a year
 * (immutable), fonts for a week, anything else for five minutes.
 */
export function serveStaticFiles(): MiddlewareHandler {
  return serveStatic({
    root: STATIC_DIR,
    rewriteRequestPath: (path) => path.replace(/^\/static/, ""),
    onFound: (path, c) => {
      c.header("Cache-Control", getCacheControl(path));
    },
  });
}

/** The Cache-Control of a static file, by its path. */
export function getCacheControl(path: string): string {
  if (path.includes("/build/") && HASHED.test(path)) {
    return "public, max-age=31536000, immutable";
  }
  if (/\.woff2?$/.test(path)) return "public, max-age=604800";
  return "public, max-age=300";
}
