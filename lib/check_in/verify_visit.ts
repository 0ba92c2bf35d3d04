import type { Badge, BadgeRule } from "@/lib/badges/badges.ts";
import { normalizeGuideCode } from "@/lib/data/tourism_data.ts";
import { type DataStore } from "@/lib/data/data_store.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import { hitRateLimits } from "@/lib/db/rate_limits.ts";
import { apiMessage, ConflictError, NotFoundError } from "@/lib/errors/mod.ts";
import { recordCheckIn } from "./record.ts";
import {
  getGuideCodeLimits,
  refusalError,
  tooManyWrongCodes,
} from "./rules.ts";

/** What verifying and rating visits need from the app's dependencies. */
export interface VisitDeps {
  kv: Deno.Kv;
  data: DataStore;
  now: () => Date;
  /** Told of each visit recorded and each rating saved. */
  onChange: OnDataChange;
  /** The badge table; absent, the shipped one (lib/badges). */
  badges?: readonly BadgeRule[];
}

/**
 * Verifies a visit by guide code for an authenticated user. An unknown code
 * is a 404 that counts against the wrong-code limits (`GUIDE_CODE_LIMIT`
 * and, when the client's address is known, `GUIDE_CODE_ADDRESS_LIMIT`). Past
 * either, every code, right or wrong, is a 429 until the oldest failure
 * leaves the window; the lockout is decided by the first read, the same keys
 * for a right and a wrong code (the visit's own transaction, which also
 * reads the code's replaced-code entries: a code an admin replaced counts
 * at once on every instance), so neither the answer nor its timing gives a
 * guesser anything. A visit already verified is a 409 carrying the first
 * visit. A code at an attraction that checks in by position only is a 422
 * `code_not_accepted` (the rule read in the same transaction).
 */
export async function verifyVisit(
  { kv, data, now, onChange, badges }: VisitDeps,
  { userId, code, clientIp }: {
    userId: string;
    code: string;
    /** The client's address (`unknown` without a connection: not limited by address). */
    clientIp?: string;
  },
): Promise<{ visitId: string; atractivo: string; badge: Badge | null }> {
  const loaded = data.current();
  const at = now();
  const limits = getGuideCodeLimits({ userId, clientIp });
  const normalized = normalizeGuideCode(code);
  const result = await recordCheckIn(kv, loaded, {
    userId,
    // The data set's attraction of this code (or none): replaced codes,
    // read in the same transaction, win over it.
    slug: loaded.slugByGuideCode.get(normalized) ?? "",
    method: "code",
    code: normalized,
    claimedAt: at,
    now: at,
    rateLimits: limits,
    badges,
  });
  if (result.status === "rate_limited") {
    throw tooManyWrongCodes(result.retryAfterMs);
  }
  if (result.status === "unknown_code") {
    const hit = await hitRateLimits(
      kv,
      limits.map((limit) => ({ ...limit, now: at })),
    );
    if (!hit.allowed) throw tooManyWrongCodes(hit.retryAfterMs);
    throw new NotFoundError(
      apiMessage("visit.unknownCode", { remaining: hit.remaining }),
      { remainingAttempts: hit.remaining },
    );
  }
  if (result.status === "refused") throw refusalError(result.refusal);
  if (result.status === "answered") {
    throw new Error("A verification without a receipt got one");
  }
  const slug = result.visit.slug;
  if (result.status === "duplicate") {
    throw new ConflictError(apiMessage("visit.already"), {
      visitId: result.visit.visitId,
      atractivo: slug,
    });
  }
  onChange({ kind: "visit", userId, slug, shareCode: result.shareCode });
  return {
    visitId: result.visit.visitId,
    atractivo: slug,
    badge: result.badge,
  };
}
