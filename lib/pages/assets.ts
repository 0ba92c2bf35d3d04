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
  /** The modules the entry imports statically: `modulepreload`ed with it. */
  clientImports: string[];
  /** Each island's chunk and the modules it imports: `modulepreload`ed on pages that show it. */
  islands: Record<string, string[]>;
  /** The site's stylesheet. */
  styles: string;
  /** The font most text is set in: `preload`ed. */
  font: string;
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

/** Content-hashed file names (`client-3FJ2KQ7A.js`, `chunk-….js`, fonts) never change content. */
const HASHED = /[-.][A-Za-z0-9]{8}\.(?:js|css|woff2)$/;

/** Types the build keeps `.br` and `.gz` forms of. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json)|image\/svg)/;

/**
 * Serves `static/` under `/static/`: hashed build files (fonts included) for
 * a year (immutable), anything else for five minutes. A client that accepts
 * brotli or gzip gets the build's pre-compressed form of a text file;
 * `Vary: Accept-Encoding` is on every answer that could have been.
 */
export function serveStaticFiles(): MiddlewareHandler {
  const serve = serveStatic({
    root: STATIC_DIR,
    precompressed: true,
    rewriteRequestPath: (path) => path.replace(/^\/static/, ""),
    onFound: (path, c) => {
      c.header("Cache-Control", getCacheControl(path));
    },
  });
  return async function serveStaticFiles(c, next) {
    const found = await serve(c, next);
    if (!found) return;
    const type = found.headers.get("Content-Type") ?? "";
    if (
      COMPRESSIBLE.test(type) &&
      !found.headers.get("Vary")?.includes("Accept-Encoding")
    ) {
      found.headers.append("Vary", "Accept-Encoding");
    }
    return found;
  };
}

/** The Cache-Control of a static file, by its path. */
export function getCacheControl(path: string): string {
  if (path.includes("/build/") && HASHED.test(path)) {
    return "public, max-age=31536000, immutable";
  }
  return "public, max-age=300";
}
