import type { MiddlewareHandler } from "hono";

/**
 * The pages' Content-Security-Policy: nothing but this origin, no inline
 * script or style, so an injected `<script>` or `style=` cannot run even if
 * escaping ever failed, and no third-party request (fonts, maps, analytics)
 * can leave a visitor's browser.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

/** Headers every page response carries (a handler may set its own CSP first). */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  // The chat's "usar mi ubicación" needs geolocation; nothing needs the rest.
  "Permissions-Policy": "geolocation=(self), camera=(), microphone=()",
};

/**
 * Adds {@linkcode PAGE_SECURITY_HEADERS} to every response outside `/api`
 * (pages, static files, the 404 page). The API's JSON keeps its own headers.
 * A header the handler already set wins, so a route can tighten its CSP.
 */
export function securityHeaders(
  options: { skip?: (path: string) => boolean } = {},
): MiddlewareHandler {
  const skip = options.skip ?? isApiPath;
  return async function securityHeaders(c, next) {
    await next();
    if (skip(c.req.path)) return;
    for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  };
}

/** Whether a path belongs to the JSON API. */
export function isApiPath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/");
}
