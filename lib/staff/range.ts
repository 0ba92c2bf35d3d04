/**
 * The dashboard's date range: the days a staff member asks for, checked on
 * the server, or the default (the last 30 days of the municipality's
 * calendar).
 */
import { addDays, getLocalTime, isDay } from "@/lib/calendar/mod.ts";
import { MAX_RANGE_DAYS } from "@/lib/db/stats.ts";

/** Days in the default range: today and the 29 before it. */
export const DEFAULT_RANGE_DAYS = 30;

/** Why a range asked for was not used: the page says so in Spanish. */
export type RangeProblem = "invalid" | "reversed" | "too_long";

/** A range of days, both included (`YYYY-MM-DD`). */
export interface DayRange {
  from: string;
  to: string;
}

/** The last {@linkcode DEFAULT_RANGE_DAYS} days up to today in `timeZone`. */
export function getDefaultRange(now: Date, timeZone: string): DayRange {
  const to = getLocalTime(now, timeZone).day;
  return { from: addDays(to, 1 - DEFAULT_RANGE_DAYS), to };
}

/**
 * The range in `from` and `to` (a form's fields), or the default range with
 * the problem found: a field that is not a date, a start after the end, or
 * more than {@linkcode MAX_RANGE_DAYS} days. Neither field: the default, no
 * problem. One field alone: the other is the default's.
 */
export function parseDayRange(
  { from, to }: { from?: string; to?: string },
  { now, timeZone }: { now: Date; timeZone: string },
): DayRange & { problem: RangeProblem | null } {
  const fallback = getDefaultRange(now, timeZone);
  const asked = {
    from: from?.trim() || fallback.from,
    to: to?.trim() || fallback.to,
  };
  const problem: RangeProblem | null = !isDay(asked.from) || !isDay(asked.to)
    ? "invalid"
    : asked.from > asked.to
    ? "reversed"
    : addDays(asked.from, MAX_RANGE_DAYS - 1) < asked.to
    ? "too_long"
    : null;
  return problem ? { ...fallback, problem } : { ...asked, problem };
}
