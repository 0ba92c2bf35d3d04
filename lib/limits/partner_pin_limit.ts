import { hitRateLimit, type RateLimitResult } from "@/lib/db/rate_limits.ts";

/** PIN tries per address on the partner page (`/socio`): eight digits must not be guessable. */
export const PARTNER_PIN_RATE_LIMIT = {
  limit: 10,
  windowMs: 15 * 60_000,
} as const;

/**
 * Counts one PIN try of `clientIp` in the shared KV limiter (every instance
 * sees one count), wrong or right: a guesser pays for each.
 */
export async function hitPartnerPinLimit(
  kv: Deno.Kv,
  { clientIp, now }: { clientIp: string; now: Date },
): Promise<RateLimitResult> {
  return await hitRateLimit(kv, {
    scope: "partner-pin",
    subject: clientIp,
    ...PARTNER_PIN_RATE_LIMIT,
    now,
  });
}
