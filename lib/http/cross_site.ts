/**
 * The one cross-site check of every route a browser's cookie opens (the
 * staff console, the staff sign-in, the passport's data controls, the
 * tourist's sign-out, the session token): a state-changing request from
 * another site is refused before any handler runs, whatever its content
 * type. Not `hono/csrf`: it lets through every content type but the three
 * a plain HTML form can send, so a cross-site `fetch` with a JSON or
 * `application/octet-stream` body passed it.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "@/lib/config/config.ts";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";
import { getPublicOrigin } from "./origin.ts";

/** A state-changing request from another site, refused: 403 with `{error, details}`. */
export class CrossSiteError extends HttpError {
  override name = "CrossSiteError";
  constructor() {
    super(403, apiMessage("error.403"), apiMessage("auth.crossSite"));
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request comes from another site, by what the browser says:
 * `Sec-Fetch-Site` (sent by every current browser, and no page can set it)
 * must be `same-origin`; without it, `Origin` must be the portal's own.
 * `Sec-Fetch-Site` decides when sent because a page with
 * `Referrer-Policy: no-referrer` (a staff link's) posts its forms with
 * `Origin: null`. With neither header the request is no current browser's:
 * it passes only without cookies, so a script or an old browser carrying a
 * signed-in cookie gets nothing done.
 */
export function isCrossSiteRequest(
  c: Context,
  config: Pick<Config, "baseUrl">,
): boolean {
  const fetchSite = c.req.header("sec-fetch-site");
  if (fetchSite !== undefined) return fetchSite !== "same-origin";
  const origin = c.req.header("origin");
  if (origin !== undefined) return origin !== getPublicOrigin(c, config);
  return c.req.header("cookie") !== undefined;
}

/**
 * Refuses every state-changing request (POST, PUT, PATCH, DELETE, any
 * method but GET, HEAD and OPTIONS) that {@linkcode isCrossSiteRequest}
 * says came from another site: throws `refusal()` (by default a
 * {@linkcode CrossSiteError}), before the body is read.
 */
export function refuseCrossSite(
  config: Pick<Config, "baseUrl">,
  { refusal = () => new CrossSiteError() }: { refusal?: () => Error } = {},
): MiddlewareHandler {
  return async function refuseCrossSite(c, next) {
    if (!SAFE_METHODS.has(c.req.method) && isCrossSiteRequest(c, config)) {
      throw refusal();
    }
    await next();
  };
}
