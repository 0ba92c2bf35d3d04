/**
 * The dashboard's figures: what the staff console's dashboard, the
 * council's report and the workbook read for a range of days, assembled
 * from the counters' rows (lib/db/counters.ts) in a handful of parallel
 * range reads, never a visit. The funnel's milestones are the badge
 * table's, "every attraction" being the data set's own count of them.
 */
import { getWeekday, listDays } from "@/lib/calendar/mod.ts";
import { getFunnelStamps } from "@/lib/badges/badges.ts";
import {
  listChatCounts,
  listHourCounts,
  listMonthlyRatingCounts,
  listPassportCounts,
  listRatingTotals,
  listShownNotes,
  listStampCounts,
  listStampTotals,
  listTicketCounts,
  listVisitCounts,
  listVisitMethodCounts,
} from "@/lib/db/counters.ts";
import type { StoredNote } from "@/lib/db/stats.ts";

/** The most days one dashboard reads (bounded reads, whatever the form says). */
export const MAX_RANGE_DAYS = 366;

/** How visits are checked in, in the order the console lists them (lib/db/visits.ts `VisitMethod`). */
export const VISIT_METHODS = ["code", "gps"] as const;

/** Visits of a period by check-in method: every method of {@linkcode VISIT_METHODS}, then any other found. */
export type VisitsByMethod = { method: string; visits: number }[];

/** Stars 1..5: `distribution[i]` is the count of `i + 1` stars. */
export type StarDistribution = [number, number, number, number, number];

/** The dashboard's figures for a range of days (inclusive), in the municipality's calendar. */
export interface Dashboard {
  from: string;
  to: string;
  /** Every day of the range, `YYYY-MM-DD`. */
  days: string[];
  /** Visits in the range per attraction: every slug asked for, then any other found. */
  visitsByAttraction: { slug: string; visits: number }[];
  /** Visits in the range by how they were checked in. */
  visitsByMethod: VisitsByMethod;
  visitsByDay: { day: string; visits: number }[];
  /** 7 x 24 cells: `weekday` 0 = Monday .. 6 = Sunday, `hour` 0..23. */
  visitsByHour: { weekday: number; hour: number; visits: number }[];
  /** Tourists who reached each stamp count in the range, and since the start. */
  funnel: { stamps: number; inRange: number; allTime: number }[];
  passportsByDay: { day: string; guest: number; account: number }[];
  ticketsByDay: { day: string; tickets: number }[];
  /** Ratings standing now (all time) per attraction. */
  ratings: {
    slug: string;
    count: number;
    sum: number;
    average: number | null;
    distribution: StarDistribution;
  }[];
  /**
   * The chat's questions per day: `answered` are those answered with the
   * portal's data; `noData` those answered "I don't have that
   * information" (listed as unanswered questions); `refused` (too many in
   * a row) and `failed` (the model failed) got no answer.
   */
  chatByDay: {
    day: string;
    questions: number;
    answered: number;
    noData: number;
    refused: number;
    failed: number;
  }[];
  /** The newest notes, newest first. */
  latestNotes: StoredNote[];
}

/**
 * The funnel's stamp milestones for a data set of `attractions`
 * attractions: a first stamp, then each badge's stamps (lib/badges), "every
 * attraction" being `attractions`; none a passport cannot reach. Unknown
 * (0): the badges' fixed stamps only.
 */
export function getFunnelMilestones(attractions: number): number[] {
  return getFunnelStamps(attractions).filter((stamps) =>
    stamps >= 1 && (attractions === 0 || stamps <= attractions)
  );
}

/** The days of `from`..`to`, or a RangeError when reversed or longer than {@linkcode MAX_RANGE_DAYS}. */
export function checkRange(from: string, to: string): string[] {
  if (to < from) throw new RangeError(`Reversed range ${from}..${to}`);
  const days = listDays(from, to);
  if (days.length > MAX_RANGE_DAYS) {
    throw new RangeError(`Range of ${days.length} days`);
  }
  return days;
}

