/**
 * When an event happens: its occurrences as instants in the municipality's
 * time zone. An event without `recurrence` has one occurrence, its own
 * dates; a recurring one has one per day its rule names, from `startDate`
 * (the first) to `until`, each as long as the first. An occurrence without
 * times is all-day: it runs from its first day's local midnight to the
 * midnight after its last day.
 */
import {
  addDays,
  getDayNumber,
  getLocalDate,
  getLocalInstantMs,
  getLocalMidnightMs,
} from "@/lib/calendar/mod.ts";
import { isRecurrenceDay } from "@/lib/data/event_recurrence.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";

/** One event of the data set. */
export type TourismEvent = TourismData["events"][number];

/** One occurrence of an event. */
export interface Occurrence {
  /** Its first and last days (`YYYY-MM-DD`), in the municipality. */
  startDate: string;
  endDate: string;
  /** When it starts and ends (epoch ms; the end excluded). */
  startMs: number;
  endMs: number;
}

/**
 * The longest gap between two occurrences a rule may have: a monthly event
 * on day 31 skips the months without one (at most two in a row).
 */
const MAX_GAP_DAYS = 62;

/** The occurrence of `event` that starts on `day`. */
export function getOccurrence(
  event: TourismEvent,
  day: string,
  timeZone: string,
): Occurrence {
  const endDate = addDays(
    day,
    getDayNumber(event.endDate) - getDayNumber(event.startDate),
  );
  return {
    startDate: day,
    endDate,
    startMs: event.startTime
      ? getLocalInstantMs(day, event.startTime, timeZone)
      : getLocalMidnightMs(day, timeZone),
    endMs: event.endTime
      ? getLocalInstantMs(endDate, event.endTime, timeZone)
      : getLocalMidnightMs(addDays(endDate, 1), timeZone),
  };
}

/**
 * The first day from `from` (included) an occurrence of `event` starts on,
 * or `undefined` when there is none (before `until`, or for an event
 * without recurrence, from its `startDate`).
 */
function findOccurrenceDay(
  event: TourismEvent,
  from: string,
): string | undefined {
  const { recurrence } = event;
  if (!recurrence) return from <= event.startDate ? event.startDate : undefined;
  let day = from > event.startDate ? from : event.startDate;
  for (let i = 0; i <= MAX_GAP_DAYS; i++, day = addDays(day, 1)) {
    if (recurrence.until !== undefined && day > recurrence.until) return;
    if (isRecurrenceDay(recurrence, day)) return day;
  }
  return undefined;
}

/**
 * The occurrences of `event` that are not over at `now`, soonest first, at
 * most `count` of them: the first is the one on now, if any. `today` is
 * `now`'s day in `timeZone`, when the caller has it.
 */
export function listOccurrences(
  event: TourismEvent,
  { now, timeZone, count, today = getLocalDate(now, timeZone) }: {
    now: Date;
    timeZone: string;
    count: number;
    today?: string;
  },
): Occurrence[] {
  const nowMs = now.getTime();
  if (!event.recurrence) {
    // Over before today whatever its times: no instant to work out.
    if (event.endDate < today || count < 1) return [];
    const occurrence = getOccurrence(event, event.startDate, timeZone);
    return occurrence.endMs > nowMs ? [occurrence] : [];
  }
  // An occurrence on now started at most its length ago (one more day for
  // its times): look from there.
  const span = getDayNumber(event.endDate) - getDayNumber(event.startDate);
  let from = addDays(today, -span - 1);
  const found: Occurrence[] = [];
  while (found.length < count) {
    const day = findOccurrenceDay(event, from);
    if (day === undefined) break;
    const occurrence = getOccurrence(event, day, timeZone);
    if (occurrence.endMs > nowMs) found.push(occurrence);
    from = addDays(day, 1);
  }
  return found;
}

/** The occurrence of `event` on now or next, `undefined` once all are over. */
export function getNextOccurrence(
  event: TourismEvent,
  options: { now: Date; timeZone: string; today?: string },
): Occurrence | undefined {
  return listOccurrences(event, { ...options, count: 1 })[0];
}
