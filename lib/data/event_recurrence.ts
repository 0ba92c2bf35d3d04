/**
 * An event's `recurrence` in the data set (docs/STAFF.md, "Events"): its
 * words, and which calendar days it names. The schema validates with these
 * and lib/events expands with them, so both read one rule.
 */
import { getWeekday } from "@/lib/calendar/mod.ts";

/** How often a recurring event comes back. */
export const FREQUENCIES = ["daily", "weekly", "monthly"] as const;

/** The days of the week, Monday first (`getWeekday`'s 0..6). */
export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

export type Weekday = typeof WEEKDAYS[number];

/**
 * The weeks of a month a monthly event may name: 1 is its first such
 * weekday (days 1-7), 4 its fourth (days 22-28), which every month has.
 */
export const MAX_WEEK_OF_MONTH = 4;

/** A recurrence as the data set writes it (after validation). */
export interface EventRecurrence {
  frequency: typeof FREQUENCIES[number];
  /** Weekly: the days it is on. */
  weekdays?: Weekday[];
  /** Monthly on a day of the month (1-31: a month without it is skipped). */
  monthDay?: number;
  /** Monthly on the `week`-th `weekday` of the month (1-4). */
  week?: number;
  weekday?: Weekday;
  /** The last day an occurrence may start (included). */
  until?: string;
}

/** The weekday of `day` (`YYYY-MM-DD`). */
export function getWeekdayName(day: string): Weekday {
  return WEEKDAYS[getWeekday(day)];
}

/** Which `weekday` of its month `day` is: 1 for days 1-7, 2 for 8-14, ... */
export function getWeekOfMonth(day: string): number {
  return Math.ceil(Number(day.slice(8, 10)) / 7);
}

/**
 * Whether an occurrence of `recurrence` starts on `day` (ignoring its
 * first day and `until`, which the caller bounds).
 */
export function isRecurrenceDay(
  recurrence: EventRecurrence,
  day: string,
): boolean {
  switch (recurrence.frequency) {
    case "daily":
      return true;
    case "weekly":
      return recurrence.weekdays?.includes(getWeekdayName(day)) ?? false;
    case "monthly":
      if (recurrence.monthDay !== undefined) {
        return Number(day.slice(8, 10)) === recurrence.monthDay;
      }
      return getWeekdayName(day) === recurrence.weekday &&
        getWeekOfMonth(day) === recurrence.week;
  }
}
