/**
 * The data set's events still to come, as the home page and the chat show them.
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export {
  getUpcomingEvents,
  type TourismEvent,
  type UpcomingEvent,
} from "./upcoming.ts";
export {
  getNextOccurrence,
  getOccurrence,
  listOccurrences,
  type Occurrence,
} from "./occurrences.ts";
export { describeRecurrence, describeWhen } from "./when.ts";
export {
  buildCalendar,
  type CalendarEvent,
  escapeText,
  foldLine,
  toRRule,
} from "./ical.ts";
