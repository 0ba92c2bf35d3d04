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
