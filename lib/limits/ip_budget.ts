import type { MiddlewareHandler } from "hono";
import type { ApproximateRateLimiter } from "./approximate_limiter.ts";
import type { Config } from "@/lib/config/config.ts";
import { TooManyRequestsError } from "@/lib/http/errors.ts";
import { getClientIp } from "@/lib/http/router.ts";

/** The rate-limit scope of the per-IP budget in the shared KV limiter. */
export const IP_BUDGET_SCOPE = "ip";

/** The budget's window: "requests a minute". */
export const IP_BUDGET_WINDOW_MS = 60_000;

/**
 * Paths that never count: the health check (load balancers poll it) and
 * static files (one page view pulls several; their bytes are cached by
 * browsers and CDNs and cost no KV work).
 */
export function isExemptFromIpBudget(method: string, path: string): boolean {
  return method === "OPTIONS" || path === "/healthz" ||
    path === "/theme.css" || path === "/logo.svg" ||
    path === "/favicon.ico" || path === "/robots.txt" ||
    path.startsWith("/static/");
}

/**
 * How often each instance adds its counts to KV and reads the shared totals
 * back: the bound on how late one instance sees another's requests (two
 * intervals) and the budget's whole KV cost (one commit per interval).
 */
export const IP_BUDGET_FLUSH_INTERVAL_MS = 500;

/**
 * Spec 8, "excessive use may result in temporary IP blocking": every request
 * of one IP address (pages, API) counts against a generous per-minute budget
 * (`IP_BUDGET_PER_MINUTE`, 0 turns it off). Past it the request is refused
 * with 429 and `Retry-After` (the error funnel answers `{error, details}`,
 * or `{reply}` under /api/chat); refused requests are not counted.
 *
 * The count is shared by all instances through KV, approximately and
 * cheaply ({@linkcode ApproximateRateLimiter}): each instance decides from
 * its own counts plus the other instances' totals as of its last read-back,
 * and writes its counts in one commit every
 * {@linkcode IP_BUDGET_FLUSH_INTERVAL_MS}. Across instances an IP may get a
 * little more than the budget: what the instances allowed it within the last
 * two flush intervals. The chat's 20 a minute stays exact (`hitRateLimit`).
 * Requests without a connection address (the app called in process, as
 * tests do) are not counted: there is no client.
 */
export function limitIpBudget(
  { ipBudget: limiter, config }: {
    /** Created and closed with the app's dependencies; none when the budget is off. */
    ipBudget?: ApproximateRateLimiter;
    config: Pick<Config, "trustProxy">;
  },
): MiddlewareHandler {
  return async function limitIpBudget(c, next) {
    if (!limiter || isExemptFromIpBudget(c.req.method, c.req.path)) {
      return await next();
    }
    const subject = getClientIp(c, config.trustProxy);
    if (subject === "unknown") return await next();
    const result = limiter.hit(subject);
    if (!result.allowed) {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      throw new TooManyRequestsError(
        `Demasiadas solicitudes desde tu conexión; espera ${seconds} ${
          seconds === 1 ? "segundo" : "segundos"
        } antes de volver a intentarlo.`,
        result.retryAfterMs / 1000,
      );
    }
    await next();
  };
}
