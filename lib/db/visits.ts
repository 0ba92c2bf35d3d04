import {
  type Badge,
  type BadgeRule,
  BADGES,
  getBadgesEarned,
} from "@/lib/badges/badges.ts";
import type { CheckInRule, VisitMethod } from "@/lib/check_in/names.ts";
import { isCheckInMethodRecord } from "./check_in_methods.ts";
import {
  addCheckInReceiptTo,
  type CheckInReceipt,
  isCheckInReceipt,
} from "./check_ins.ts";
import type { GuideCodeIndexEntry, GuideCodeRecord } from "./guide_codes.ts";
import { keys } from "./keys.ts";
import { getErasedUserKey, UserErasedError } from "./erased_users.ts";
import { commit, CONFLICT, MAX_GET_MANY_KEYS, runTransaction } from "./kv.ts";
import { DEFAULT_TIME_ZONE, getNoteKey, replaceVisitStats } from "./stats.ts";
import {
  evaluateRateLimit,
  type RateLimitOptions,
  type RateLimitResult,
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
export type { VisitMethod };

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
  /**
   * What the rules and badges need of each visit, so a verification reads
   * no list of visits: `[slug, visitedAt, checkedInAt or null, seq]`,
   * written with each visit. Absent (counters of earlier versions, a
   * merge's, a passport past {@linkcode MAX_VISITED_IN_STATS} visits): the
   * visits are listed, and the next visit writes it.
   */
  visited?: VisitedTuple[];
}

/** One visit in the counters entry: slug, visitedAt, checkedInAt (or null), seq. */
export type VisitedTuple = [string, string, string | null, number];

/** What the rules and badges read of a passport's other visits. */
export type VisitedFacts = Pick<
  Visit,
  "slug" | "visitedAt" | "checkedInAt" | "seq"
>;

/**
 * The most visits the counters entry lists (a KV value holds 64 KiB; one
 * tuple is under 120 bytes); past it the visits are listed.
 */
export const MAX_VISITED_IN_STATS = 400;

function isVisitedTuples(value: unknown): value is VisitedTuple[] {
  return Array.isArray(value) &&
    value.every((t) =>
      Array.isArray(t) && t.length === 4 && typeof t[0] === "string" &&
      typeof t[1] === "string" && (t[2] === null || typeof t[2] === "string") &&
      typeof t[3] === "number"
    );
}

function toVisitedFacts(
  [slug, visitedAt, checkedInAt, seq]: VisitedTuple,
): VisitedFacts {
  return checkedInAt === null
    ? { slug, visitedAt, seq }
    : { slug, visitedAt, checkedInAt, seq };
}

