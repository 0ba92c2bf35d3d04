import type { MiddlewareHandler } from "hono";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import type { Config } from "@/lib/config/config.ts";
import { apiMessage, TooManyRequestsError } from "@/lib/errors/mod.ts";
import { getClientIp } from "@/lib/http/client_ip.ts";

/** At most 20 chat requests per IP address in any 60-second window (docs/API.md, limits). */
export const CHAT_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;

/**
 * Counts every chat request of the client's IP in the shared KV limiter (so
 * all instances see one count; nothing is kept in memory) and answers 429
 * with `Retry-After` past the limit. It runs before the body is validated:
 * a malformed request costs a slot too, so a client cannot probe for free.
 */
export function limitChatRate(
  { kv, config, now }: {
    kv: Deno.Kv;
    config: Pick<Config, "trustedProxyHops">;
    now: () => Date;
  },
): MiddlewareHandler {
  return async function limitChatRate(c, next) {
    const result = await hitRateLimit(kv, {
      scope: "chat",
      subject: getClientIp(c, config.trustedProxyHops),
      ...CHAT_RATE_LIMIT,
      now: now(),
    });
    if (!result.allowed) {
      throw new TooManyRequestsError(
        apiMessage("limit.chat"),
        result.retryAfterMs / 1000,
      );
    }
    await next();
  };
}
