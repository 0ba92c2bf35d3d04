/**
 * The tourism data set: its types, loading and checking a file, the attraction
 * categories and the data set in each language. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export {
  ATTRACTION_CATEGORIES,
  WHEELCHAIR_ACCESS,
  type WheelchairAccess,
} from "./attraction_categories.ts";
export {
  type Attraction,
  DataError,
  DEFAULT_DATA_PATH,
  ensureCheckedData,
  type LatLng,
  type LoadedData,
  loadTourismData,
  type PrivacyContact,
  type Provider,
  type RawTourismData,
  type TourismData,
} from "./tourism_data.ts";
export {
  getFallbackLang,
  listMissingTranslations,
  localizeData,
} from "./translations.ts";
