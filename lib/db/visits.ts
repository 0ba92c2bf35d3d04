import {
  type Badge,
  type BadgeRule,
  BADGES,
  getBadgesEarned,
} from "@/lib/badges/badges.ts";
import {
  addCheckInReceiptTo,
  type CheckInFingerprint,
  type CheckInReceipt,
  isCheckInReceipt,
} from "./check_ins.ts";
import {
  type GuideCodeIndexEntry,
  type GuideCodeRecord,
  resolveGuideCode,
} from "./guide_codes.ts";
import { keys } from "./keys.ts";
import { getErasedUserKey, UserErasedError } from "./erased_users.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { DEFAULT_TIME_ZONE, getNoteKey, replaceVisitStats } from "./stats.ts";
import {
  evaluateRateLimit,
  type RateLimitOptions,
  tightest,
} from "./rate_limits.ts";

/** A user's verified visit of one attraction: at most one per user and slug. */
export interface Visit {
  visitId: string;
  userId: string;
  slug: string;
  /** ISO 8601: when the server recorded it. */
  visitedAt: string;
  /**
   * ISO 8601: when the tourist checked in, by the device's clock (a
   * check-in queued offline is recorded later); absent on visits of earlier
   * versions, where it is `visitedAt`.
   */
  checkedInAt?: string;
  /** How it was checked in; absent on visits of earlier versions (by code). */
  method?: VisitMethod;
  /** The user's visit count this visit made: orders visits recorded in the same instant. */
  seq: number;
  /** 1..5, or null when not rated. */
  rating: number | null;
  notes: string | null;
  /** ISO 8601 of the last rate-visit call, or null. */
  ratedAt: string | null;
  /**
   * When an admin hid the notes from every public page (ISO 8601); absent
   * or null while they show. The tourist's own passport still shows them.
   */
  notesHiddenAt?: string | null;
  /**
   * The dashboard's counters hold this visit (lib/db/stats.ts); absent on
   * visits of earlier versions until the backfill counts them.
   */
  inStats?: boolean;
}

/** How a visit was checked in: by guide code, or by the phone's position. */
export type VisitMethod = "code" | "gps";

/** Why a check-in was refused (lib/passport decides; the reason is the API's). */
export interface CheckInRefusal {
  reason: string;
  /** Facts for the answer (a distance, a radius). */
  facts?: Record<string, string | number>;
}

/** What a check-in's rule is asked to judge, inside the visit's transaction. */
export interface CheckInCase {
  /** The attraction the visit would be recorded at. */
  slug: string;
  /** The admin's check-in rule of `slug` as stored (lib/db/check_in_methods.ts), or null. */
  storedRule: unknown;
  /** The passport's other visits. */
  otherVisits: readonly Visit[];
}

/**
 * A check-in's rule and, for a check-in a device named (`receipt`), what
 * to answer: the judgement and the receipt are read and written in the
 * visit's own transaction, so an admin's switch of the rule applies at
 * once and a retry of the id never counts twice.
 */
export interface CheckInOptions {
  method: VisitMethod;
  /** Null to record the visit, or why not. Pure: it may run more than once. */
  judge(input: CheckInCase): CheckInRefusal | null;
  receipt?: {
    checkInId: string;
    fingerprint: CheckInFingerprint;
    /** When the tourist checked in (the device's clock): the visit's `checkedInAt`. */
    claimedAt: Date;
    /** The receipt of an outcome: the answer a retry gets again. */
    answer(outcome: CheckInOutcome): CheckInReceipt;
  };
}

/** What a named check-in came to, for its receipt. */
export type CheckInOutcome =
  | { status: "created"; visit: Visit; badge: Badge | null }
  | { status: "duplicate"; visit: Visit }
  | { status: "refused"; refusal: CheckInRefusal }
  /** A wrong code; `remaining` guesses are left after it. */
  | { status: "unknown_code"; remaining: number };

/** A badge a user has unlocked. */
export interface UnlockedBadge extends Badge {
  /** ISO 8601. */
  unlockedAt: string;
}

/** A user's counters, kept in step with their visits and badges. */
export interface UserStats {
  visitCount: number;
  badgeCount: number;
}

