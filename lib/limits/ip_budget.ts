import type { MiddlewareHandler } from "hono";
import type { SlidingWindowLimiter } from "./sliding_window.ts";
import type { Config } from "@/lib/config/config.ts";
import { apiMessage, TooManyRequestsError } from "@/lib/errors/mod.ts";

/**
 * The client-address reader, imported with the first request the budget
 * counts: its IP-literal check (`node:net`) starts Deno's Node layer, which
 * a new instance's health checks do not need.
 */
let clientIp: Promise<typeof import("@/lib/http/client_ip.ts")> | undefined;

/** The budget's window: "requests a minute". */
export const IP_BUDGET_WINDOW_MS = 60_000;

/**
 * The header the service worker sends with the pages it fetches ahead, at
 * install, for use with no signal (client/offline_config.ts names the same;
 * tests/http/ip_budget_test.ts holds them equal). Anyone can send it: it
 * buys no request beyond the address's budget ({@linkcode limitIpBudget}).
 */
export const OFFLINE_WARM_UP_HEADER = "x-pasaporte-warm-up";

/**
 * The part of an address's budget its warm-ups may use in a window: a
 * warm-up passes only while the address's count (warm-ups and the rest
 * together) is below half its budget, so the other half is always left to
 * the tourists' own pages and calls. A first visit's warm-up (one language:
 * the passport, the home page, the list and each attraction's page, 20 with
 * the shipped data set) fits in the default budget's half seven times over.
 */
export const WARM_UP_SHARE = 0.5;

/**
 * Paths that never count: the health check (load balancers poll it) and
 * static files (one page view pulls several; their bytes are cached by
 * browsers and CDNs).
 */
export function isExemptFromIpBudget(method: string, path: string): boolean {
  return method === "OPTIONS" || path === "/healthz" ||
    path === "/theme.css" || path === "/logo.svg" ||
    path === "/favicon.ico" || path === "/robots.txt" ||
    path.startsWith("/static/");
}

/**
 * A temporary block for excessive use (docs/API.md, limits): every request
 * of one IP address (pages, API) counts against a generous per-minute budget
 * (`IP_BUDGET_PER_MINUTE`, 0 turns it off). Past it the request is refused
 * with 429 and `Retry-After` (the error funnel answers `{error, details}`,
 * or `{reply}` under /api/chat); refused requests are not counted.
 *
 * The service worker's warm-up GETs (`x-pasaporte-warm-up: 1`) spend the
 * same budget, and only its first part ({@linkcode WARM_UP_SHARE}): near
 * the budget's end warm-ups are refused first, and never take the last of
 * it from the tourists' own pages and calls. A forged header buys nothing
 * beyond the budget; a refused warm-up only means that page is cached when
 * first opened (or by the worker's next warm-up, after the next page).
 *
 * Counted by each instance on its own ({@linkcode SlidingWindowLimiter}):
 * constant work per request whatever the number of addresses, no KV. N
 * instances allow an address about N times the budget; the exact limits
 * (the chat's 20 a minute, wrong guide codes) are kept in KV. Requests
 * without a connection address (the app called in process, as tests do)
 * are not counted: there is no client.
 */
export function limitIpBudget(
  deps: {
    /** Created with the app's dependencies; none when the budget is off. */
    ipBudget?: SlidingWindowLimiter;
    config: Pick<Config, "trustedProxyHops">;
  },
): MiddlewareHandler {
  return async function limitIpBudget(c, next) {
    if (!deps.ipBudget || isExemptFromIpBudget(c.req.method, c.req.path)) {
      return await next();
    }
    clientIp ??= import("@/lib/http/client_ip.ts");
    clientIpModule ??= await clientIp;
    const result = countRequest(deps, c.req.raw, c.env, c.req.path);
    if (result && !result.allowed) {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new TooManyRequestsError(
        apiMessage("limit.requests", { seconds }),
        result.retryAfterMs / 1000,
      );
    }
    await next();
  };
}

/** The client-address reader once imported (a replayed answer counts without waiting). */
let clientIpModule: typeof import("@/lib/http/client_ip.ts") | undefined;

/**
 * Counts one request against its address's budget, as
 * {@linkcode limitIpBudget} does, synchronously: `undefined` when it does
 * not count (budget off, an exempt path, no client address) or cannot be
 * counted yet (the address reader not imported: let the middleware do it);
 * else whether it is allowed. A refused request is not counted.
 */
export function countRequest(
  { ipBudget: limiter, config }: {
    ipBudget?: SlidingWindowLimiter;
    config: Pick<Config, "trustedProxyHops">;
  },
  request: Request,
  info: unknown,
  path: string,
): { allowed: boolean; retryAfterMs: number } | undefined {
  if (!limiter || isExemptFromIpBudget(request.method, path)) return undefined;
  if (!clientIpModule) return undefined;
  const subject = clientIpModule.getRequestIp(
    request,
    info,
    config.trustedProxyHops,
  );
  if (subject === "unknown") return undefined;
  const warmUp = request.method === "GET" &&
    request.headers.get(OFFLINE_WARM_UP_HEADER) === "1";
  // A warm-up counts as any request, within the budget's first part.
  return limiter.hit(
    subject,
    warmUp
      ? Math.max(1, Math.floor(limiter.limit * WARM_UP_SHARE))
      : limiter.limit,
  );
}
