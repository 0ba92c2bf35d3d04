/**
 * The data set in several languages. Spanish is the data set's own text and
 * the default language; every other language is an overlay beside the
 * Spanish fields of an object:
 *
 * ```json
 * { "slug": "volcan-de-tequila", "name": "Volcán de Tequila", "tips": ["…"],
 *   "i18n": { "en": { "name": "Tequila Volcano", "tips": ["…"] } } }
 * ```
 *
 * An overlay holds only the fields that {@linkcode TRANSLATABLE} names for
 * that part, in the same shapes: objects merge field by field, arrays of
 * objects element by element by index (`weather.seasons[i]`), and arrays of
 * strings are replaced whole. Slugs, numbers, coordinates, codes, currencies,
 * URLs, phones and e-mails are never translated, and enums (`category`,
 * `per`, `difficulty`, `type`) are codes that pages label from their message
 * catalogue. A third language is one more key (`"fr": {…}`) in the same
 * overlays: no code here changes.
 *
 * This module knows the table and reads overlays, without zod (pages and
 * cards localize at start); translations_schema.ts validates overlays, and
 * `tourism_data_schema.ts` builds its schema with it, so the arrows point
 * one way.
 *
 * @module
 */
/** The language of the data set's own fields, the base every overlay translates. */
export const BASE_LANG = "es";

/**
 * How a field is translated:
 * - `"text"`: prose a visitor reads; a language without it shows the Spanish,
 *   recorded as a fallback and listed as missing.
 * - `"name"`: names and postal addresses; translated where the language has its
 *   own form ("Mexico City"), otherwise the same in every language, so a
 *   missing one is neither a fallback nor missing.
 * - `"list"`: an array of strings (tips, includes, packing), replaced whole;
 *   missing like `"text"` when the Spanish list is not empty.
 */
export type FieldKind = "text" | "name" | "list";

/**
 * The translatable fields of one object: a kind, the fields of a nested object,
 * or `[fields]` for an array of objects merged element by element by index.
 */
export interface TranslatableFields {
  readonly [field: string]:
    | FieldKind
    | TranslatableFields
    | readonly [TranslatableFields];
}

/**
 * One part of the data set. `key` marks a list part and names the field that
 * identifies an element in readable paths (`attractions[volcan-de-tequila]`).
 */
export interface TranslatablePart {
  readonly fields: TranslatableFields;
  readonly key?: string;
}

/**
 * The one table of what is translatable, per part of the data set. Overlays
 * sit on each object of a part (each attraction, the `weather` object...), and
 * the schema refuses any other field in them.
 */
export const TRANSLATABLE = {
  meta: { fields: { notice: "text" } },
  municipality: { fields: { country: "name", description: "text" } },
  branding: { fields: { name: "name", tagline: "text" } },
  privacy: {
    fields: {
      office: "text",
      address: "name",
      laws: "list",
      transparencyUnit: { name: "text", address: "name", hours: "text" },
    },
  },
  attractions: {
    key: "slug",
    fields: {
      name: "name",
      summary: "text",
      description: "text",
      address: "name",
      cost: { notes: "text" },
      schedule: "text",
      accessibility: "text",
      tips: "list",
    },
  },
  routes: { key: "slug", fields: { name: "text", description: "text" } },
  packages: {
    key: "slug",
    fields: {
      name: "text",
      description: "text",
      includes: "list",
      availability: "text",
    },
  },
  events: {
    key: "slug",
    fields: { name: "text", description: "text", place: "text" },
  },
  providers: {
    key: "slug",
    fields: {
      name: "name",
      description: "text",
      address: "name",
      schedule: "text",
      languages: "list",
    },
  },
  directions: {
    key: "fromCity",
    fields: { fromCity: "name", byCar: "text", byBus: "text" },
  },
  weather: {
    fields: {
      climate: "text",
      bestSeason: "text",
      seasons: [{ months: "text", description: "text" }],
      packing: "list",
    },
  },
  gastronomy: { key: "dish", fields: { dish: "name", description: "text" } },
  culture: {
    fields: { history: "text", traditions: "list", etiquette: "list" },
  },
  emergency: { key: "phone", fields: { name: "text", notes: "text" } },
} as const satisfies Record<string, TranslatablePart>;

/** An overlay: some of the fields `F` names, translated, in the same shapes. */
export type Overlay<F> = {
  -readonly [K in keyof F]?: F[K] extends "list" ? string[]
    : F[K] extends FieldKind ? string
    : F[K] extends readonly [infer E] ? Overlay<E>[]
    : Overlay<F[K]>;
};

/** An object's overlays by language tag (`en`, `fr`...): the `i18n` field. */
export type Translations<F> = Record<string, Overlay<F>>;

/** A text of the data set with no translation in a language. */
export interface MissingTranslation {
  /** The language tag it is missing in. */
  lang: string;
  /** A readable path: `attractions[volcan-de-tequila].tips`, `weather.seasons[2].description`. */
  path: string;
}

/** A BCP 47 primary language subtag: `en`, `fr`, `nah`. */
export const PRIMARY_LANGUAGE_TAG = /^[a-z]{2,3}$/;

/**
 * The languages the data set covers: Spanish first, then every language tag
 * found in its overlays, sorted.
 */
export function listDataLanguages(data: object): string[] {
  const found = new Set<string>();
  forEachPartObject(data, (object) => {
    const i18n = (object as { i18n?: object }).i18n;
    if (i18n) Object.keys(i18n).forEach((lang) => found.add(lang));
  });
  found.delete(BASE_LANG);
  return [BASE_LANG, ...[...found].sort()];
}