/**
 * A user's counters as stored: with the ids of the badges held, so a
 * verification knows them without reading every badge. Entries of earlier
 * versions have no `badges`; those users' badges are read once and the
 * list written with their next visit.
 */
export interface StoredUserStats extends UserStats {
  badges?: string[];
}

/**
 * Per-attraction aggregates, kept in step with visits and ratings. As
 * stored, `visitCount` is an adjustment (a merge's duplicate visits, counts
 * of earlier versions) added to the attraction's `sum` counter
 * ({@linkcode keys.attractionVisitCount}).
 */
export interface AttractionStats {
  visitCount: number;
  ratingCount: number;
  ratingSum: number;
}

/** What {@linkcode recordVisit} did. */
export type RecordVisitResult =
  | {
    status: "created";
    visit: Visit;
    /** The badge to show: the highest one this visit unlocked, or null. */
    badge: Badge | null;
    /** Every badge this visit unlocked (more than one only when a reloaded data set lowered the total). */
    unlocked: Badge[];
    /** A named check-in's receipt, written with the visit. */
    receipt?: CheckInReceipt;
  }
  | { status: "duplicate"; visit: Visit }
  | { status: "rate_limited"; retryAfterMs: number }
  /** Found by a guide code that opens no attraction now: nothing written. */
  | { status: "unknown_code" }
  /** The check-in's rule refused it (without `receipt`): nothing written. */
  | { status: "refused"; refusal: CheckInRefusal }
  /**
   * A named check-in's answer (`checkIn.receipt`): the receipt just written
   * with its outcome, or the one found (`replayed`: an earlier attempt's,
   * whose fingerprint may differ).
   */
  | { status: "answered"; receipt: CheckInReceipt; replayed: boolean };

/**
 * A visit found by the guide code a tourist typed: the code's replaced-code
 * entries are read in the visit's own first read (`slug` is then the
 * attraction whose data-set code it is, or `""`), so a replacement counts
 * at once on every instance at the cost of two keys in that read, and a
 * right and a wrong code still do the same reads.
 */
export interface GuideCodeLookup {
  /** The typed code, normalised. */
  code: string;
  /** Whether `slug` is an attraction of the current data set. */
  isAttraction(slug: string): boolean;
}

/**
 * Records a user's visit of an attraction in one transaction: the visit and
 * its id index, the user's counters (with the badges held), the
 * attraction's visit count, and any badge of the table whose rule the
 * passport now meets (lib/badges), each only if the user does not hold it
 * yet. It reads the visit, the
 * user's counters and the rate limits, and checks them, so concurrent
 * verifications of one user count exactly and unlock each badge exactly
 * once; the attraction's count is a `sum`, which needs no check, so
 * tourists at one attraction never make each other retry. A visit already
 * recorded is returned as `duplicate` with nothing written.
 *
 * With `rateLimits`, the visit is only recorded while every one of them
 * still allows a hit (without recording one): a failed guess recorded
 * concurrently makes the attempt retry, so a guide code cannot slip past a
 * lockout in a burst. The dashboard's counters (its day, hour and stamp
 * milestone in `timeZone`'s calendar) are `sum`s in the same atomic.
 *
 * With `checkIn`, the attraction's check-in rule (an admin's, in KV) is read
 * and checked in the same transaction and `checkIn.judge` decides with it
 * and the passport's other visits, so a switch applies at once. With
 * `checkIn.receipt` (a device's named check-in), the id's receipt is read
 * first (found: `answered`, `replayed`, nothing else read or written) and
 * every outcome is written as its receipt: a visit's in the visit's own
 * atomic, a refusal's, a duplicate's and a wrong code's (with its guess on
 * the rate limits) on their own, among the passport's last refusals
 * (lib/db/check_ins.ts, `MAX_REFUSAL_RECEIPTS`). A code is then judged as of the claimed
 * time (a code in its grace period counts if typed before the grace
 * ended), and the visit keeps the claimed time as `checkedInAt`.
 *
 * A user id erased (its tombstone, read and checked with the rest) is a
 * {@linkcode UserErasedError} with nothing written.
 */
