/**
 * Serves `static/` under `/static/` (the static route; apart from assets.ts,
 * which the service's start reads).
 */
import type { MiddlewareHandler } from "hono";
import { STATIC_DIR } from "./assets.ts";

/** Content-hashed file names (`client-3FJ2KQ7A.js`, `chunk-….js`, fonts, icons) never change content. */
const HASHED = /[-.][A-Za-z0-9]{8}\.(?:js|css|woff2|png)$/;

/** Types the build keeps `.br` and `.gz` forms of. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json)|image\/svg)/;

/**
 * Serves `static/` under `/static/`: hashed build files (fonts included) for
 * a year (immutable), anything else for five minutes. A client that accepts
 * brotli or gzip gets the build's pre-compressed form of a text file;
 * `Vary: Accept-Encoding` is on every answer that could have been.
 */
export function serveStaticFiles(): MiddlewareHandler {
  // `hono/deno` (its static files, SSG and WebSocket helpers) takes about
  // 11 ms to load: the first static file loads it, not every page that
  // imports this folder's entry.
  let serving: Promise<MiddlewareHandler> | undefined;
  const getServe = () =>
    serving ??= import("hono/deno").then(({ serveStatic }) =>
      serveStatic({
        root: STATIC_DIR,
        precompressed: true,
        rewriteRequestPath: (path) => path.replace(/^\/static/, ""),
        onFound: (path, c) => {
          c.header("Cache-Control", getCacheControl(path));
        },
      })
    );
  return async function serveStaticFiles(c, next) {
    // Control characters or a name longer than the disk allows name no
    // file of ours: not even asked of the disk.
    if (/\p{Cc}|[^/]{256}/u.test(c.req.path)) return await next();
    const serve = await getServe();
    // hono's serveStatic hands what it does not serve (a path with `..`, an
    // encoded slash, a missing file) to `next`, and returns whatever that
    // returns: here, only a Response it made itself is a found file.
    let passed = false;
    const found = await serve(c, () => {
      passed = true;
      return Promise.resolve();
    });
    if (passed || !(found instanceof Response)) return await next();
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
