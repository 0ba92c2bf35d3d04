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
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDistance,
  formatHours,
  formatMinutes,
  formatMoney,
  formatMonth,
  formatRating,
  getCategoryLabel,
} from "./format.ts";
