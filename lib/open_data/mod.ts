/**
 * The open data (`/datos`): the published figures per attraction, the CSV files
 * with their small-count suppression, the data package and when it last
 * changed. Routes, components and scripts import this entry, never the folder's
 * insides.
 *
 * @module
 */
export {
  type AttractionFigures,
  buildDailyVisitsCsv,
  buildDataPackage,
  buildMonthlyRatingsCsv,
  buildMonthlyRedemptionsCsv,
  getAttractionFigures,
  getOpenDataUpdatedAt,
  MIN_PEOPLE,
  OPEN_DATA_FILES,
  streamRatingsWithNotesCsv,
} from "./open_data.ts";