/** Visits by method from the counters' rows (of one attraction when `slug` is given). */
export function sumByMethod(
  rows: readonly { slug: string; method: string; n: number }[],
  slug?: string,
): VisitsByMethod {
  const totals = new Map<string, number>(VISIT_METHODS.map((m) => [m, 0]));
  for (const row of rows) {
    if (slug !== undefined && row.slug !== slug) continue;
    totals.set(row.method, (totals.get(row.method) ?? 0) + row.n);
  }
  return [...totals].map(([method, visits]) => ({
    method,
    visits: Math.max(0, visits),
  }));
}

/** Count, sum and average of a star distribution. */
export function summarizeStars(
  distribution: StarDistribution,
): { count: number; sum: number; average: number | null } {
  const count = distribution.reduce((a, b) => a + b, 0);
  const sum = distribution.reduce((a, n, i) => a + n * (i + 1), 0);
  return { count, sum, average: count > 0 ? sum / count : null };
}

/** A chat day's row from its outcome counts: answered with data is answered less "no data". */
function toChatRow(day: string, counts: ReadonlyMap<string, number>) {
  const get = (outcome: string) => Math.max(0, counts.get(outcome) ?? 0);
  const answered = get("answered");
  const noData = Math.min(answered, get("no_data"));
  return {
    day,
    questions: get("questions"),
    answered: answered - noData,
    noData,
    refused: get("refused"),
    failed: get("failed"),
  };
}

/**
 * The dashboard's figures for the days `from`..`to` (inclusive, at most
 * {@linkcode MAX_RANGE_DAYS}): a handful of range reads over the day-keyed
 * counters, in parallel (about 1,700 small entries for 30 days), never a
 * visit. `slugs` lists the data set's attractions, shown even with no
 * visits; their number is the funnel's "every attraction".
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
  const days = checkRange(from, to);
  const span = { from, to };
  const [
    byDay,
    byMethod,
    byHour,
    stampsByDay,
    stampsAllTime,
    passports,
    tickets,
    ratings,
    chats,
    notes,
  ] = await Promise.all([
    listVisitCounts(kv, span),
    listVisitMethodCounts(kv, span),
    listHourCounts(kv, span),
    listStampCounts(kv, span),
    listStampTotals(kv),
    listPassportCounts(kv, span),
    listTicketCounts(kv, span),
    listRatingTotals(kv),
    listChatCounts(kv, span),
    // Read from the visits: a note an admin hid never reaches the dashboard.
    listShownNotes(kv, { limit: notesLimit }),
  ]);

  const perSlug = new Map<string, number>(slugs.map((slug) => [slug, 0]));
  const perDay = new Map<string, number>(days.map((day) => [day, 0]));
  for (const { day, slug, n } of byDay) {
    perSlug.set(slug, (perSlug.get(slug) ?? 0) + n);
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }

  const cells = new Array<number>(7 * 24).fill(0);
  for (const { day, hour, n } of byHour) {
    if (Number.isInteger(hour) && hour >= 0 && hour < 24) {
      cells[getWeekday(day) * 24 + hour] += n;
    }
  }

  const inRange = new Map<number, number>();
  for (const { stamps, n } of stampsByDay) {
    inRange.set(stamps, (inRange.get(stamps) ?? 0) + n);
  }
  const allTime = new Map(stampsAllTime.map(({ stamps, n }) => [stamps, n]));

  const passportDays = new Map(
    days.map((day) => [day, { day, guest: 0, account: 0 }]),
  );
  for (const { day, kind, n } of passports) {
    const row = passportDays.get(day);
    if (row && (kind === "guest" || kind === "account")) row[kind] += n;
  }
  const ticketDays = new Map(days.map((day) => [day, 0]));
  for (const { day, n } of tickets) {
    ticketDays.set(day, (ticketDays.get(day) ?? 0) + n);
  }

  const ratingRows = new Map<string, StarDistribution>(
    slugs.map((slug) => [slug, [0, 0, 0, 0, 0]]),
  );
  for (const { slug, rating, n } of ratings) {
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) continue;
    let row = ratingRows.get(slug);
    if (!row) ratingRows.set(slug, row = [0, 0, 0, 0, 0]);
    row[rating - 1] += Math.max(0, n);
  }

  const chatDays = new Map(
    days.map((day) => [day, new Map<string, number>()]),
  );
  for (const { day, outcome, n } of chats) {
    const counts = chatDays.get(day);
    counts?.set(outcome, (counts.get(outcome) ?? 0) + n);
  }

  return {
    from,
    to,
    days,
    visitsByAttraction: [...perSlug].map(([slug, visits]) => ({
      slug,
      visits: Math.max(0, visits),
    })),
    visitsByMethod: sumByMethod(byMethod),
    visitsByDay: days.map((day) => ({
      day,
      visits: Math.max(0, perDay.get(day) ?? 0),
    })),
    visitsByHour: cells.map((visits, i) => ({
      weekday: Math.floor(i / 24),
      hour: i % 24,
      visits: Math.max(0, visits),
    })),
    funnel: getFunnelMilestones(slugs.length).map((stamps) => ({
      stamps,
      inRange: Math.max(0, inRange.get(stamps) ?? 0),
      allTime: Math.max(0, allTime.get(stamps) ?? 0),
    })),
    passportsByDay: [...passportDays.values()],
    ticketsByDay: [...ticketDays].map(([day, n]) => ({
      day,
      tickets: Math.max(0, n),
    })),
    ratings: [...ratingRows].map(([slug, distribution]) => ({
      slug,
      ...summarizeStars(distribution),
      distribution,
    })),
    chatByDay: [...chatDays].map(([day, counts]) => toChatRow(day, counts)),
    latestNotes: notes,
  };
}

/**
 * The dashboard's headline figures for the days `from`..`to` (inclusive):
 * verified visits (and by check-in method), tourists who got their first
 * stamp, passports opened, chat questions answered with data, and the
 * ratings given (by `ratedAt`) in the months `from`..`to` touch, still
 * standing. Ratings are counted by month only (`rating_counts_by_month`),
 * so their period is whole months, named here. Distinct tourists with any
 * visit cannot be summed from per-day counters, hence first stamps.
 */
