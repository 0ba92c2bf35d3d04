/**
 * The staff dashboard's aggregates: written by the module that writes each
 * fact, in the same atomic, as `sum`s on `Deno.KvU64` counters (so no
 * transaction contends on them), and read by day range without ever
 * touching a visit. A decrease (a re-rate, a merge) is a sum of 2^64 - n:
 * KV wraps around, and {@linkcode toSigned} reads the counter back.
 *
 * A visit's share of the counters is its "contribution" (the day and hour
 * it was verified, its stamp milestone, its rating, its note), derived from
 * the stored visit alone: a write removes the contribution of what it
 * replaces and adds that of what it stores, so every write path (record,
 * rate, merge, backfill) keeps the counters exact by one rule. A visit
 * whose contribution is in the counters says so (`inStats`); visits of
 * earlier versions have none until the backfill (lib/db/stats_backfill.ts)
 * counts them. What a contribution holds grew with the versions
 * ({@linkcode STATS_VERSION}): a visit says which version it was counted
 * under (`statsVersion`, absent: 1), so removing it takes back exactly what
 * was added, and the backfill adds what an older count lacks, once.
 *
 * This module writes; the counters are read as rows by ./counters.ts, and
 * each audience's figures (the dashboard, an attraction's page, the
 * workbook) are assembled from those rows in lib/figures.
 */
import { getLocalTime } from "@/lib/calendar/mod.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

// The calendar a write uses when its caller names none: config's, never a
// literal of storage's own. Re-exported for the writers of lib/db.
export { DEFAULT_TIME_ZONE } from "@/lib/config/config.ts";

/**
 * The visit counts versions 1 and 2 counted a stamp milestone at (the
 * badge table's milestones and the shipped data set's 17 attractions when
 * they were written). Kept only to take back exactly what a visit counted
 * under those versions added; version 3 counts every visit count, and the
 * funnel's milestones are chosen when read, from the data set in force.
 */
const V2_STAMP_MILESTONES: readonly number[] = [1, 5, 10, 17];

/**
 * The version of a visit's contribution: 1, the day, day and hour (all
 * attractions), stamp and rating counters; 2 adds the hour of day per
 * attraction (`keys.visitCountByAttractionHour`); 3 counts the stamp
 * counters at every visit count (not only at fixed milestones) and the
 * visits by how they were checked in (`keys.visitCountByMethod`).
 */
export const STATS_VERSION = 3;

/** How a visit counts as checked in: its `method`, `code` for visits of earlier versions. */
export function getCountedMethod(visit: { method?: string }): string {
  return visit.method ?? "code";
}

/** The fields of a visit the counters are derived from (`Visit` in lib/db/visits.ts). */
export interface CountedVisit {
  visitId: string;
  slug: string;
  /** ISO 8601. */
  visitedAt: string;
  /** The user's visit count this visit made (1 = first stamp). */
  seq?: number;
  /** How it was checked in (`code`, `gps`); absent on visits of earlier versions (by code). */
  method?: string;
  rating: number | null;
  notes: string | null;
  /** ISO 8601, or null. */
  ratedAt: string | null;
  /** Its contribution is in the counters. */
  inStats?: boolean;
  /** The {@linkcode STATS_VERSION} it was counted under (absent: 1). */
  statsVersion?: number;
}

/**
 * A note in the notes index (`keys.noteByTime`): what the dashboard's
 * "latest notes" and moderation need, and nothing that names the tourist.
 */
export interface StoredNote {
  visitId: string;
  slug: string;
  rating: number | null;
  notes: string;
  /** ISO 8601: when the rating and notes were saved. */
  ratedAt: string;
}

const U64 = 1n << 64n;

/** A `Deno.KvU64` counter read as a signed number (sums of 2^64 - n are decreases). */
export function toSigned(
  value: Deno.KvU64 | bigint | null | undefined,
): number {
  if (value === null || value === undefined) return 0;
  const n = typeof value === "bigint" ? value : value.value;
  return Number(n >= U64 / 2n ? n - U64 : n);
}

