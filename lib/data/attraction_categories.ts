/**
 * The attraction categories a data set may use, in the order the
 * attraction list's filters show them. Its own module: the data set's
 * schema and the pages both read it, and the pages never load the schema.
 */
export const ATTRACTION_CATEGORIES = [
  "museo",
  "naturaleza",
  "historia",
  "gastronomia",
  "arquitectura",
  "aventura",
  "cultura",
] as const;

/**
 * OpenStreetMap's values of `wheelchair`: "yes" (every part a visitor uses),
 * "limited" (some parts, or with help), "no".
 */
export const WHEELCHAIR_ACCESS = ["yes", "limited", "no"] as const;
export type WheelchairAccess = typeof WHEELCHAIR_ACCESS[number];