export async function recordVisit(
  kv: Deno.Kv,
  {
    userId,
    slug: defaultSlug,
    now,
    totalAttractions,
    rateLimits = [],
    timeZone = DEFAULT_TIME_ZONE,
    guideCode,
    checkIn,
    badges: table = BADGES,
  }: {
    userId: string;
    /** The attraction; with `guideCode`, the one whose data-set code it is, or `""`. */
    slug: string;
    now: Date;
    totalAttractions: number;
    rateLimits?: readonly Omit<RateLimitOptions, "now">[];
    /** The municipality's time zone: whose day the dashboard counts the visit in. */
    timeZone?: string;
    /** Find the attraction by a guide code, replaced codes included. */
    guideCode?: GuideCodeLookup;
    /** The attraction's check-in rule, and a named check-in's receipt. */
    checkIn?: CheckInOptions;
    /** The badge table (lib/badges); tests pass their own. */
    badges?: readonly BadgeRule[];
  },
): Promise<RecordVisitResult> {
  const statsKey = keys.userStats(userId);
  const limitKeys = rateLimits.map((limit) =>
    keys.rateLimit(limit.scope, limit.subject)
  );
  const codeKeys = guideCode
    ? [keys.guideCodeByCode(guideCode.code), keys.guideCode(defaultSlug)]
    : [];
  const named = checkIn?.receipt;
  // The rule of the data set's attraction (a replaced code's, read later),
  // and the id's receipt: the same keys for a right and a wrong code.
  const checkInKeys = checkIn
    ? [
      keys.checkInMethod(defaultSlug),
      ...(named
        ? [keys.checkIn(userId, named.checkInId), keys.checkInRefusals(userId)]
        : []),
    ]
    : [];
  // A code typed offline counts as of when it was typed (never later than now).
  const typedAt = named && named.claimedAt < now ? named.claimedAt : now;
  const erasedKey = await getErasedUserKey(userId);

  return await runTransaction(async () => {
    let slug = defaultSlug;
    let visitKey = keys.visit(userId, slug);
    const entries = await kv.getMany<unknown[]>([
      visitKey,
      statsKey,
      erasedKey,
      ...limitKeys,
      ...codeKeys,
      ...checkInKeys,
    ]);
    let visitEntry = entries[0];
    const statsEntry = entries[1];
    // The user id's tombstone: checked in every write below, so a request
    // that passed the token check before an erasure writes nothing after it.
    const erasedEntry = entries[2];
    if (erasedEntry.value !== null) throw new UserErasedError();
    const limitEntries = entries.slice(3, 3 + limitKeys.length);
    const codeEntries = entries.slice(
      3 + limitKeys.length,
      3 + limitKeys.length + codeKeys.length,
    );
    let ruleEntry = entries[3 + limitKeys.length + codeKeys.length];
    const receiptEntry = named ? entries.at(-2)! : undefined;
    const ledgerEntry = named ? entries.at(-1)! : undefined;

    if (receiptEntry && isCheckInReceipt(receiptEntry.value)) {
      return {
        status: "answered" as const,
        receipt: receiptEntry.value,
        replayed: true,
      };
    }
    /** Writes a named check-in's answer on its own (no visit), or says the outcome. */
    const answerAlone = async (
      outcome: Exclude<CheckInOutcome, { status: "created" }>,
      operation: Deno.AtomicOperation,
    ) => {
      const receipt = named!.answer(outcome);
      operation.check(erasedEntry);
      addCheckInReceiptTo(operation, {
        userId,
        checkInId: named!.checkInId,
        receipt,
        ledger: ledgerEntry!,
      });
      if (!(await commit(operation)).ok) return CONFLICT;
      return { status: "answered" as const, receipt, replayed: false };
    };

    const evaluated = rateLimits.map((options, i) =>
      evaluateRateLimit(limitEntries[i].value, { ...options, now })
    );
    const limit = tightest(evaluated.map(({ result }) => result));
    if (!limit.allowed) {
      return {
        status: "rate_limited" as const,
        retryAfterMs: limit.retryAfterMs,
      };
    }
    if (guideCode) {
      const found = resolveGuideCode({
        index: codeEntries[0].value as GuideCodeIndexEntry | null,
        record: codeEntries[1].value as GuideCodeRecord | null,
        defaultSlug: defaultSlug || undefined,
        now: typedAt,
      });
      if (!found || !guideCode.isAttraction(found)) {
        if (!named) return { status: "unknown_code" as const };
        // The wrong guess counts once, with the id's answer, in one atomic.
        const operation = kv.atomic().check(...limitEntries, ...codeEntries);
        rateLimits.forEach((options, i) => {
          operation.set(
            limitKeys[i],
            [...evaluated[i].recent, now.getTime()],
            { expireIn: Math.ceil(options.windowMs) },
          );
        });
        return await answerAlone(
          { status: "unknown_code", remaining: limit.remaining - 1 },
          operation,
        );
      }
      if (found !== slug) {
        // A replaced code: its attraction's visit and rule are read now.
        slug = found;
        visitKey = keys.visit(userId, slug);
        [visitEntry, ruleEntry] = await kv.getMany<unknown[]>([
          visitKey,
          keys.checkInMethod(slug),
        ]);
      }
    }
    if (visitEntry.value) {
      const visit = visitEntry.value as Visit;
      if (!named) return { status: "duplicate" as const, visit };
      return await answerAlone(
        { status: "duplicate", visit },
        kv.atomic().check(visitEntry),
      );
    }

    const stored = (statsEntry.value ?? {}) as Partial<StoredUserStats>;
    const stats = toUserStats(stored);
    const operation = kv.atomic().check(
      visitEntry,
      statsEntry,
      erasedEntry,
      ...limitEntries,
      // A code replaced meanwhile makes the attempt read again.
      ...codeEntries,
    );
    // An admin's switch of the rule meanwhile, too.
    if (ruleEntry) operation.check(ruleEntry);
    let held: string[];
    if (stored.badges) {
      held = stored.badges;
    } else if (stats.badgeCount === 0) {
      held = [];
    } else {
      // Counters of an earlier version: which badges, read (and checked) once.
      const badgeEntries = await kv.getMany<unknown[]>(
        table.map((badge) => keys.badge(userId, badge.id)),
      );
      operation.check(...badgeEntries);
      held = table.filter((_, i) => badgeEntries[i].value !== null)
        .map((badge) => badge.id);
    }
    // The attractions visited, for rules over them. Not checked one by one:
    // every write of a user's visits also writes the counters, checked above.
    const visited = new Set([slug]);
    const otherVisits: Visit[] = [];
    for await (
      const entry of kv.list<Visit>({ prefix: keys.visitsOfUser(userId) })
    ) {
      if (isVisit(entry.value)) {
        visited.add(entry.value.slug);
        otherVisits.push(entry.value);
      }
    }
    if (checkIn) {
      const refusal = checkIn.judge({
        slug,
        storedRule: ruleEntry?.value ?? null,
        otherVisits,
      });
      if (refusal) {
        if (!named) return { status: "refused" as const, refusal };
        return await answerAlone(
          { status: "refused", refusal },
          kv.atomic().check(statsEntry, ...(ruleEntry ? [ruleEntry] : [])),
        );
      }
    }

    const visitCount = stats.visitCount + 1;
    const [visit] = replaceVisitStats<Visit>(operation, {
      before: [],
      timeZone,
      after: [{
        visitId: crypto.randomUUID(),
        userId,
        slug,
        visitedAt: now.toISOString(),
        checkedInAt: (named?.claimedAt ?? now).toISOString(),
        method: checkIn?.method ?? "code",
        seq: visitCount,
        rating: null,
        notes: null,
        ratedAt: null,
      }],
    });
    const unlocked = getBadgesEarned(
      { count: visitCount, visited, total: totalAttractions },
      table,
    ).filter((badge) => !held.includes(badge.id));
    const badges = [...held, ...unlocked.map((badge) => badge.id)];

    operation
      .check({ key: keys.visitById(visit.visitId), versionstamp: null })
      .set(visitKey, visit)
      .set(keys.visitById(visit.visitId), [userId, slug])
      .set(
        statsKey,
        {
          visitCount,
          badgeCount: badges.length,
          badges,
        } satisfies StoredUserStats,
      )
      .sum(keys.attractionVisitCount(slug), 1n);
    for (const badge of unlocked) {
      operation.set(
        keys.badge(userId, badge.id),
        {
          ...badge,
          unlockedAt: visit.visitedAt,
        } satisfies UnlockedBadge,
      );
    }
    const badge = unlocked.at(-1) ?? null;
    let receipt: CheckInReceipt | undefined;
    if (named) {
      receipt = named.answer({ status: "created", visit, badge });
      addCheckInReceiptTo(operation, {
        userId,
        checkInId: named.checkInId,
        receipt,
        ledger: ledgerEntry!,
      });
    }
    if (!(await commit(operation)).ok) return CONFLICT;
    return {
      status: "created" as const,
      visit,
      badge,
      unlocked,
      ...(receipt ? { receipt } : {}),
    };
  });
}