export interface PeriodTotals {
  from: string;
  to: string;
  visits: number;
  /** The period's visits by how they were checked in. */
  visitsByMethod: VisitsByMethod;
  /** Tourists whose passport got its first stamp in the period. */
  firstStamps: number;
  /** Guest passports and accounts opened in the period. */
  passports: number;
  /** Chat questions answered with the portal's data in the period. */
  answered: number;
  /** Chat questions asked in the period. */
  questions: number;
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
  checkRange(from, to);
  const fromMonth = from.slice(0, 7);
  const toMonth = to.slice(0, 7);
  const span = { from, to };
  const [counts, ratings] = await Promise.all([
    dashboard ? null : Promise.all([
      listVisitCounts(kv, span),
      listVisitMethodCounts(kv, span),
      listStampCounts(kv, span),
      listPassportCounts(kv, span),
      listChatCounts(kv, span),
    ]),
    listMonthlyRatingCounts(kv, { fromMonth, toMonth }),
  ]);
  const total = <T>(rows: readonly T[], value: (row: T) => number) =>
    Math.max(0, rows.reduce((sum, row) => sum + value(row), 0));
  let figures: Omit<PeriodTotals, "from" | "to" | "ratings">;
  if (counts) {
    const [visits, methods, stamps, passports, chats] = counts;
    const chat = (outcome: string) =>
      total(chats.filter((row) => row.outcome === outcome), (row) => row.n);
    const answered = chat("answered");
    figures = {
      visits: total(visits, (row) => row.n),
      visitsByMethod: sumByMethod(methods),
      firstStamps: total(stamps.filter((row) => row.stamps === 1), (r) => r.n),
      passports: total(
        passports.filter((row) =>
          row.kind === "guest" || row.kind === "account"
        ),
        (row) => row.n,
      ),
      answered: answered - Math.min(answered, chat("no_data")),
      questions: chat("questions"),
    };
  } else {
    const shown = dashboard!;
    figures = {
      visits: total(shown.visitsByDay, (row) => row.visits),
      visitsByMethod: shown.visitsByMethod,
      firstStamps: shown.funnel.find((row) => row.stamps === 1)?.inRange ?? 0,
      passports: total(shown.passportsByDay, (row) => row.guest + row.account),
      answered: total(shown.chatByDay, (row) => row.answered),
      questions: total(shown.chatByDay, (row) => row.questions),
    };
  }
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