/**
 * The data set as seen in `lang`: a new object graph with every `lang` overlay
 * merged over the Spanish fields and no `i18n` fields left; untranslated
 * parts are shared with `data`, so treat both as read-only. A `"text"` or
 * `"list"` field without a translation keeps its Spanish value and is
 * recorded for {@linkcode getFallbackLang}. Spanish returns `data` itself.
 * Cached per data object (each loaded version is a new one) and language, so
 * `lang` must come from the site's own list of languages, never straight
 * from a request; a string that is not a primary language tag throws.
 */
export function localizeData<T extends object>(data: T, lang: string): T {
  return lang === BASE_LANG ? data : getLocalized(data, lang).data as T;
}

/**
 * `"es"` when `field` of an object returned by {@linkcode localizeData} has
 * no translation and shows the Spanish text, so a page can mark it
 * (`lang="es"` and a visible note); `undefined` when it is translated, is a
 * name kept as is, or `object` is not localized.
 */
export function getFallbackLang(
  object: object,
  field: string,
): typeof BASE_LANG | undefined {
  return fallbacks.get(object)?.has(field) ? BASE_LANG : undefined;
}

/**
 * Every `"text"` and `"list"` field of the data set with no translation in
 * each of `languages` (Spanish is skipped: it is the base), with readable
 * paths named by slug or another stable field where a part has one.
 */
export function listMissingTranslations(
  data: object,
  languages: readonly string[],
): MissingTranslation[] {
  return languages.filter((lang) => lang !== BASE_LANG).flatMap((lang) =>
    getLocalized(data, lang).missing.map((path) => ({ lang, path }))
  );
}

interface Localized {
  data: object;
  /** Readable paths of the fields that fell back to Spanish. */
  missing: string[];
}

type Json = Record<string, unknown>;

/**
 * Derived views, keyed weakly by the (never mutated) objects they derive from,
 * so they live exactly as long as a loaded data version: module-level on
 * purpose, with nothing to open or close.
 */
const localizedByData = new WeakMap<object, Map<string, Localized>>();
/** Localized object → its fields that show the Spanish text. */
const fallbacks = new WeakMap<object, Set<string>>();

function getLocalized(data: object, lang: string): Localized {
  if (!PRIMARY_LANGUAGE_TAG.test(lang)) {
    throw new RangeError(`not a primary language tag: ${JSON.stringify(lang)}`);
  }
  let byLang = localizedByData.get(data);
  if (!byLang) localizedByData.set(data, byLang = new Map());
  let localized = byLang.get(lang);
  if (!localized) byLang.set(lang, localized = localizeAll(data, lang));
  return localized;
}

function localizeAll(data: object, lang: string): Localized {
  const missing: string[] = [];
  const result: Json = { ...data };
  for (const [part, { fields, key }] of partEntries()) {
    const value = (data as Json)[part];
    if (Array.isArray(value)) {
      result[part] = value.map((element: Json, i) => {
        const id = key && typeof element[key] === "string" ? element[key] : i;
        return localizeObject(element, fields, overlayOf(element, lang), {
          path: `${part}[${id}]`,
          missing,
        });
      });
    } else if (isObject(value)) {
      result[part] = localizeObject(value, fields, overlayOf(value, lang), {
        path: part,
        missing,
      });
    }
  }
  return { data: result, missing };
}

function localizeObject(
  base: Json,
  fields: TranslatableFields,
  overlay: Json | undefined,
  at: { path: string; missing: string[] },
): Json {
  const { i18n: _, ...result } = base;
  const fellBack = new Set<string>();
  for (const [field, kind] of Object.entries(fields)) {
    const value = base[field];
    const translated = overlay?.[field];
    const path = `${at.path}.${field}`;
    if (value === undefined) continue;
    if (isArrayOfFields(kind)) {
      const overlays = Array.isArray(translated) ? translated : [];
      result[field] = (value as Json[]).map((element, i) =>
        localizeObject(element, kind[0], overlays[i], {
          ...at,
          path: `${path}[${i}]`,
        })
      );
    } else if (typeof kind === "object") {
      result[field] = localizeObject(
        value as Json,
        kind,
        translated as Json | undefined,
        { ...at, path },
      );
    } else if (translated !== undefined) {
      result[field] = Array.isArray(translated) ? [...translated] : translated;
    } else if (
      kind === "text" || (kind === "list" && (value as unknown[]).length > 0)
    ) {
      fellBack.add(field);
      at.missing.push(path);
    }
  }
  if (fellBack.size > 0) fallbacks.set(result, fellBack);
  return result;
}

function forEachPartObject(data: object, visit: (object: object) => void) {
  for (const [part] of partEntries()) {
    const value = (data as Json)[part];
    if (Array.isArray(value)) value.filter(isObject).forEach(visit);
    else if (isObject(value)) visit(value);
  }
}

function partEntries(): [string, TranslatablePart][] {
  return Object.entries(TRANSLATABLE);
}

function overlayOf(object: Json, lang: string): Json | undefined {
  const overlay = (object.i18n as Json | undefined)?.[lang];
  return isObject(overlay) ? overlay : undefined;
}

/** Whether a table entry is `[fields]`, an array of objects. */
export function isArrayOfFields(
  kind: TranslatableFields[string],
): kind is readonly [TranslatableFields] {
  return Array.isArray(kind);
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
