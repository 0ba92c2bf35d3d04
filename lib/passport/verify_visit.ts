import type { Badge, BadgeRule } from "@/lib/badges/badges.ts";
import { normalizeGuideCode } from "@/lib/data/tourism_data.ts";
import { type DataStore } from "@/lib/data/data_store.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import { hitRateLimits, type RateLimitOptions } from "@/lib/db/rate_limits.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import {
  apiMessage,
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
} from "@/lib/errors/mod.ts";
import { createCheckInJudge, refusalError } from "./check_in_rules.ts";

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
 * Wrong guide codes one user may send per window (more than 10 in 10
 * minutes is a 429).
 */
export const GUIDE_CODE_LIMIT = {
  scope: "guide_codes",
  limit: 10,
  windowMs: 10 * 60_000,
} as const;

/**
 * Wrong guide codes one client address may send per window, whatever the
 * users: new users (or guest passports) buy no extra guesses. 30 in 10
 * minutes is 180 an hour per address (docs/SECURITY.md, "Guessing guide codes").
 */
export const GUIDE_CODE_ADDRESS_LIMIT = {
  scope: "guide_codes_by_address",
  limit: 30,
  windowMs: 10 * 60_000,
} as const;

/**
 * Verifies a visit by guide code for an authenticated user. An unknown code
 * is a 404 that counts against {@linkcode GUIDE_CODE_LIMIT} and, when the
 * client's address is known, {@linkcode GUIDE_CODE_ADDRESS_LIMIT}. Past
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
  const limits: RateLimitOptions[] = [
    { ...GUIDE_CODE_LIMIT, subject: userId, now: at },
  ];
  if (clientIp && clientIp !== "unknown") {
    limits.push({ ...GUIDE_CODE_ADDRESS_LIMIT, subject: clientIp, now: at });
  }
  const normalized = normalizeGuideCode(code);
  const result = await recordVisit(kv, {
    userId,
    // The data set's attraction of this code (or none): replaced codes,
    // read in the same transaction, win over it.
    slug: loaded.slugByGuideCode.get(normalized) ?? "",
    now: at,
    totalAttractions: loaded.totalAttractions,
    rateLimits: limits,
    timeZone: loaded.data.municipality.timeZone,
    badges,
    guideCode: {
      code: normalized,
      isAttraction: (slug) => loaded.attractionsBySlug.has(slug),
    },
    checkIn: {
      method: "code",
      judge: createCheckInJudge(loaded, {
        claimedAt: at,
        receivedAt: at,
        isPosition: false,
      }),
    },
  });
  if (result.status === "rate_limited") {
    throw tooManyWrongCodes(result.retryAfterMs);
  }
  if (result.status === "unknown_code") {
    const hit = await hitRateLimits(kv, limits);
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
  onChange({ kind: "visit", userId, slug });
  return {
    visitId: result.visit.visitId,
    atractivo: slug,
    badge: result.badge,
  };
}

/** The 429 of a lockout by wrong codes, with how many minutes to wait. */
export function tooManyWrongCodes(retryAfterMs: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new TooManyRequestsError(
    apiMessage("limit.wrongCodes", { minutes }),
    retryAfterMs / 1000,
  );
}
