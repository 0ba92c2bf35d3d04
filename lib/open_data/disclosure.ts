/**
 * The disclosure rule: the one place that decides which figures about
 * tourists anyone outside the staff may see (the open data, the attraction
 * pages in every language, and anything else public). Statistical offices
 * follow the same three habits:
 *
 * 1. **Closed periods only, frozen.** A day is published once it is over,
 *    a month once it is over, and what was published never changes
 *    (lib/db/open_data.ts freezes it), so downloading a file or a page twice
 *    and subtracting shows nothing: one person's visit or rating moves no
 *    public figure until its period closes, and then only inside a group.
 * 2. **A threshold.** A figure computed from fewer than
 *    {@linkcode MIN_PEOPLE} people is a blank.
 * 3. **Complementary suppression.** A total over cells (a month's visits
 *    over its days) is published only if what it adds to the cells
 *    published beside it also covers at least {@linkcode MIN_PEOPLE} people
 *    and cannot be split back into the blank cells.
 *
 * "People" are distinct tourists: a tourist has at most one visit and one
 * standing rating per attraction, so a day's or a month's visits, and a
 * month's ratings, of one attraction count distinct people.
 */
import { addDays, addMonths, getLocalTime } from "@/lib/calendar/mod.ts";

/** The fewest distinct people any public figure may come from. */
export const MIN_PEOPLE = 5;

/** A rating figure as published: how many people, and their average. */
export interface PublishedRating {
  count: number;
  /** 1..5, unrounded. */
  average: number;
}

/** The periods that may be published at `now`: the last day and the last month that are over. */
export function getClosedPeriods(
  now: Date,
  timeZone: string,
): { day: string; month: string } {
  const { day, month } = getLocalTime(now, timeZone);
  return { day: addDays(day, -1), month: addMonths(month, -1) };
}

/** A count as published: itself, or null (a blank) under {@linkcode MIN_PEOPLE}. */
export function publishCount(count: number): number | null {
  return count >= MIN_PEOPLE ? count : null;
}

/** A month's ratings of an attraction as published, or null when under {@linkcode MIN_PEOPLE}. */
export function publishRating(
  { count, sum }: { count: number; sum: number },
): PublishedRating | null {
  return count >= MIN_PEOPLE ? { count, average: sum / count } : null;
}

/**
 * The total of `cells` (each a count of distinct people, a zero being a
 * cell nobody is in) as published beside the cells themselves, or null.
 *
 * A blank cell holds 1 to MIN_PEOPLE - 1 people, so the total minus the
 * published cells (the "remainder") is the sum of the blanks: it is
 * published only if it covers at least MIN_PEOPLE people and is neither
 * the least nor the most the blanks can hold (all ones, all fours), which
 * would give every blank back. One blank alone is therefore never
 * published through a total.
 */
export function publishTotal(cells: readonly number[]): number | null {
  const total = cells.reduce((a, b) => a + b, 0);
  if (publishCount(total) === null) return null;
  const blanks = cells.filter((n) => n > 0 && publishCount(n) === null);
  if (blanks.length === 0) return total;
  const remainder = blanks.reduce((a, b) => a + b, 0);
  const isPinned = remainder === blanks.length ||
    remainder === blanks.length * (MIN_PEOPLE - 1);
  return remainder >= MIN_PEOPLE && !isPinned ? total : null;
}
