import type { DataStore } from "@/lib/data/data_store.ts";
import { LIFETIMES } from "@/lib/db/keys.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { createSession, type Session } from "@/lib/db/sessions.ts";
import { apiMessage, TooManyRequestsError } from "@/lib/errors/mod.ts";

/** How long a guest passport lasts: a year, the cookie's Max-Age too. */
export const GUEST_PASSPORT_TTL_MS = LIFETIMES.guestSessionMs;

/**
 * New guest passports one client address may open an hour: each is a user
 * of its own, so throwaway passports must not be free (the per-address
 * wrong-code limit covers guessing whatever the passport).
 */
export const GUEST_PASSPORTS_PER_ADDRESS = {
  scope: "guest_passports_by_address",
  limit: 20,
  windowMs: 60 * 60_000,
} as const;

/**
 * Opens a guest passport: a new user id and a session (a year) that the
 * browser keeps in the same HttpOnly cookie a sign-in uses, so the pages'
 * bearer tokens, `verify-visit` and `rate-visit` work exactly as for an
 * account. No configuration needed. Counts against
 * {@linkcode GUEST_PASSPORTS_PER_ADDRESS} when the address is known.
 */
export async function openGuestPassport(
  { kv, now, data }: {
    kv: Deno.Kv;
    now: () => Date;
    data: Pick<DataStore, "current">;
  },
  { clientIp }: { clientIp?: string } = {},
): Promise<{ sessionId: string; session: Session }> {
  if (clientIp && clientIp !== "unknown") {
    const hit = await hitRateLimit(kv, {
      ...GUEST_PASSPORTS_PER_ADDRESS,
      subject: clientIp,
      now: now(),
    });
    if (!hit.allowed) {
      const minutes = Math.max(1, Math.ceil(hit.retryAfterMs / 60_000));
      throw new TooManyRequestsError(
        apiMessage("limit.guests", { minutes }),
        hit.retryAfterMs / 1000,
      );
    }
  }
  return await createSession(kv, {
    userId: crypto.randomUUID(),
    name: null,
    now: now(),
    ttlMs: GUEST_PASSPORT_TTL_MS,
    guest: true,
    timeZone: data.current().data.municipality.timeZone,
  });
}