/**
 * Replaces the rating and notes of a user's verified visit and moves the
 * attraction's rating aggregates by the difference, in one transaction: a
 * replaced rating is not counted twice and a null rating leaves them. The
 * dashboard's rating counters and notes index move in the same atomic.
 * Returns the updated visit, or null when the user has not verified it; a
 * {@linkcode UserErasedError} with nothing written when the user id was
 * erased (its tombstone checked in the same atomic).
 */
export async function rateVisit(
  kv: Deno.Kv,
  { userId, slug, rating, notes, now, timeZone = DEFAULT_TIME_ZONE }: {
    userId: string;
    slug: string;
    rating: number | null;
    notes: string | null;
    now: Date;
    /** The municipality's time zone: whose month the dashboard counts the rating in. */
    timeZone?: string;
  },
): Promise<Visit | null> {
  const visitKey = keys.visit(userId, slug);
  const attractionKey = keys.attractionStats(slug);
  const erasedKey = await getErasedUserKey(userId);
  return await runTransaction(async () => {
    const [visitEntry, attractionEntry, erasedEntry] = await kv.getMany<
      [Visit, unknown, unknown]
    >([visitKey, attractionKey, erasedKey]);
    // An erasure recorded meanwhile: its sweep may not have reached the visit.
    if (erasedEntry.value !== null) throw new UserErasedError();
    if (!visitEntry.value) return null;
    const previous = visitEntry.value.rating ?? null;
    const stats = toAttractionStats(attractionEntry.value);
    const operation = kv.atomic().check(
      visitEntry,
      attractionEntry,
      erasedEntry,
    );
    const [visit] = replaceVisitStats<Visit>(operation, {
      before: [visitEntry.value],
      after: [{
        ...visitEntry.value,
        rating,
        notes,
        ratedAt: now.toISOString(),
      }],
      timeZone,
    });
    const result = await commit(
      operation
        .set(visitKey, visit)
        .set(
          attractionKey,
          {
            visitCount: stats.visitCount,
            ratingCount: Math.max(
              0,
              stats.ratingCount + (rating === null ? 0 : 1) -
                (previous === null ? 0 : 1),
            ),
            ratingSum: stats.ratingSum + (rating ?? 0) - (previous ?? 0),
          } satisfies AttractionStats,
        ),
    );
    return result.ok ? visit : CONFLICT;
  });
}

