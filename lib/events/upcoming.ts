/**
 * The one rule for which of the data set's events the portal shows as
 * coming: the home page, attraction pages and the chat's prompt all list
 * what {@linkcode getUpcomingEvents} returns, never `data.events` itself.
 */
import { getLocalDate } from "@/lib/calendar/mod.ts";
import {
  getNextOccurrence,
  type Occurrence,
  type TourismEvent,
} from "./occurrences.ts";

export type { TourismEvent };

/** An event still to come or on now. */
export interface UpcomingEvent {
  event: TourismEvent;
  /** Its occurrence on now, or its next one. */
  next: Occurrence;
  /** That occurrence has started. */
  ongoing: boolean;
}

/**
 * The events that are not over at `now`, soonest first (by their next
 * occurrence's start, then its end, then name). Dates and times are the
 * municipality's: an all-day event is over once its last day has ended in
 * `timeZone`, one with times at its `endTime` there, whatever the
 * visitor's or the server's time zone; a recurring event is listed by its
 * occurrence on now or next, and is over after the last (`until`). A
 * one-off event that is over is never shown as coming: its next edition
 * appears when the data set lists it.
 */
export function getUpcomingEvents(
  events: readonly TourismEvent[],
  { now, timeZone, attraction }: {
    now: Date;
    /** The municipality's IANA time zone: days turn at its midnight. */
    timeZone: string;
    /** Only the events at this attraction (its slug). */
    attraction?: string;
  },
): UpcomingEvent[] {
  const upcoming: UpcomingEvent[] = [];
  const today = getLocalDate(now, timeZone);
  for (const event of events) {
    if (attraction !== undefined && event.attraction !== attraction) continue;
    const next = getNextOccurrence(event, { now, timeZone, today });
    if (next) {
      upcoming.push({ event, next, ongoing: next.startMs <= now.getTime() });
    }
  }
  return upcoming.sort((a, b) =>
    a.next.startMs - b.next.startMs || a.next.endMs - b.next.endMs ||
    a.event.name.localeCompare(b.event.name, "es")
  );
}