/**
 * Changes to counters, gathered and then added to one atomic with
 * {@linkcode StatsDelta.applyTo}: several changes of one key become one
 * `sum`, and a change that nets to zero writes nothing.
 */
export class StatsDelta {
  readonly #counts = new Map<string, { key: Deno.KvKey; n: bigint }>();

  /** Moves the counter `key` by `n` (negative to decrease). */
  add(key: Deno.KvKey, n: number | bigint): this {
    const id = JSON.stringify(key);
    const entry = this.#counts.get(id);
    if (entry) entry.n += BigInt(n);
    else this.#counts.set(id, { key, n: BigInt(n) });
    return this;
  }

  /**
   * Adds (`sign` 1) or removes (-1) a visit's contribution as `version`
   * ({@linkcode STATS_VERSION}) counts it, in `timeZone`'s calendar.
   */
  addVisit(
    visit: CountedVisit,
    sign: 1 | -1,
    timeZone: string,
    version: number = STATS_VERSION,
  ): this {
    const { day, hour } = getLocalTime(visit.visitedAt, timeZone);
    this.add(keys.visitCountByDay(day, visit.slug), sign);
    this.add(keys.visitCountByHour(day, hour), sign);
    if (version >= 2) {
      this.add(keys.visitCountByAttractionHour(visit.slug, day, hour), sign);
    }
    if (version >= 3) {
      this.add(
        keys.visitCountByMethod(day, visit.slug, getCountedMethod(visit)),
        sign,
      );
    }
    const seq = visit.seq ?? 0;
    if (version >= 3 ? seq >= 1 : V2_STAMP_MILESTONES.includes(seq)) {
      this.add(keys.stampCountByDay(day, seq), sign);
      this.add(keys.stampCount(seq), sign);
    }
    if (visit.rating !== null && visit.rating !== undefined) {
      const { month } = getLocalTime(
        visit.ratedAt ?? visit.visitedAt,
        timeZone,
      );
      this.add(keys.ratingCount(visit.slug, visit.rating), sign);
      this.add(
        keys.ratingCountByMonth(month, visit.slug, visit.rating),
        sign,
      );
    }
    return this;
  }