/** A user's visit of an attraction, or null. */
export async function getVisit(
  kv: Deno.Kv,
  userId: string,
  slug: string,
): Promise<Visit | null> {
  return (await kv.get<Visit>(keys.visit(userId, slug))).value;
}

/** A visit by its id, or null. */
export async function getVisitById(
  kv: Deno.Kv,
  visitId: string,
): Promise<Visit | null> {
  const index = await kv.get<[string, string]>(keys.visitById(visitId));
  if (!index.value) return null;
  return await getVisit(kv, ...index.value);
}

/**
 * All of a user's visits, oldest first (then in the order they were
 * counted). Bounded by the number of attractions, so no cursor.
 */
export async function listVisits(
  kv: Deno.Kv,
  userId: string,
): Promise<Visit[]> {
  const visits: Visit[] = [];
  for await (
    const entry of kv.list<Visit>({ prefix: keys.visitsOfUser(userId) })
  ) {
    if (isVisit(entry.value)) visits.push(entry.value);
  }
  return visits.sort((a, b) =>
    a.visitedAt < b.visitedAt
      ? -1
      : a.visitedAt > b.visitedAt
      ? 1
      : a.seq - b.seq
  );
}

/** All of a user's badges, in the order they were unlocked (ties: in the badge table's order). */
export async function listBadges(
  kv: Deno.Kv,
  userId: string,
): Promise<UnlockedBadge[]> {
  const order = (id: string) => {
    const i = BADGES.findIndex((badge) => badge.id === id);
    return i === -1 ? BADGES.length : i;
  };
  const badges: UnlockedBadge[] = [];
  for await (
    const entry of kv.list<UnlockedBadge>({ prefix: keys.badgesOfUser(userId) })
  ) {
    const badge = entry.value;
    if (badge && typeof badge.id === "string") badges.push(badge);
  }
  return badges.sort((a, b) =>
    a.unlockedAt < b.unlockedAt
      ? -1
      : a.unlockedAt > b.unlockedAt
      ? 1
      : order(a.id) - order(b.id)
  );
}

