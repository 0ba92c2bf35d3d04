/**
 * The one rule for which of the data set's events the portal shows as
 * coming: the home page, attraction pages and the chat's prompt all list
 * what {@linkcode getUpcomingEvents} returns, never `data.events` itself.
 */
import { getLocalDate } from "@/lib/calendar/mod.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";

/** One event of the data set. */
export type TourismEvent = TourismData["events"][number];

/** An event still to come or on now. */
export interface UpcomingEvent {
  event: TourismEvent;
  /** It has started: today is between its first and last day. */
  ongoing: boolean;
}

/**
 * The events that are not over at `now`, soonest first (by first day, then
 * last day, then name). Events are dated, each edition with its own
 * `startDate` and `endDate` (the data set has no recurrence rule: a yearly
 * fiesta is a new entry each year, since its dates move), and their dates are
 * calendar days in the municipality. So an event is over once its last day
 * has ended in `timeZone` (the municipality's), whatever the visitor's or the
 * server's time zone; until then it is upcoming, and `ongoing` from its first
 * day. An edition that is over is never shown as coming: the next one
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
  const today = getLocalDate(now, timeZone);
  return events
    .filter((e) =>
      e.endDate >= today &&
      (attraction === undefined || e.attraction === attraction)
    )
    .sort((a, b) =>
      a.startDate.localeCompare(b.startDate) ||
      a.endDate.localeCompare(b.endDate) ||
      a.name.localeCompare(b.name, "es")
    )
    .map((event) => ({ event, ongoing: event.startDate <= today }));
}
