/**
 * A check-in's transaction: storage reads the facts of one try
 * (lib/db/visits.ts, `readVisitAttempt`), the rules here decide on them,
 * and storage commits what they decided in one atomic that checks what it
 * read (`commitVisit`, `commitCheckInAnswer`); a conflict reads again. So
 * an admin's switch of the rule applies at once, concurrent check-ins of
 * one passport count exactly and unlock each badge once, and a named
 * check-in's id is answered exactly once.
 */
import {
  type Badge,
  type BadgeRule,
  BADGES,
  getBadgesEarned,
} from "@/lib/badges/badges.ts";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import type { CheckInReceipt } from "@/lib/db/check_ins.ts";
import { resolveGuideCode } from "@/lib/db/guide_codes.ts";
import { CONFLICT, runTransaction } from "@/lib/db/kv.ts";
import type { RateLimitOptions } from "@/lib/db/rate_limits.ts";
import {
  commitCheckInAnswer,
  commitVisit,
  readPassport,
  readVisitAttempt,
  readVisitAttemptAt,
  type Visit,
  type VisitAttempt,
} from "@/lib/db/visits.ts";
import { resolveCheckInRule } from "./methods.ts";
import type { CheckInRefusal, Position, VisitMethod } from "./names.ts";
import { judgeCheckIn } from "./rules.ts";

/** What a check-in came to, for its answer (and a named one's receipt). */
export type CheckInOutcome =
  | { status: "created"; visit: Visit; badge: Badge | null }
  | { status: "duplicate"; visit: Visit }
  | { status: "refused"; refusal: CheckInRefusal }
  /** A wrong code; `remaining` guesses are left after it (named check-ins). */
  | { status: "unknown_code"; remaining: number };

/** What {@linkcode recordCheckIn} did. */
export type RecordCheckInResult =
  | Exclude<CheckInOutcome, { status: "created" }>
  | {
    status: "created";
    visit: Visit;
    badge: Badge | null;
    /** A named check-in's receipt, written with the visit. */
    receipt?: CheckInReceipt;
    /** The passport's ticket's share code, or null (read with the visit; `undefined`: not read). */
    shareCode?: string | null;
  }
  | { status: "rate_limited"; retryAfterMs: number }
  /**
   * A named check-in's answer: the receipt just written with its outcome,
   * or the one found (`replayed`: an earlier attempt's, whose fingerprint
   * may differ).
   */
  | { status: "answered"; receipt: CheckInReceipt; replayed: boolean };

/**
 * Checks a visit in at an attraction, by a typed guide code (`code`:
 * replaced codes read in the same try, a code judged as of when it was
 * typed) or a position at `slug`. Past a rate limit, `rate_limited`
 * before anything else; a passport that has the attraction, `duplicate`;
 * else the attraction's rule in force (`resolveCheckInRule`) and the
 * passport's other visits are judged (`judgeCheckIn`), and a visit is
 * written with the badges it earns. With `named` (a device's check-in id),
 * its kept answer is `answered`, `replayed`, with nothing else done, and
 * every outcome is kept as its receipt: a visit's in the visit's own
 * atomic, the others' on their own (a wrong code's with its guess on the
 * rate limits).
 */
