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
 * tests/http/ip_budget_test.ts holds them equal).
 */
export const OFFLINE_WARM_UP_HEADER = "x-pasaporte-warm-up";

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
 * Counted by each instance on its own ({@linkcode SlidingWindowLimiter}):
 * constant work per request whatever the number of addresses, no KV. N
 * instances allow an address about N times the budget; the exact limits
 * (the chat's 20 a minute, wrong guide codes) are kept in KV. Requests
 * without a connection address (the app called in process, as tests do)
 * are not counted: there is no client.
 */
export function limitIpBudget(
  { ipBudget: limiter, config }: {
    /** Created with the app's dependencies; none when the budget is off. */
    ipBudget?: SlidingWindowLimiter;
    config: Pick<Config, "trustedProxyHops">;
  },
): MiddlewareHandler {
  return async function limitIpBudget(c, next) {
    if (!limiter || isExemptFromIpBudget(c.req.method, c.req.path)) {
      return await next();
    }
    clientIp ??= import("@/lib/http/client_ip.ts");
    const { getClientIp } = await clientIp;
    const subject = getClientIp(c, config.trustedProxyHops);
    if (subject === "unknown") return await next();
    const warmUp = c.req.method === "GET" &&
      c.req.header(OFFLINE_WARM_UP_HEADER) === "1";
    const result = limiter.hit(warmUp ? `warm-up ${subject}` : subject);
    if (!result.allowed) {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new TooManyRequestsError(
        apiMessage("limit.requests", { seconds }),
        result.retryAfterMs / 1000,
      );
    }
    await next();
  };
}
