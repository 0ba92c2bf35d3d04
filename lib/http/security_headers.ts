import type { MiddlewareHandler } from "hono";
import { isSecretUrl } from "./secret_urls.ts";

/**
 * The pages' Content-Security-Policy: nothing but this origin, no inline
 * script or style, so an injected `<script>` or `style=` cannot run even if
 * escaping ever failed, and no third-party request (fonts, analytics) can
 * leave a visitor's browser. `imageSources`: more `img-src` sources, only
 * for a page that needs them (a map's tile host, `Config.mapTiles`).
 */
export function getContentSecurityPolicy(
  { imageSources = [] }: { imageSources?: readonly string[] } = {},
): string {
  return [
    "default-src 'self'",
    ["img-src 'self' data:", ...imageSources].join(" "),
    "connect-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "font-src 'self'",
    // The service worker (/sw.js) and the web app manifests: this origin's.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** The policy of every page but those with a map: this origin only. */
export const CONTENT_SECURITY_POLICY = getContentSecurityPolicy();

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
 * (static files, the theme, the 404 page) that has no
 * Content-Security-Policy yet. A handler that sets a CSP sets the rest as it
 * wants too: the pages send all of them from `renderPage`, so a page served
 * from the cache costs one header lookup here; the logo sends its own
 * stricter CSP. An address that carries a secret always gets
 * `Referrer-Policy: no-referrer`.
 */
export function securityHeaders(
  options: { skip?: (path: string) => boolean } = {},
): MiddlewareHandler {
  const skip = options.skip ?? isApiPath;
  return async function securityHeaders(c, next) {
    await next();
    if (!skip(c.req.path) && !c.res.headers.has("Content-Security-Policy")) {
      for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) {
        c.res.headers.set(name, value);
      }
    }
    // A secret in the address (lib/http/secret_urls.ts) never goes on in a
    // Referer, whoever set the page's other headers.
    if (isSecretUrl(c.req.path)) {
      c.res.headers.set("Referrer-Policy", "no-referrer");
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
 * tokens, tickets carry a user's data) unless the route set its own; and
 * `Access-Control-Allow-Credentials: true` only beside an allowed origin's
 * `Access-Control-Allow-Origin` (set here rather than by `hono/cors`, which
 * would send it to every origin and touch every answer before it exists).
 */
export function apiHeaders(): MiddlewareHandler {
  return async function apiHeaders(c, next) {
    await next();
    const headers = c.res.headers;
    headers.set("X-Content-Type-Options", "nosniff");
    if (c.req.method !== "GET" && !headers.has("Cache-Control")) {
      headers.set("Cache-Control", "no-store");
    }
    if (headers.has("Access-Control-Allow-Origin")) {
      headers.set("Access-Control-Allow-Credentials", "true");
    }
  };
}