export async function recordCheckIn(
  kv: Deno.Kv,
  loaded: LoadedData,
  input: {
    userId: string;
    /** The attraction; with `code`, the one whose data-set code it is, or `""`. */
    slug: string;
    method: VisitMethod;
    /** The typed code, normalised (a code check-in). */
    code?: string;
    position?: Position;
    /** The device's time of the check-in (the server's for verify-visit). */
    claimedAt: Date;
    now: Date;
    rateLimits?: readonly Omit<RateLimitOptions, "now">[];
    /** The badge table (lib/badges); tests pass their own. */
    badges?: readonly BadgeRule[];
    named?: {
      checkInId: string;
      /** The receipt of an outcome: the answer a retry gets again. */
      answer(outcome: CheckInOutcome): CheckInReceipt;
    };
  },
): Promise<RecordCheckInResult> {
  const { userId, now, claimedAt, named } = input;
  // A code typed offline counts as of when it was typed (never later than now).
  const typedAt = claimedAt < now ? claimedAt : now;
  return await runTransaction(async () => {
    let attempt = await readVisitAttempt(kv, {
      userId,
      slug: input.slug,
      now,
      rateLimits: input.rateLimits,
      guideCode: input.code,
      rule: true,
      checkInId: named?.checkInId,
    });
    if (named && attempt.receipt) {
      return {
        status: "answered" as const,
        receipt: attempt.receipt,
        replayed: true,
      };
    }
    if (!attempt.limit.allowed) {
      return {
        status: "rate_limited" as const,
        retryAfterMs: attempt.limit.retryAfterMs,
      };
    }
    /** A named check-in's answer, written on its own; or the outcome. */
    const answer = async (
      outcome: Exclude<CheckInOutcome, { status: "created" }>,
      at: VisitAttempt,
      hit = false,
    ) => {
      if (!named) return outcome;
      const receipt = named.answer(outcome);
      const ok = await commitCheckInAnswer(kv, at, {
        checkInId: named.checkInId,
        receipt,
        hit,
        now,
      });
      if (!ok) return CONFLICT;
      return { status: "answered" as const, receipt, replayed: false };
    };

    if (input.code !== undefined) {
      const found = resolveGuideCode({
        index: attempt.codeIndex,
        record: attempt.codeRecord,
        defaultSlug: input.slug || undefined,
        now: typedAt,
      });
      if (!found || !loaded.attractionsBySlug.has(found)) {
        // The wrong guess counts once, with the id's answer, in one atomic.
        return await answer(
          { status: "unknown_code", remaining: attempt.limit.remaining - 1 },
          attempt,
          true,
        );
      }
      // A replaced code: its attraction's visit and rule are read now.
      if (found !== attempt.slug) {
        attempt = await readVisitAttemptAt(kv, attempt, found);
      }
    }
    const { slug } = attempt;
    if (attempt.visit) {
      return await answer(
        { status: "duplicate", visit: attempt.visit },
        attempt,
      );
    }

    const table = input.badges ?? BADGES;
    const passport = await readPassport(kv, attempt, table);
    const attraction = loaded.attractionsBySlug.get(slug);
    if (attraction) {
      const refusal = judgeCheckIn({
        slug,
        location: attraction.location,
        rule: resolveCheckInRule(attempt.storedRule, attraction.checkIn),
        method: input.method,
        position: input.position,
        claimedAt,
        receivedAt: now,
        otherVisits: passport.visits,
        locationOf: (other) => loaded.attractionsBySlug.get(other)?.location,
      });
      if (refusal) {
        // A code names its attraction: the page it was typed on may be another's.
        const said = input.code === undefined
          ? refusal
          : { ...refusal, atractivo: slug };
        return await answer({ status: "refused", refusal: said }, attempt);
      }
    }

    const seq = passport.visitCount + 1;
    const unlocked = getBadgesEarned({
      count: seq,
      visited: new Set([slug, ...passport.visits.map((visit) => visit.slug)]),
      total: loaded.totalAttractions,
    }, table).filter((badge) => !passport.held.includes(badge.id));
    const badge = unlocked.at(-1) ?? null;
    const fields = {
      visitId: crypto.randomUUID(),
      visitedAt: now.toISOString(),
      checkedInAt: claimedAt.toISOString(),
      method: input.method,
      seq,
    };
    const receipt = named?.answer({
      status: "created",
      visit: {
        ...fields,
        userId,
        slug,
        rating: null,
        notes: null,
        ratedAt: null,
      },
      badge,
    });
    const visit = await commitVisit(kv, attempt, {
      visit: fields,
      held: passport.held,
      visited: passport.visits,
      unlocked,
      receipt: named && receipt
        ? { checkInId: named.checkInId, receipt }
        : undefined,
      timeZone: loaded.data.municipality.timeZone,
    });
    if (!visit) return CONFLICT;
    return {
      status: "created" as const,
      visit,
      badge,
      shareCode: attempt.shareCode,
      ...(receipt ? { receipt } : {}),
    };
  });
}
