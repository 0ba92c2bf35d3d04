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

/** HSTS: browsers go to the portal over https only, for a year, subdomains too. */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/**
 * `Strict-Transport-Security` on every response when the portal is served
 * over https (`BASE_URL`); nothing on plain http, where browsers ignore it
 * and local development must keep working.
 */
export function strictTransportSecurity(
  { baseUrl }: { baseUrl?: string },
): MiddlewareHandler {
  const enabled = baseUrl?.startsWith("https:") ?? false;
  return async function strictTransportSecurity(c, next) {
    await next();
    if (enabled) {
      c.res.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    }
  };
}

/**
 * The API's own headers, for every response under `/api` (errors and CORS
 * preflights included): `X-Content-Type-Options: nosniff`; `Cache-Control:
 * no-store` on answers to anything but GET (verifications, ratings, session
 * tokens, tickets carry a user's data) unless the route set its own; and no
 * `Access-Control-Allow-Credentials` without an allowed origin (`hono/cors`
 * sends it to every origin).
 */
export function apiHeaders(): MiddlewareHandler {
  return async function apiHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    headers.set("X-Content-Type-Options", "nosniff");
    if (c.req.method !== "GET" && !headers.has("Cache-Control")) {
      headers.set("Cache-Control", "no-store");
    }
    if (!headers.has("Access-Control-Allow-Origin")) {
      headers.delete("Access-Control-Allow-Credentials");
    }
  };
}
