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
 */
import {
  getLocalTime,
  getNextDay,
  getWeekday,
  listDays,
} from "@/lib/calendar/mod.ts";
import { getFunnelStamps } from "@/lib/badges/badges.ts";
import { type NoteFields, readNote } from "./notes.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

/**
 * The stamp counts the badge funnel shows: a first stamp, then each badge's
 * stamps from the badge table (lib/badges), [1, 5, 10, 17] today. "Every
 * attraction" counts as the shipped data set's 17: the counters are written
 * with each visit, so their milestones must not move with a reload.
 */
export const FUNNEL_STAMPS: readonly number[] = getFunnelStamps(17);

/** Whose calendar the counters use when a caller names none (tests, benches): the shipped data set's. */
export const DEFAULT_TIME_ZONE = "America/Mexico_City";

/**
 * The version of a visit's contribution: 1, the day, day and hour (all
 * attractions), stamp and rating counters; 2 adds the hour of day per
 * attraction (`keys.visitCountByAttractionHour`).
 */
export const STATS_VERSION = 2;

/** The fields of a visit the counters are derived from (`Visit` in lib/db/visits.ts). */
export interface CountedVisit {
  visitId: string;
  slug: string;
  /** ISO 8601. */
  visitedAt: string;
  /** The user's visit count this visit made (1 = first stamp). */
  seq?: number;
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
    const seq = visit.seq ?? 0;
    if (FUNNEL_STAMPS.includes(seq)) {
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

/** What became of a chat request, as the dashboard counts it. */
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

// --- Reading -----------------------------------------------------------------

/** The dashboard's figures for a range of days (inclusive), in the municipality's calendar. */
export interface Dashboard {
  from: string;
  to: string;
  /** Every day of the range, `YYYY-MM-DD`. */
  days: string[];
  /** Visits in the range per attraction: every slug asked for, then any other found. */
  visitsByAttraction: { slug: string; visits: number }[];
  visitsByDay: { day: string; visits: number }[];
  /** 7 x 24 cells: `weekday` 0 = Monday .. 6 = Sunday, `hour` 0..23. */
  visitsByHour: { weekday: number; hour: number; visits: number }[];
  /** Tourists who reached each stamp count in the range, and since the start. */
  funnel: { stamps: number; inRange: number; allTime: number }[];
  passportsByDay: { day: string; guest: number; account: number }[];
  ticketsByDay: { day: string; tickets: number }[];
  /** Ratings standing now (all time) per attraction; `distribution[i]` is the count of `i + 1` stars. */
  ratings: {
    slug: string;
    count: number;
    sum: number;
    average: number | null;
    distribution: [number, number, number, number, number];
  }[];
  chatByDay: {
    day: string;
    questions: number;
    answered: number;
    refused: number;
    failed: number;
  }[];
  /** The newest notes, newest first. */
  latestNotes: StoredNote[];
}

/** The most days one dashboard reads (bounded reads, whatever the form says). */
export const MAX_RANGE_DAYS = 366;

async function listRange<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  from: string,
  to: string,
): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  const iterator = kv.list<T>({
    start: [...prefix, from],
    end: [...prefix, getNextDay(to)],
  }, { batchSize: 1000 });
  for await (const entry of iterator) entries.push(entry);
  return entries;
}

async function listAll<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  for await (const entry of kv.list<T>({ prefix }, { batchSize: 1000 })) {
    entries.push(entry);
  }
  return entries;
}

/**
 * The dashboard's figures for the days `from`..`to` (inclusive, at most
 * {@linkcode MAX_RANGE_DAYS}): a handful of range reads over the day-keyed
 * counters, in parallel (about 1,700 small entries for 30 days), never a
 * visit. `slugs` lists the attractions to show even with no visits.
 */
