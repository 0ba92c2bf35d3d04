/**
 * The data set's events still to come, as the home page and the chat show them.
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { getUpcomingEvents, type UpcomingEvent } from "./upcoming.ts";
export {
  buildCalendar,
  type CalendarEvent,
  escapeText,
  foldLine,
} from "./ical.ts";
