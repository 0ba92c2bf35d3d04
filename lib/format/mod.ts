/**
 * Dates, months, distances, prices, ratings, hours and category labels, written
 * in the page's language. Routes, components and scripts import this entry,
 * never the folder's insides.
 *
 * @module
 */
export {
  type CostWords,
  describeCost,
  formatClockTime,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDistance,
  formatHours,
  formatLongDate,
  formatMinutes,
  formatMoney,
  formatMonth,
  formatRating,
  formatWeekday,
  getCategoryLabel,
} from "./format.ts";