export async function getDashboard(
  kv: Deno.Kv,
  { from, to, slugs = [], notesLimit = 10 }: {
    from: string;
    to: string;
    slugs?: readonly string[];
    notesLimit?: number;
  },
): Promise<Dashboard> {
  if (to < from) throw new RangeError(`Reversed range ${from}..${to}`);
  const days = listDays(from, to);
  if (days.length > MAX_RANGE_DAYS) {
    throw new RangeError(`Range of ${days.length} days`);
  }
  const [
    byDay,
    byHour,
    stampsByDay,
    stampsAllTime,
    passports,
    tickets,
    ratings,
    chats,
    notes,
  ] = await Promise.all([
    listRange<Deno.KvU64>(kv, keys.visitCountsByDay(), from, to),
    listRange<Deno.KvU64>(kv, keys.visitCountsByHour(), from, to),
    listRange<Deno.KvU64>(kv, keys.stampCountsByDay(), from, to),
    listAll<Deno.KvU64>(kv, keys.stampCounts()),
    listRange<Deno.KvU64>(kv, keys.passportCountsByDay(), from, to),
    listRange<Deno.KvU64>(kv, keys.ticketCountsByDay(), from, to),
    listAll<Deno.KvU64>(kv, keys.ratingCounts()),
    listRange<Deno.KvU64>(kv, keys.chatCountsByDay(), from, to),
    // Read from the visits: a note an admin hid never reaches the dashboard.
    listShownNotes(kv, { limit: notesLimit }),
  ]);

  const perSlug = new Map<string, number>(slugs.map((slug) => [slug, 0]));
  const perDay = new Map<string, number>(days.map((day) => [day, 0]));
  for (const { key, value } of byDay) {
    const [, day, slug] = key as [string, string, string];
    const n = toSigned(value);
    perSlug.set(slug, (perSlug.get(slug) ?? 0) + n);
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }

  const cells = new Array<number>(7 * 24).fill(0);
  for (const { key, value } of byHour) {
    const [, day, hour] = key as [string, string, number];
    cells[getWeekday(day) * 24 + hour] += toSigned(value);
  }

  const inRange = new Map<number, number>();
  for (const { key, value } of stampsByDay) {
    const stamps = key[2] as number;
    inRange.set(stamps, (inRange.get(stamps) ?? 0) + toSigned(value));
  }
  const allTime = new Map(
    stampsAllTime.map(({ key, value }) => [key[1] as number, toSigned(value)]),
  );

  const passportDays = new Map(
    days.map((day) => [day, { day, guest: 0, account: 0 }]),
  );
  for (const { key, value } of passports) {
    const [, day, kind] = key as [string, string, "guest" | "account"];
    const row = passportDays.get(day);
    if (row && (kind === "guest" || kind === "account")) {
      row[kind] += toSigned(value);
    }
  }
  const ticketDays = new Map(days.map((day) => [day, 0]));
  for (const { key, value } of tickets) {
    const day = key[1] as string;
    ticketDays.set(day, (ticketDays.get(day) ?? 0) + toSigned(value));
  }

  const ratingRows = new Map<string, [number, number, number, number, number]>(
    slugs.map((slug) => [slug, [0, 0, 0, 0, 0]]),
  );
  for (const { key, value } of ratings) {
    const [, slug, rating] = key as [string, string, number];
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) continue;
    let row = ratingRows.get(slug);
    if (!row) ratingRows.set(slug, row = [0, 0, 0, 0, 0]);
    row[rating - 1] += Math.max(0, toSigned(value));
  }

  const chatDays = new Map(
    days.map((day) => [
      day,
      { day, questions: 0, answered: 0, refused: 0, failed: 0 },
    ]),
  );
  for (const { key, value } of chats) {
    const [, day, outcome] = key as [string, string, string];
    const row = chatDays.get(day);
    if (
      row &&
      (outcome === "questions" || outcome === "answered" ||
        outcome === "refused" || outcome === "failed")
    ) {
      row[outcome] += toSigned(value);
    }
  }

  return {
    from,
    to,
    days,
    visitsByAttraction: [...perSlug].map(([slug, visits]) => ({
      slug,
      visits: Math.max(0, visits),
    })),
    visitsByDay: days.map((day) => ({
      day,
      visits: Math.max(0, perDay.get(day) ?? 0),
    })),
    visitsByHour: cells.map((visits, i) => ({
      weekday: Math.floor(i / 24),
      hour: i % 24,
      visits: Math.max(0, visits),
    })),
    funnel: FUNNEL_STAMPS.map((stamps) => ({
      stamps,
      inRange: Math.max(0, inRange.get(stamps) ?? 0),
      allTime: Math.max(0, allTime.get(stamps) ?? 0),
    })),
    passportsByDay: [...passportDays.values()],
    ticketsByDay: [...ticketDays].map(([day, n]) => ({
      day,
      tickets: Math.max(0, n),
    })),
    ratings: [...ratingRows].map(([slug, distribution]) => {
      const count = distribution.reduce((a, b) => a + b, 0);
      const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
      return {
        slug,
        count,
        sum,
        average: count > 0 ? sum / count : null,
        distribution,
      };
    }),
    chatByDay: [...chatDays.values()],
    latestNotes: notes,
  };
}

