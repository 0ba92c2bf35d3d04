/**
 * One attraction's figures, for its page on the staff console: its visits
 * by day, by check-in method and by hour of the day, its ratings (all
 * time and by month), its newest notes that show; from the counters' rows
 * (lib/db/counters.ts) and the notes index, never a scan of the visits.
 */
import {
  listAttractionHourCounts,
  listMonthlyRatingCounts,
  listRatingTotals,
  listShownNotes,
  listVisitCounts,
  listVisitMethodCounts,
} from "@/lib/db/counters.ts";
import type { StoredNote } from "@/lib/db/stats.ts";
import {
  checkRange,
  type StarDistribution,
  sumByMethod,
  summarizeStars,
  type VisitsByMethod,
} from "./dashboard.ts";

/** One attraction's figures for the console's attraction page ({@linkcode getAttractionFigures}). */
export interface AttractionFigures {
  slug: string;
  from: string;
  to: string;
  /** Every day of the range with this attraction's verified visits. */
  visitsByDay: { day: string; visits: number }[];
  /** Its visits in the range by how they were checked in. */
  visitsByMethod: VisitsByMethod;
  /** Its verified visits in the range by hour of the day: 24 numbers, 0 = 00:00–00:59. */
  visitsByHour: number[];
  /** Ratings standing now (all time). */
  ratings: {
    count: number;
    average: number | null;
    distribution: StarDistribution;
  };
  /** Ratings given in the months the range touches, still standing (counted by month). */
  ratingsInMonths: {
    fromMonth: string;
    toMonth: string;
    count: number;
    average: number | null;
  };
  /** Its newest notes that show, newest first (`listShownNotes`). */
  notes: StoredNote[];
}

/**
 * One attraction's figures for the days `from`..`to` (inclusive, at most
 * `MAX_RANGE_DAYS`): its newest `notesLimit` notes are found among the
 * newest `notesScan` entries of the notes index, those that show (never a
 * hidden one).
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
  const days = checkRange(from, to);
  const fromMonth = from.slice(0, 7);
  const toMonth = to.slice(0, 7);
  const span = { from, to };
  const [byDay, byMethod, byHour, ratingRows, monthly, notes] = await Promise
    .all([
      listVisitCounts(kv, span),
      listVisitMethodCounts(kv, span),
      listAttractionHourCounts(kv, { slug, ...span }),
      listRatingTotals(kv, { slug }),
      listMonthlyRatingCounts(kv, { fromMonth, toMonth }),
      listShownNotes(kv, { slug, limit: notesLimit, scan: notesScan }),
    ]);
  const perDay = new Map<string, number>(days.map((day) => [day, 0]));
  for (const row of byDay) {
    if (row.slug === slug) {
      perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.n);
    }
  }
  const perHour = new Array<number>(24).fill(0);
  for (const { hour, n } of byHour) {
    if (Number.isInteger(hour) && hour >= 0 && hour < 24) perHour[hour] += n;
  }
  const distribution = ratingRows.map((row) =>
    Math.max(0, row.n)
  ) as StarDistribution;
  const { count, average } = summarizeStars(distribution);
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
    visitsByMethod: sumByMethod(byMethod, slug),
    visitsByHour: perHour.map((visits) => Math.max(0, visits)),
    ratings: { count, average, distribution },
    ratingsInMonths: {
      fromMonth,
      toMonth,
      count: monthCount,
      average: monthCount > 0 ? monthSum / monthCount : null,
    },
    notes,
  };
}