/** A user's counters (zeros for a user with no visits). */
export async function getUserStats(
  kv: Deno.Kv,
  userId: string,
): Promise<UserStats> {
  return toUserStats((await kv.get(keys.userStats(userId))).value);
}

/**
 * An attraction's visits and ratings (zeros when it has none), with the
 * average rating, or null when nobody has rated it.
 */
export async function getAttractionStats(
  kv: Deno.Kv,
  slug: string,
): Promise<AttractionStats & { averageRating: number | null }> {
  const [statsEntry, countEntry] = await kv.getMany<[unknown, Deno.KvU64]>([
    keys.attractionStats(slug),
    keys.attractionVisitCount(slug),
  ]);
  const stats = toAttractionStats(statsEntry.value);
  return {
    visitCount: Math.max(
      0,
      stats.visitCount + Number(countEntry.value?.value ?? 0n),
    ),
    ratingCount: stats.ratingCount,
    ratingSum: stats.ratingSum,
    averageRating: stats.ratingCount > 0
      ? stats.ratingSum / stats.ratingCount
      : null,
  };
}

function toUserStats(value: unknown): UserStats {
  const stats = (value ?? {}) as Partial<UserStats>;
  return {
    visitCount: stats.visitCount ?? 0,
    badgeCount: stats.badgeCount ?? 0,
  };
}

/** An attraction's aggregates as stored, zeros where none are. */
export function toAttractionStats(value: unknown): AttractionStats {
  const stats = (value ?? {}) as Partial<AttractionStats>;
  return {
    visitCount: stats.visitCount ?? 0,
    ratingCount: stats.ratingCount ?? 0,
    ratingSum: stats.ratingSum ?? 0,
  };
}

function isVisit(value: unknown): value is Visit {
  const visit = value as Partial<Visit> | null;
  return typeof visit?.slug === "string" &&
    typeof visit.visitId === "string" &&
    typeof visit.visitedAt === "string";
}

/**
 * Deletes every visit of a user with its id index and its entry in the
 * notes index (erasure). The attractions' and the dashboard's counters are
 * anonymous sums and keep counting the visits. Returns how many went; run
 * again, it finds none.
 */
export async function deleteVisitsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<number> {
  let count = 0;
  for await (
    const entry of kv.list<Visit>({ prefix: keys.visitsOfUser(userId) })
  ) {
    const operation = kv.atomic().delete(entry.key);
    const visit = entry.value;
    if (visit && typeof visit.visitId === "string") {
      operation.delete(keys.visitById(visit.visitId));
      const noteKey = getNoteKey(visit);
      if (noteKey) operation.delete(noteKey);
      // A note moved by a re-rating under an earlier version's time.
      if (visit.notes) {
        operation.delete(
          keys.noteByTime(Date.parse(visit.visitedAt), visit.visitId),
        );
      }
    }
    await operation.commit();
    count++;
  }
  return count;
}

/** Deletes a user's badges and counters (erasure); returns how many badges went. */
export async function deleteBadgesOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<number> {
  let count = 0;
  for await (const entry of kv.list({ prefix: keys.badgesOfUser(userId) })) {
    await kv.delete(entry.key);
    count++;
  }
  await kv.delete(keys.userStats(userId));
  return count;
}
