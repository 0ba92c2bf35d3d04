/**
 * The reads behind the open data and the panel's exports: day-keyed visit
 * counts by range (never a visit), the closed periods' frozen figures, and,
 * for the admins' ratings export, every rated visit streamed in key order.
 *
 * Public figures come from frozen periods only: the first read after a day
 * or a month is over copies its counters into `published_days` /
 * `published_months`, once (a check on `published_through` makes a second
 * instance's copy lose), and nothing changes them afterwards: a later
 * re-rating, merge or erasure moves the live counters the staff dashboard
 * reads, never a published figure (lib/open_data/disclosure.ts says why).
 */
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";
import { addDays, addMonths } from "@/lib/calendar/mod.ts";
import {
  type DailyVisitCount,
  getFirstVisitDay,
  listDailyVisitCounts,
  listMonthlyRatingCounts,
} from "./counters.ts";
import type { StatsBackfillState } from "./stats_backfill.ts";
import type { Visit } from "./visits.ts";

// The live counters' reads are ./counters.ts's; re-exported for the
// open data's callers.
export { type DailyVisitCount, getFirstVisitDay, listDailyVisitCounts };

/** A closed day's visits per attraction, as frozen (attractions with none left out). */
export interface PublishedDay {
  /** `YYYY-MM-DD`. */
  day: string;
  visits: Record<string, number>;
}

/** A closed month's figures per attraction, as frozen. */
export interface PublishedMonth {
  /** `YYYY-MM`. */
  month: string;
  /** Ratings given in the month and standing when it was frozen: how many, and their stars' sum. */
  ratings: Record<string, { count: number; sum: number }>;
  /** The month's frozen daily visits (days with none left out): a total is their sum. */
  visits: Record<string, number[]>;
}

/** The last day and month frozen, each null before the first. */
interface PublishedThrough {
  day: string | null;
  month: string | null;
}

/** Days (or months) frozen in one atomic: far under KV's 1,000 mutations and 800 KB. */
const FREEZE_BATCH = 100;

async function getFirstRatingMonth(kv: Deno.Kv): Promise<string | null> {
  for await (
    const { key } of kv.list({ prefix: keys.ratingCountsByMonth() }, {
      limit: 1,
    })
  ) {
    return key[1] as string;
  }
  return null;
}

/**
 * Freezes every day up to `day` and every month up to `month` (both over:
 * lib/open_data/disclosure.ts `getClosedPeriods`) not frozen yet, from the
 * live counters, and returns what is frozen. Safe to call on every read:
 * once frozen, it is one read. Days are frozen before the months that
 * hold them, so a month's visits are the sum of its published days. While
 * the counters' backfill (lib/db/stats_backfill.ts) runs, nothing is
 * frozen: a period frozen then would miss the visits still to be counted.
 */
export async function freezeClosedPeriods(
  kv: Deno.Kv,
  { day, month }: { day: string; month: string },
): Promise<PublishedThrough> {
  while (true) {
    const [entry, backfill] = await kv.getMany<
      [PublishedThrough, StatsBackfillState]
    >([keys.publishedThrough(), keys.statsBackfill()]);
    const through = entry.value ?? { day: null, month: null };
    if (backfill.value?.status === "running") return through;
    const operation = kv.atomic().check(entry);
    if (through.day === null || through.day < day) {
      const from = through.day
        ? addDays(through.day, 1)
        : await getFirstVisitDay(kv) ?? day;
      const to = [addDays(from, FREEZE_BATCH - 1), day].sort()[0];
      const frozen = new Map<string, Record<string, number>>();
      const rows = from <= to
        ? await listDailyVisitCounts(kv, { from, to })
        : [];
      for (const row of rows) {
        const visits = frozen.get(row.day) ?? {};
        visits[row.slug] = row.count;
        frozen.set(row.day, visits);
      }
      for (const [frozenDay, visits] of frozen) {
        operation.set(keys.publishedDay(frozenDay), visits);
      }
      operation.set(keys.publishedThrough(), { ...through, day: to });
    } else if (through.month === null || through.month < month) {
      let from = through.month ? addMonths(through.month, 1) : null;
      if (!from) {
        const firstDay = await getFirstVisitDay(kv);
        const firstRating = await getFirstRatingMonth(kv);
        from = [firstDay?.slice(0, 7), firstRating, month]
          .filter((m): m is string => !!m).sort()[0];
      }
      const to = [addMonths(from, FREEZE_BATCH - 1), month].sort()[0];
      const frozen = new Map<string, PublishedMonth>();
      const getMonth = (m: string) => {
        let value = frozen.get(m);
        if (!value) {
          frozen.set(m, value = { month: m, ratings: {}, visits: {} });
        }
        return value;
      };
      const counts = await listMonthlyRatingCounts(kv, {
        fromMonth: from,
        toMonth: to,
      });
      for (const { month: m, slug, rating, count } of counts) {
        const ratings = getMonth(m).ratings;
        const cell = ratings[slug] ??= { count: 0, sum: 0 };
        cell.count += count;
        cell.sum += rating * count;
      }
      for (
        const published of await listPublishedDays(kv, {
          from: `${from}-01`,
          to: `${to}-31`,
        })
      ) {
        const visits = getMonth(published.day.slice(0, 7)).visits;
        for (const [slug, count] of Object.entries(published.visits)) {
          (visits[slug] ??= []).push(count);
        }
      }
      for (const [m, value] of frozen) {
        operation.set(keys.publishedMonth(m), value);
      }
      operation.set(keys.publishedThrough(), { ...through, month: to });
    } else {
      return through;
    }
    // A lost race: another request froze these periods; read what it froze.
    await commit(operation);
  }
}

/** The frozen days `from`..`to` (inclusive) that had visits, in day order. */
export async function listPublishedDays(
  kv: Deno.Kv,
  { from, to }: { from?: string; to?: string } = {},
): Promise<PublishedDay[]> {
  const prefix = keys.publishedDays();
  const days: PublishedDay[] = [];
  const iterator = kv.list<Record<string, number>>(
    from || to
      ? {
        start: [...prefix, from ?? ""],
        end: [...prefix, `${to ?? "9999"}\uffff`],
      }
      : { prefix },
    { batchSize: 500 },
  );
  for await (const { key, value } of iterator) {
    days.push({ day: key[1] as string, visits: value });
  }
  return days;
}

/** Every frozen month that had visits or ratings, in month order. */
export async function listPublishedMonths(
  kv: Deno.Kv,
): Promise<PublishedMonth[]> {
  const months: PublishedMonth[] = [];
  const iterator = kv.list<PublishedMonth>({ prefix: keys.publishedMonths() });
  for await (const { value } of iterator) months.push(value);
  return months;
}

/** One frozen month, or null when it had no visits or ratings (or is not frozen). */
export async function getPublishedMonth(
  kv: Deno.Kv,
  month: string,
): Promise<PublishedMonth | null> {
  return (await kv.get<PublishedMonth>(keys.publishedMonth(month))).value;
}

/**
 * Every rated visit, in batches as KV hands them over: for the admins'
 * ratings export, which is a download (streamed), never a page.
 */
export async function* listRatedVisits(kv: Deno.Kv): AsyncGenerator<Visit> {
  const iterator = kv.list<Visit>({ prefix: keys.visits() }, {
    batchSize: 500,
  });
  for await (const { value } of iterator) {
    if (value.rating !== null || value.notes !== null) yield value;
  }
}
