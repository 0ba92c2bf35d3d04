import type { MiddlewareHandler } from "hono";
import { hitRateLimit } from "./db/rate_limits.ts";
import type { AppDeps } from "./deps.ts";
import { TooManyRequestsError } from "./errors.ts";
import { getClientIp } from "./http.ts";

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
 * Spec 8, "excessive use may result in temporary IP blocking": every request
 * of one IP address (pages, API) counts against a generous per-minute budget
 * (`IP_BUDGET_PER_MINUTE`, 0 turns it off) in the same KV limiter as the
 * chat, so all instances share one exact count. Past it the request is
 * refused with 429 and `Retry-After` (the error funnel answers `{error,
 * details}`, or `{reply}` under /api/chat) until the oldest counted request
 * leaves the window; refused requests are not counted.
 *
 * It costs one KV compare-and-set per counted request (see
 * docs/PERFORMANCE.md). Requests without a connection address (the app
 * called in process, as tests do) are not counted: there is no client.
 */
export function limitIpBudget(
  { kv, config, now }: Pick<AppDeps, "kv" | "config" | "now">,
): MiddlewareHandler {
  const limit = config.ipBudgetPerMinute;
  return async function limitIpBudget(c, next) {
    if (limit === 0 || isExemptFromIpBudget(c.req.method, c.req.path)) {
      return await next();
    }
    const subject = getClientIp(c, config.trustProxy);
    if (subject === "unknown") return await next();
    const result = await hitRateLimit(kv, {
      scope: IP_BUDGET_SCOPE,
      subject,
      limit,
      windowMs: IP_BUDGET_WINDOW_MS,
      now: now(),
    });
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
