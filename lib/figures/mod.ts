/**
 * The figures each audience reads, assembled once each from the
 * dashboard's counters (written by lib/db/stats.ts in each fact's atomic,
 * read as rows by lib/db/counters.ts): the staff dashboard's and the
 * council report's (`getDashboard`, `getPeriodTotals`), an attraction's
 * page's (`getAttractionFigures`), and what the workbook adds (the monthly
 * ratings, the notes that show). Facts only: numbers, keys and days; the
 * console words them. The open data's published counts are lib/open_data's.
 */
export { type AttractionFigures, getAttractionFigures } from "./attraction.ts";
export {
  checkRange,
  type Dashboard,
  getDashboard,
  getFunnelMilestones,
  getPeriodTotals,
  MAX_RANGE_DAYS,
  type PeriodTotals,
  type StarDistribution,
  VISIT_METHODS,
  type VisitsByMethod,
} from "./dashboard.ts";
export { listMonthlyRatingCounts, listShownNotes } from "@/lib/db/counters.ts";
export type { StoredNote } from "@/lib/db/stats.ts";