  /** The counters that change, with their (non-zero) change. */
  entries(): { key: Deno.KvKey; n: bigint }[] {
    return [...this.#counts.values()].filter((entry) => entry.n !== 0n);
  }

  /** Adds one `sum` per changed counter to `operation`. */
  applyTo(operation: Deno.AtomicOperation): Deno.AtomicOperation {
    for (const { key, n } of this.entries()) {
      operation.sum(key, ((n % U64) + U64) % U64);
    }
    return operation;
  }
}

/** The notes index key of a visit's notes, or null when it has none. */
export function getNoteKey(visit: CountedVisit): Deno.KvKey | null {
  if (!visit.notes) return null;
  const at = Date.parse(visit.ratedAt ?? visit.visitedAt);
  return keys.noteByTime(at, visit.visitId);
}

/**
 * Replaces the contribution of the visits `before` (as stored; only those
 * counted, `inStats`, contribute) with that of the visits `after` (as they
 * are about to be stored), in `operation`: the counters' sums and the notes
 * index. Returns `after` marked `inStats`: store those. Used by every write
 * of visits, so that one rule keeps the counters exact.
 */
export function replaceVisitStats<T extends CountedVisit>(
  operation: Deno.AtomicOperation,
  { before, after, timeZone }: {
    before: readonly CountedVisit[];
    after: readonly T[];
    timeZone: string;
  },
): T[] {
  const delta = new StatsDelta();
  const removed = new Map<string, Deno.KvKey>();
  for (const visit of before) {
    if (!visit.inStats) continue;
    delta.addVisit(visit, -1, timeZone, visit.statsVersion ?? 1);
    const key = getNoteKey(visit);
    if (key) removed.set(JSON.stringify(key), key);
  }
  const counted = after.map((visit) => ({
    ...visit,
    inStats: true,
    statsVersion: STATS_VERSION,
  }));
  for (const visit of counted) {
    delta.addVisit(visit, 1, timeZone);
    const key = getNoteKey(visit);
    if (!key) continue;
    removed.delete(JSON.stringify(key));
    operation.set(
      key,
      {
        visitId: visit.visitId,
        slug: visit.slug,
        rating: visit.rating ?? null,
        notes: visit.notes!,
        ratedAt: visit.ratedAt ?? visit.visitedAt,
      } satisfies StoredNote,
    );
  }
  for (const key of removed.values()) operation.delete(key);
  delta.applyTo(operation);
  return counted;
}

/**
 * Brings a visit counted under an older {@linkcode STATS_VERSION} up to the
 * current one in `operation` (the counters it lacks; the notes index is
 * unchanged): the backfill's step for visits counted live by an earlier
 * version. Returns the visit to store, marked with the current version.
 */
export function upgradeVisitStats<T extends CountedVisit>(
  operation: Deno.AtomicOperation,
  { visit, timeZone }: { visit: T; timeZone: string },
): T {
  new StatsDelta()
    .addVisit(visit, -1, timeZone, visit.statsVersion ?? 1)
    .addVisit(visit, 1, timeZone)
    .applyTo(operation);
  return { ...visit, inStats: true, statsVersion: STATS_VERSION };
}

/** Counts a passport opened at `at` (a guest passport, or an account's first sign-in). */
export function countPassportOpened(
  operation: Deno.AtomicOperation,
  { kind, at, timeZone }: {
    kind: "guest" | "account";
    at: Date | string;
    timeZone: string;
  },
): Deno.AtomicOperation {
  const { day } = getLocalTime(at, timeZone);
  return operation.sum(keys.passportCountByDay(day, kind), 1n);
}

/** Counts a ticket created at `createdAt`. */
export function countTicketCreated(
  operation: Deno.AtomicOperation,
  { createdAt, timeZone }: { createdAt: Date | string; timeZone: string },
): Deno.AtomicOperation {
  const { day } = getLocalTime(createdAt, timeZone);
  return operation.sum(keys.ticketCountByDay(day), 1n);
}

/** What became of a chat request, as the dashboard counts it (`no_data` is counted apart: {@linkcode recordChatNoData}). */
export type ChatOutcome = "answered" | "refused" | "failed" | "other";

/** The chat outcome of a response status: 200 answered, 429 refused, 502 failed. */
export function getChatOutcome(status: number): ChatOutcome {
  return status === 200
    ? "answered"
    : status === 429
    ? "refused"
    : status === 502
    ? "failed"
    : "other";
}

/**
 * Counts one chat request (a question) and its outcome on the day of `at`.
 * Two conflict-free sums: concurrent chats never retry.
 */
export async function recordChatOutcome(
  kv: Deno.Kv,
  { outcome, at, timeZone }: {
    outcome: ChatOutcome;
    at: Date;
    timeZone: string;
  },
): Promise<void> {
  const { day } = getLocalTime(at, timeZone);
  const delta = new StatsDelta().add(keys.chatCountByDay(day, "questions"), 1);
  if (outcome !== "other") delta.add(keys.chatCountByDay(day, outcome), 1);
  await commit(delta.applyTo(kv.atomic()));
}

/**
 * Counts one answered chat reply that said the portal's data does not hold
 * the answer (the model's "not in the data" marker), on the day of `at`:
 * it is in `answered` too (its status was 200), so the questions answered
 * with data are `answered - no_data`. One conflict-free sum.
 */
export async function recordChatNoData(
  kv: Deno.Kv,
  { at, timeZone }: { at: Date; timeZone: string },
): Promise<void> {
  const { day } = getLocalTime(at, timeZone);
  await commit(kv.atomic().sum(keys.chatCountByDay(day, "no_data"), 1n));
}