function toVisitedTuple(visit: VisitedFacts): VisitedTuple {
  return [visit.slug, visit.visitedAt, visit.checkedInAt ?? null, visit.seq];
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

/** The entries an attempt read, checked by the commit that follows it. */
interface AttemptEntries {
  visit: Deno.KvEntryMaybe<unknown>;
  stats: Deno.KvEntryMaybe<unknown>;
  erased: Deno.KvEntryMaybe<unknown>;
  limits: Deno.KvEntryMaybe<unknown>[];
  /** Each limit's hits still in its window, and its window. */
  hits: { key: Deno.KvKey; recent: number[]; windowMs: number }[];
  codes: Deno.KvEntryMaybe<unknown>[];
  rule: Deno.KvEntryMaybe<unknown> | null;
  ledger: Deno.KvEntryMaybe<unknown> | null;
  /** Badges of counters of an earlier version, read by `readPassport`. */
  badges: Deno.KvEntryMaybe<unknown>[];
}

/**
 * What one try at recording a visit read, in one `getMany`: the facts a
 * rule decides on, and the entries the commit checks (so a concurrent
 * write makes the try read again, `runTransaction`). Read by
 * {@linkcode readVisitAttempt}; written by {@linkcode commitVisit} or
 * {@linkcode commitCheckInAnswer}.
 */
export interface VisitAttempt {
  userId: string;
  /** The attraction it would be recorded at (`""`: a code of no attraction). */
  slug: string;
  /** The passport's visit of `slug` already, or null. */
  visit: Visit | null;
  /** The admin's check-in rule of `slug` as stored, or null (the data set's applies). */
  storedRule: CheckInRule | null;
  /** A named check-in's kept answer, or null. */
  receipt: CheckInReceipt | null;
  /** The typed code's replaced-code entries (with `guideCode`; else null). */
  codeIndex: GuideCodeIndexEntry | null;
  codeRecord: GuideCodeRecord | null;
  /** The tightest of the rate limits: whether one more hit is allowed now. */
  limit: RateLimitResult;
  /**
   * The share code of the passport's ticket, or null: the card a new visit
   * redraws, read here so that the redraw needs no read of its own;
   * `undefined` when the read had no room for it (a named check-in by code
   * with both rate limits: KV's `getMany` takes at most 10 keys).
   */
  shareCode?: string | null;
  /** Storage's own: what the commit checks. */
  readonly entries: AttemptEntries;
}

/**
 * Reads what a visit of `slug` is decided on, in one `getMany`: the visit,
 * the user's counters, the user id's tombstone, the rate limits, the
 * passport's ticket's share code, and with
 * `guideCode` the code's replaced-code entries, with `rule` the admin's
 * check-in rule, with `checkInId` the id's receipt and the passport's
 * refusal ledger. A right and a wrong code read the same keys. A user id
 * erased is a {@linkcode UserErasedError}.
 */
export async function readVisitAttempt(
  kv: Deno.Kv,
  { userId, slug, now, rateLimits = [], guideCode, rule, checkInId }: {
    userId: string;
    /** The attraction; with `guideCode`, the one whose data-set code it is, or `""`. */
    slug: string;
    now: Date;
    rateLimits?: readonly Omit<RateLimitOptions, "now">[];
    /** The typed code, normalised. */
    guideCode?: string;
    /** Read the admin's check-in rule of `slug`. */
    rule?: boolean;
    /** A named check-in's id. */
    checkInId?: string;
  },
): Promise<VisitAttempt> {
  const limitKeys = rateLimits.map((limit) =>
    keys.rateLimit(limit.scope, limit.subject)
  );
  const codeKeys = guideCode === undefined
    ? []
    : [keys.guideCodeByCode(guideCode), keys.guideCode(slug)];
  const extra = [
    ...(rule ? [keys.checkInMethod(slug)] : []),
    ...(checkInId === undefined
      ? []
      : [keys.checkIn(userId, checkInId), keys.checkInRefusals(userId)]),
  ];
  const read = [
    keys.visit(userId, slug),
    keys.userStats(userId),
    await getErasedUserKey(userId),
    ...limitKeys,
    ...codeKeys,
    ...extra,
  ];
  const withTicket = read.length < MAX_GET_MANY_KEYS;
  const entries = await kv.getMany<unknown[]>(
    withTicket ? [...read, keys.ticketByUser(userId)] : read,
  );
  const ticket = withTicket ? entries.pop()! : undefined;
  const [visit, stats, erased] = entries;
  // The user id's tombstone: checked in every write below, so a request
  // that passed the token check before an erasure writes nothing after it.
  if (erased.value !== null) throw new UserErasedError();
  const limits = entries.slice(3, 3 + limitKeys.length);
  const codes = entries.slice(
    3 + limitKeys.length,
    3 + limitKeys.length + codeKeys.length,
  );
  const rest = entries.slice(3 + limitKeys.length + codeKeys.length);
  const ruleEntry = rule ? rest.shift()! : null;
  const receiptEntry = checkInId === undefined ? null : rest.shift()!;
  const ledger = checkInId === undefined ? null : rest.shift()!;
  const evaluated = rateLimits.map((options, i) =>
    evaluateRateLimit(limits[i].value, { ...options, now })
  );
  return {
    userId,
    slug,
    visit: (visit.value as Visit | null) ?? null,
    storedRule: toStoredRule(ruleEntry?.value),
    receipt: isCheckInReceipt(receiptEntry?.value) ? receiptEntry.value : null,
    codeIndex: (codes[0]?.value as GuideCodeIndexEntry | null) ?? null,
    codeRecord: (codes[1]?.value as GuideCodeRecord | null) ?? null,
    limit: tightest(evaluated.map(({ result }) => result)),
    shareCode: ticket &&
      (typeof ticket.value === "string" ? ticket.value : null),
    entries: {
      visit,
      stats,
      erased,
      limits,
      hits: evaluated.map(({ recent }, i) => ({
        key: limitKeys[i],
        recent: [...recent],
        windowMs: rateLimits[i].windowMs,
      })),
      codes,
      rule: ruleEntry,
      ledger,
      badges: [],
    },
  };
}

/**
 * The same attempt at another attraction (a replaced code's): its visit
 * and, when the attempt read one, its admin's rule, read now; everything
 * else as read.
 */
export async function readVisitAttemptAt(
  kv: Deno.Kv,
  attempt: VisitAttempt,
  slug: string,
): Promise<VisitAttempt> {
  const [visit, rule] = await kv.getMany<unknown[]>([
    keys.visit(attempt.userId, slug),
    keys.checkInMethod(slug),
  ]);
  const hasRule = attempt.entries.rule !== null;
  return {
    ...attempt,
    slug,
    visit: (visit.value as Visit | null) ?? null,
    storedRule: hasRule ? toStoredRule(rule.value) : null,
    entries: { ...attempt.entries, visit, rule: hasRule ? rule : null },
  };
}

/** What a passport holds, for the rules and the badges of its next visit. */
export interface PassportFacts {
  /** Its visits so far (the next is number `visitCount + 1`). */
  visitCount: number;
  /** The ids of the badges it holds. */
  held: string[];
  /** Its other visits, every one (what the rules and badges read of them). */
  visits: VisitedFacts[];
}

/**
 * Reads the passport of an attempt: its counters (as the attempt read
 * them), the badges it holds (read and checked once for counters of an
 * earlier version, from `table`) and its visits: from the counters entry
 * (`visited`), none without counters, else listed. The visits are not
 * checked one by one: every write of a user's visits also writes the
 * counters, which the commit checks.
 */
export async function readPassport(
  kv: Deno.Kv,
  attempt: VisitAttempt,
  table: readonly BadgeRule[] = BADGES,
): Promise<PassportFacts> {
  const stored = (attempt.entries.stats.value ?? {}) as Partial<
    StoredUserStats
  >;
  const stats = toUserStats(stored);
  let held: string[];
  if (stored.badges) {
    held = stored.badges;
  } else if (stats.badgeCount === 0) {
    held = [];
  } else {
    // Counters of an earlier version: which badges, read (and checked) once.
    const badgeEntries = await kv.getMany<unknown[]>(
      table.map((badge) => keys.badge(attempt.userId, badge.id)),
    );
    attempt.entries.badges.push(...badgeEntries);
    held = table.filter((_, i) => badgeEntries[i].value !== null)
      .map((badge) => badge.id);
  }
  let visits: VisitedFacts[];
  if (attempt.entries.stats.value === null) {
    // No counters: no visit was ever written (each one writes them).
    visits = [];
  } else if (
    isVisitedTuples(stored.visited) &&
    stored.visited.length === stats.visitCount
  ) {
    visits = stored.visited.map(toVisitedFacts);
  } else {
    visits = [];
    for await (
      const entry of kv.list<Visit>({
        prefix: keys.visitsOfUser(attempt.userId),
      })
    ) {
      if (isVisit(entry.value)) visits.push(entry.value);
    }
  }
  return { visitCount: stats.visitCount, held, visits };
}

/** A new visit as a rule decided it: {@linkcode commitVisit} adds the rest. */
export type NewVisit = Pick<
  Visit,
  "visitId" | "visitedAt" | "checkedInAt" | "method" | "seq"
>;

/**
 * Writes a visit at the attempt's attraction in one atomic: the visit and
 * its id index, the user's counters with the badges held, the attraction's
 * visit count (a `sum`, which needs no check, so tourists at one
 * attraction never make each other retry), the dashboard's counters (its
 * day, hour and stamp milestone in `timeZone`'s calendar), each badge of
 * `unlocked`, and a named check-in's `receipt`. It checks every entry the
 * attempt read (the visit, counters, tombstone, limits, codes, rule and
 * ledger), so concurrent visits of one user count exactly and unlock each
 * badge once, a failed guess recorded meanwhile, a replaced code or a
 * switched rule makes it read again. Returns the visit, or null on such a
 * conflict (nothing written).
 */
export async function commitVisit(
  kv: Deno.Kv,
  attempt: VisitAttempt,
  {
    visit: fields,
    held,
    visited,
    unlocked,
    receipt,
    timeZone = DEFAULT_TIME_ZONE,
  }: {
    visit: NewVisit;
    /**
     * The passport's other visits as read (`readPassport`): listed, with
     * this one, in the counters entry. Absent: the entry lists none.
     */
    visited?: readonly VisitedFacts[];
    /** The badges the passport holds, and those this visit unlocks. */
    held: readonly string[];
    unlocked: readonly Badge[];
    /** A named check-in's answer, kept for its id. */
    receipt?: { checkInId: string; receipt: CheckInReceipt };
    /** The municipality's time zone: whose day the dashboard counts the visit in. */
    timeZone?: string;
  },
): Promise<Visit | null> {
  const { userId, slug, entries } = attempt;
  const operation = checkAttempt(kv.atomic(), attempt)
    .check(...entries.badges);
  const [visit] = replaceVisitStats<Visit>(operation, {
    before: [],
    timeZone,
    after: [{
      ...fields,
      userId,
      slug,
      rating: null,
      notes: null,
      ratedAt: null,
    }],
  });
  const badges = [...held, ...unlocked.map((badge) => badge.id)];
  const all = visited && visited.length + 1 === fields.seq &&
      fields.seq <= MAX_VISITED_IN_STATS
    ? [...visited, visit].map(toVisitedTuple)
    : undefined;
  operation
    .check({ key: keys.visitById(visit.visitId), versionstamp: null })
    .set(keys.visit(userId, slug), visit)
    .set(keys.visitById(visit.visitId), [userId, slug])
    .set(
      keys.userStats(userId),
      {
        visitCount: fields.seq,
        badgeCount: badges.length,
        badges,
        ...(all ? { visited: all } : {}),
      } satisfies StoredUserStats,
    )
    .sum(keys.attractionVisitCount(slug), 1n);
  for (const badge of unlocked) {
    operation.set(
      keys.badge(userId, badge.id),
      { ...badge, unlockedAt: visit.visitedAt } satisfies UnlockedBadge,
    );
  }
  if (receipt) {
    addCheckInReceiptTo(operation, {
      userId,
      ...receipt,
      ledger: entries.ledger!,
    });
  }
  return (await commit(operation)).ok ? visit : null;
}

/**
 * Writes a named check-in's answer without a visit (a refusal, a
 * duplicate, a wrong code), among the passport's last refusals, in one
 * atomic that checks what the attempt read; with `hit`, one more hit on
 * each of its rate limits (a wrong guess counts once, with its answer).
 * False on a conflict (nothing written).
 */
export async function commitCheckInAnswer(
  kv: Deno.Kv,
  attempt: VisitAttempt,
  { checkInId, receipt, hit, now }: {
    checkInId: string;
    receipt: CheckInReceipt;
    hit?: boolean;
    now: Date;
  },
): Promise<boolean> {
  const { entries } = attempt;
  const operation = checkAttempt(kv.atomic(), attempt);
  if (hit) {
    for (const { key, recent, windowMs } of entries.hits) {
      operation.set(key, [...recent, now.getTime()], {
        expireIn: Math.ceil(windowMs),
      });
    }
  }
  addCheckInReceiptTo(operation, {
    userId: attempt.userId,
    checkInId,
    receipt,
    ledger: entries.ledger!,
  });
  return (await commit(operation)).ok;
}

/** Checks every entry an attempt read, but its refusal ledger (the receipt's write checks it). */
function checkAttempt(
  operation: Deno.AtomicOperation,
  { entries }: VisitAttempt,
): Deno.AtomicOperation {
  operation.check(
    entries.visit,
    entries.stats,
    entries.erased,
    ...entries.limits,
    ...entries.codes,
  );
  if (entries.rule) operation.check(entries.rule);
  return operation;
}

/** An admin's stored check-in rule, or null for anything else. */
function toStoredRule(value: unknown): CheckInRule | null {
  return isCheckInMethodRecord(value)
    ? { method: value.method, radiusM: value.radiusM }
    : null;
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
  }
  | { status: "duplicate"; visit: Visit }
  | { status: "rate_limited"; retryAfterMs: number };

/**
 * Records a user's visit of an attraction, with no check-in rule (the
 * seeds, the benches, the tests of what a visit writes; a tourist's
 * check-in goes through lib/check_in): {@linkcode readVisitAttempt},
 * {@linkcode readPassport} and {@linkcode commitVisit}, retried on a
 * conflict, with the badges of the table (lib/badges) the passport now
 * earns. A visit already recorded is `duplicate`, with nothing written.
 * With `rateLimits`, the visit is only recorded while every one of them
 * still allows a hit (without recording one).
 */
export async function recordVisit(
  kv: Deno.Kv,
  {
    userId,
    slug,
    now,
    totalAttractions,
    rateLimits,
    timeZone,
    badges: table = BADGES,
    method = "code",
  }: {
    userId: string;
    slug: string;
    now: Date;
    totalAttractions: number;
    rateLimits?: readonly Omit<RateLimitOptions, "now">[];
    /** How the visit is stored as checked in; no rule of that method is applied. */
    method?: NewVisit["method"];
    /** The municipality's time zone: whose day the dashboard counts the visit in. */
    timeZone?: string;
    /** The badge table (lib/badges); tests pass their own. */
    badges?: readonly BadgeRule[];
  },
): Promise<RecordVisitResult> {
  return await runTransaction(async () => {
    const attempt = await readVisitAttempt(kv, {
      userId,
      slug,
      now,
      rateLimits,
    });
    if (!attempt.limit.allowed) {
      return {
        status: "rate_limited" as const,
        retryAfterMs: attempt.limit.retryAfterMs,
      };
    }
    if (attempt.visit) {
      return { status: "duplicate" as const, visit: attempt.visit };
    }
    const passport = await readPassport(kv, attempt, table);
    const unlocked = getBadgesEarned({
      count: passport.visitCount + 1,
      visited: new Set([slug, ...passport.visits.map((v) => v.slug)]),
      total: totalAttractions,
    }, table).filter((badge) => !passport.held.includes(badge.id));
    const visit = await commitVisit(kv, attempt, {
      visit: {
        visitId: crypto.randomUUID(),
        visitedAt: now.toISOString(),
        checkedInAt: now.toISOString(),
        method,
        seq: passport.visitCount + 1,
      },
      held: passport.held,
      visited: passport.visits,
      unlocked,
      timeZone,
    });
    if (!visit) return CONFLICT;
    return {
      status: "created" as const,
      visit,
      badge: unlocked.at(-1) ?? null,
      unlocked,
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
