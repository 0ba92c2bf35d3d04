/**
 * Opening hours as data: OpenStreetMap `opening_hours` expressions checked,
 * evaluated in the municipality's time zone, and said in words. Routes and
 * the chat import this entry, never the folder's insides.
 *
 * @module
 */
export {
  checkOpeningHours,
  type ClockTime,
  type DayHours,
  getDaysHours,
  getHoursStatus,
  type HoursPlace,
  type HoursStatus,
} from "./opening_hours.ts";
export {
  describeDayHours,
  describeHoursStatus,
  describeWeek,
  formatClock,
  formatHoursLine,
  getWeekdayName,
  type HoursLine,
} from "./words.ts";
export {
  describePlaceHours,
  getHoursPlace,
  type HoursMunicipality,
  type PlaceHours,
} from "./place_hours.ts";
export { toOpeningHoursSpecification } from "./schema_org.ts";