/**
 * The newest notes first, `limit` at a time, from the notes index (no
 * scan of visits). `cursor` continues a listing.
 */
export async function listLatestNotes(
  kv: Deno.Kv,
  { limit = 10, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: StoredNote[]; cursor: string | null }> {
  const iterator = kv.list<StoredNote>({ prefix: keys.notesByTime() }, {
    reverse: true,
    limit,
    cursor,
  });
  const values: StoredNote[] = [];
  for await (const entry of iterator) values.push(entry.value);
  return {
    values,
    cursor: values.length === limit && iterator.cursor ? iterator.cursor : null,
  };
}

/**
 * The newest notes that show (`limit` at most), of one attraction when
 * `slug` is given, among the newest `scan` entries of the notes index (all
 * of them by default), as they stand now: each entry is checked against
 * its visit and read by the rule of hidden notes (lib/db/notes.ts) for
 * `others`, so a note an admin hid never appears, whatever the index held
 * when it was written; a note whose visit cannot be found by its id cannot
 * have been hidden, and shows as indexed. The one list of notes for every
 * page but moderation: the dashboard's latest notes, an attraction's page,
 * the workbook.
 */
export async function listShownNotes(
  kv: Deno.Kv,
  { limit = 10, slug, scan }: {
    limit?: number;
    slug?: string;
    scan?: number;
  } = {},
): Promise<StoredNote[]> {
  const shown: StoredNote[] = [];
  if (limit <= 0) return shown;
  const take = async (batch: StoredNote[]) => {
    const ids = await kv.getMany<[string, string][]>(
      batch.map((note) => keys.visitById(note.visitId)),
    );
    const visits = await kv.getMany<(CountedVisit & NoteFields)[]>(
      ids.map((id) => keys.visit(...(id.value ?? ["", ""]))),
    );
    for (const [i, indexed] of batch.entries()) {
      const visit = visits[i].value;
      if (visit?.visitId !== indexed.visitId) {
        shown.push(indexed);
      } else {
        const notes = readNote(visit, "others");
        const { visitId, rating } = visit;
        if (notes) {
          shown.push({
            visitId,
            slug: visit.slug,
            rating,
            notes,
            ratedAt: visit.ratedAt ?? visit.visitedAt,
          });
        }
      }
      if (shown.length >= limit) return true;
    }
    return false;
  };
  let batch: StoredNote[] = [];
  for await (
    const entry of kv.list<StoredNote>({ prefix: keys.notesByTime() }, {
      reverse: true,
      limit: scan,
      // One attraction's notes are a few among many entries.
      batchSize: slug ? 500 : 10,
    })
  ) {
    if (slug && entry.value?.slug !== slug) continue;
    batch.push(entry.value);
    if (batch.length === 10) {
      if (await take(batch)) return shown;
      batch = [];
    }
  }
  if (batch.length > 0) await take(batch);
  return shown;
}

/**
 * Monthly ratings per attraction and value (`rating_counts_by_month`), for
 * the open data: `[month, slug, rating, count]` rows of the months
 * `fromMonth`..`toMonth` (`YYYY-MM`, inclusive), zero counts left out.
 */
export async function listMonthlyRatingCounts(
  kv: Deno.Kv,
  { fromMonth, toMonth }: { fromMonth: string; toMonth: string },
): Promise<{ month: string; slug: string; rating: number; count: number }[]> {
  const rows = [];
  const iterator = kv.list<Deno.KvU64>({
    start: [...keys.ratingCountsByMonth(), fromMonth],
    end: [...keys.ratingCountsByMonth(), `${toMonth}\uffff`],
  }, { batchSize: 1000 });
  for await (const { key, value } of iterator) {
    const [, month, slug, rating] = key as [string, string, string, number];
    const count = toSigned(value);
    if (count > 0) rows.push({ month, slug, rating, count });
  }
  return rows;
}

/**
 * The dashboard's headline figures for the days `from`..`to` (inclusive):
 * verified visits, tourists who got their first stamp, passports opened,
 * chat questions answered, and the ratings given (by `ratedAt`) in the
 * months `from`..`to` touch, still standing. Ratings are counted by month
 * only (`rating_counts_by_month`), so their period is whole months, named
 * here. Distinct tourists with any visit cannot be summed from per-day
 * counters, hence first stamps.
 */
export interface PeriodTotals {
  from: string;
  to: string;
  visits: number;
  /** Tourists whose passport got its first stamp in the period. */
  firstStamps: number;
  /** Guest passports and accounts opened in the period. */
  passports: number;
  /** Chat questions answered in the period. */
  answered: number;
  ratings: {
    /** `YYYY-MM`, the months read (those of `from` and `to`, and between). */
    fromMonth: string;
    toMonth: string;
    count: number;
    sum: number;
  };
}

/**
 * The headline figures of the days `from`..`to` (see
 * {@linkcode PeriodTotals}): a few range reads of day-keyed counters, in
 * parallel, never a visit. With `dashboard` (the same range's figures,
 * already read) only the monthly ratings are read.
 */
export async function getPeriodTotals(
  kv: Deno.Kv,
  { from, to, dashboard }: { from: string; to: string; dashboard?: Dashboard },
): Promise<PeriodTotals> {
  if (to < from) throw new RangeError(`Reversed range ${from}..${to}`);
  if (listDays(from, to).length > MAX_RANGE_DAYS) {
    throw new RangeError(`Range from ${from} to ${to}`);
  }
  const fromMonth = from.slice(0, 7);
  const toMonth = to.slice(0, 7);
  const sumOf = (entries: Deno.KvEntry<Deno.KvU64>[]) =>
    Math.max(
      0,
      entries.reduce((sum, { value }) => sum + toSigned(value), 0),
    );
  const [counts, ratings] = await Promise.all([
    dashboard ? null : Promise.all([
      listRange<Deno.KvU64>(kv, keys.visitCountsByDay(), from, to),
      listRange<Deno.KvU64>(kv, keys.stampCountsByDay(), from, to),
      listRange<Deno.KvU64>(kv, keys.passportCountsByDay(), from, to),
      listRange<Deno.KvU64>(kv, keys.chatCountsByDay(), from, to),
    ]),
    listMonthlyRatingCounts(kv, { fromMonth, toMonth }),
  ]);
  const total = <T>(rows: readonly T[], value: (row: T) => number) =>
    rows.reduce((sum, row) => sum + value(row), 0);
  const figures = counts
    ? {
      visits: sumOf(counts[0]),
      firstStamps: sumOf(counts[1].filter(({ key }) => key[2] === 1)),
      passports: sumOf(
        counts[2].filter(({ key }) =>
          key[2] === "guest" || key[2] === "account"
        ),
      ),
      answered: sumOf(counts[3].filter(({ key }) => key[2] === "answered")),
    }
    : {
      visits: total(dashboard!.visitsByDay, (row) => row.visits),
      firstStamps: dashboard!.funnel.find((row) => row.stamps === 1)
        ?.inRange ?? 0,
      passports: total(
        dashboard!.passportsByDay,
        (row) => row.guest + row.account,
      ),
      answered: total(dashboard!.chatByDay, (row) => row.answered),
    };
  return {
    from,
    to,
    ...figures,
    ratings: {
      fromMonth,
      toMonth,
      count: total(ratings, (row) => row.count),
      sum: total(ratings, (row) => row.count * row.rating),
    },
  };
}

/** One attraction's figures for the console's attraction page ({@linkcode getAttractionFigures}). */
export interface AttractionFigures {
  slug: string;
  from: string;
  to: string;
  /** Every day of the range with this attraction's verified visits. */
  visitsByDay: { day: string; visits: number }[];
  /** Its verified visits in the range by hour of the day: 24 numbers, 0 = 00:00–00:59. */
  visitsByHour: number[];
  /** Ratings standing now (all time); `distribution[i]` is the count of `i + 1` stars. */
  ratings: {
    count: number;
    average: number | null;
    distribution: [number, number, number, number, number];
  };
  /** Ratings given in the months the range touches, still standing (counted by month). */
  ratingsInMonths: {
    fromMonth: string;
    toMonth: string;
    count: number;
    average: number | null;
  };
  /** Its newest notes that show, newest first ({@linkcode listShownNotes}). */
  notes: StoredNote[];
}

/**
 * One attraction's figures for the days `from`..`to` (inclusive, at most
 * {@linkcode MAX_RANGE_DAYS}): its visits by day from the day-keyed
 * counters, its ratings from the rating counters (all time and by month),
 * and its newest `notesLimit` notes, found among the newest `notesScan`
 * entries of the notes index, those that show ({@linkcode listShownNotes}:
 * never a hidden one), and its visits by hour of the day from its own hour counters.
 * Never a scan of the visits.
 */
export async function getAttractionFigures(
  kv: Deno.Kv,
  { slug, from, to, notesLimit = 10, notesScan = 500 }: {
    slug: string;
    from: string;
    to: string;
    notesLimit?: number;
    notesScan?: number;
  },
): Promise<AttractionFigures> {
  if (to < from) throw new RangeError(`Reversed range ${from}..${to}`);
  const days = listDays(from, to);
  if (days.length > MAX_RANGE_DAYS) {
    throw new RangeError(`Range of ${days.length} days`);
  }
  const fromMonth = from.slice(0, 7);
  const toMonth = to.slice(0, 7);
  const [byDay, byHour, ratingEntries, monthly, notes] = await Promise.all([
    listRange<Deno.KvU64>(kv, keys.visitCountsByDay(), from, to),
    listRange<Deno.KvU64>(
      kv,
      keys.visitCountsByAttractionHour(slug),
      from,
      to,
    ),
    kv.getMany<Deno.KvU64[]>(
      [1, 2, 3, 4, 5].map((rating) => keys.ratingCount(slug, rating)),
    ),
    listMonthlyRatingCounts(kv, { fromMonth, toMonth }),
    listShownNotes(kv, { slug, limit: notesLimit, scan: notesScan }),
  ]);
  const perDay = new Map<string, number>(days.map((day) => [day, 0]));
  for (const { key, value } of byDay) {
    const [, day, of] = key as [string, string, string];
    if (of === slug) perDay.set(day, (perDay.get(day) ?? 0) + toSigned(value));
  }
  const perHour = new Array<number>(24).fill(0);
  for (const { key, value } of byHour) {
    const hour = key[3] as number;
    if (Number.isInteger(hour) && hour >= 0 && hour < 24) {
      perHour[hour] += toSigned(value);
    }
  }
  const distribution = ratingEntries.map((entry) =>
    Math.max(0, toSigned(entry.value))
  ) as [number, number, number, number, number];
  const count = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
  const own = monthly.filter((row) => row.slug === slug);
  const monthCount = own.reduce((a, row) => a + row.count, 0);
  const monthSum = own.reduce((a, row) => a + row.count * row.rating, 0);
  return {
    slug,
    from,
    to,
    visitsByDay: days.map((day) => ({
      day,
      visits: Math.max(0, perDay.get(day) ?? 0),
    })),
    visitsByHour: perHour.map((visits) => Math.max(0, visits)),
    ratings: {
      count,
      average: count > 0 ? sum / count : null,
      distribution,
    },
    ratingsInMonths: {
      fromMonth,
      toMonth,
      count: monthCount,
      average: monthCount > 0 ? monthSum / monthCount : null,
    },
    notes,
  };
}
