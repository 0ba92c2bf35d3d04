/**
 * The schema of the tourism data set file (`TOURISM_DATA`), in zod, and
 * what its issues say. Imported only when a data set has to be validated:
 * a start whose file `deno task build` already validated (see
 * `CHECKED_DATA_DIR` in tourism_data.ts) never builds these schemas.
 */
import { z } from "zod";
import { t } from "@/lib/i18n/catalogue.ts";
import { TRANSLATABLE } from "./translations.ts";
import { withTranslations } from "./translations_schema.ts";
import { normalizeGuideCode } from "./guide_code.ts";
import {
  ATTRACTION_CATEGORIES,
  WHEELCHAIR_ACCESS,
} from "./attraction_categories.ts";
import { checkOpeningHours } from "@/lib/hours/opening_hours.ts";
import {
  type EventRecurrence,
  FREQUENCIES,
  getWeekdayName,
  isRecurrenceDay,
  MAX_WEEK_OF_MONTH,
  WEEKDAYS,
} from "./event_recurrence.ts";
import { addDays, isClockTime } from "@/lib/calendar/mod.ts";
import {
  CHECK_IN_METHODS,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
} from "@/lib/check_in/names.ts";

const slug = z.string().regex(
  /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
  "must be a kebab-case slug",
);
const text = z.string().trim().min(1);
const isoDate = z.iso.date();
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a #RRGGBB colour");
const latLng = z.strictObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
/** A time of day on the municipality's clock, `HH:MM` (24 hours). */
const clockTime = z.string().refine(
  isClockTime,
  'must be a time "HH:MM" on a 24-hour clock, from "00:00" to "23:59"',
);
const weekday = z.enum(WEEKDAYS);
/**
 * How an event comes back (docs/STAFF.md, "Events"): its first occurrence
 * is `startDate` (to `endDate`); which fields go with which frequency is
 * checked with the event (`checkEventWhen`).
 */
const recurrenceSchema = z.strictObject({
  frequency: z.enum(FREQUENCIES),
  weekdays: z.array(weekday).min(1).max(7).optional(),
  monthDay: z.number().int().min(1).max(31).optional(),
  week: z.number().int().min(1).max(MAX_WEEK_OF_MONTH).optional(),
  weekday: weekday.optional(),
  until: isoDate.optional(),
});
const money = z.strictObject({
  amount: z.number().min(0),
  currency: z.literal("MXN"),
});

/**
 * Opening hours in OpenStreetMap's `opening_hours` syntax
 * (`Mo-Fr 09:00-18:00; PH off`, `24/7`), checked by the library that
 * evaluates them: what it cannot read is refused with where it stopped.
 */
const openingHours = z.string().trim().min(1).superRefine((value, ctx) => {
  const problem = checkOpeningHours(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/**
 * Photos of the library (`/panel/fotos`), by id, in the order shown; an id
 * the library does not hold shows nothing.
 */
const photoIds = z.array(
  z.string().regex(/^[0-9a-f]{32}$/, "must be a photo id"),
).max(12)
  .optional();

const attractionSchema = withTranslations(
  z.strictObject({
    slug,
    name: text,
    category: z.enum(ATTRACTION_CATEGORIES),
    summary: text.max(160),
    description: text,
    location: latLng,
    address: text,
    cost: z.strictObject({
      adult: money,
      child: money.optional(),
      notes: text.optional(),
    }),
    openingHours: openingHours.optional(),
    /** A note on the hours, as a visitor reads it ("last descent at 14:00"). */
    schedule: text.optional(),
    durationMinutes: z.number().int().positive(),
    /** OpenStreetMap's `wheelchair` tag: the whole place, by wheelchair. */
    wheelchair: z.enum(WHEELCHAIR_ACCESS).optional(),
    /** An entrance with no step (OSM `entrance` with `wheelchair=yes`, no `step_count`). */
    stepFreeEntrance: z.boolean().optional(),
    /** A toilet a wheelchair user can use (OSM `toilets:wheelchair`). */
    accessibleToilet: z.boolean().optional(),
    /** What else a visitor with reduced mobility should know. */
    accessibility: text.optional(),
    tips: z.array(text).optional(),
    guideCode: z.string().regex(
      /^[A-Za-z0-9]{4,16}$/,
      "must be 4 to 16 letters or digits",
    ),
    /** How a visit is checked in here; absent: by guide code, 150 m radius. */
    checkIn: z.strictObject({
      method: z.enum(CHECK_IN_METHODS),
      radiusM: z.number().int().min(MIN_CHECK_IN_RADIUS_M).max(
        MAX_CHECK_IN_RADIUS_M,
      ).optional(),
    }).optional(),
    photos: photoIds,
  }),
  TRANSLATABLE.attractions.fields,
);

const providerSchema = withTranslations(
  z.strictObject({
    slug,
    name: text,
    photos: photoIds,
    type: z.enum(["hotel", "restaurante", "guia"]),
    description: text,
    location: latLng,
    address: text,
    contact: z.strictObject({
      phone: text,
      email: z.email().optional(),
      website: z.url().optional(),
      whatsapp: text.optional(),
    }),
    priceRange: z.enum(["$", "$$", "$$$"]),
    openingHours: openingHours.optional(),
    /** A note on the hours or tour times, as a visitor reads it. */
    schedule: text.optional(),
    languages: z.array(text).optional(),
  }),
  TRANSLATABLE.providers.fields,
);

/**
 * Who answers for the visitors' personal data, for the privacy notice
 * (`/aviso-de-privacidad`): the office that handles it and the municipal
 * transparency unit that receives requests to see, correct or erase it.
 */
const privacySchema = withTranslations(
  z.strictObject({
    /** The office responsible, e.g. "Dirección de Turismo del H. Ayuntamiento de ...". */
    office: text,
    /** The office's address (domicilio del responsable). */
    address: text,
    /** The laws the notice rests on, general first. */
    laws: z.array(text).min(1),
    /** Where privacy requests go: address, e-mail and phone are all required. */
    transparencyUnit: z.strictObject({
      name: text,
      address: text,
      email: z.email(),
      phone: text,
      /** Office hours, as a visitor reads them. */
      hours: text.optional(),
    }),
    /** The notice's last update. */
    updated: isoDate,
  }),
  TRANSLATABLE.privacy.fields,
);

/** The schema of the tourism data set file (`TOURISM_DATA`). */
export const tourismDataSchema = z.strictObject({
  meta: withTranslations(
    z.strictObject({ demo: z.boolean(), notice: text, updated: isoDate }),
    TRANSLATABLE.meta.fields,
  ),
  municipality: withTranslations(
    z.strictObject({
      name: text,
      state: text,
      country: text,
      timeZone: text.refine(isTimeZone, "must be an IANA time zone"),
      center: latLng,
      description: text,
    }),
    TRANSLATABLE.municipality.fields,
  ),
  privacy: privacySchema,
  branding: withTranslations(
    z.strictObject({
      name: text,
      tagline: text,
      colors: z.strictObject({
        primary: color,
        secondary: color,
        accent: color,
        background: color,
        text: color,
      }),
      logoSvg: z.string().regex(/^\s*<svg[\s>]/, "must be inline SVG markup")
        .refine(
          (svg) =>
            !/<script|\son\w+\s*=|href\s*=\s*["']\s*(?:https?:|javascript:)/i
              .test(svg),
          "must not contain scripts, event handlers or external references",
        ),
    }),
    TRANSLATABLE.branding.fields,
  ),
  attractions: z.array(attractionSchema).min(1),
  routes: z.array(withTranslations(
    z.strictObject({
      slug,
      name: text,
      description: text,
      durationHours: z.number().positive(),
      difficulty: z.enum(["baja", "media", "alta"]),
      distanceKm: z.number().min(0),
      attractions: z.array(slug).min(1),
      photos: photoIds,
    }),
    TRANSLATABLE.routes.fields,
  )),
  packages: z.array(withTranslations(
    z.strictObject({
      slug,
      name: text,
      description: text,
      price: money,
      per: z.enum(["persona", "grupo"]),
      durationDays: z.number().positive(),
      includes: z.array(text),
      availability: text,
      provider: slug.optional(),
    }),
    TRANSLATABLE.packages.fields,
  )),
  events: z.array(withTranslations(
    z.strictObject({
      slug,
      name: text,
      description: text,
      startDate: isoDate,
      endDate: isoDate,
      /** On the municipality's clock; both or neither (an all-day event). */
      startTime: clockTime.optional(),
      endTime: clockTime.optional(),
      recurrence: recurrenceSchema.optional(),
      place: text,
      attraction: slug.optional(),
      photos: photoIds,
    }),
    TRANSLATABLE.events.fields,
  )),
  providers: z.array(providerSchema),
  directions: z.array(withTranslations(
    z.strictObject({
      fromCity: text,
      distanceKm: z.number().positive(),
      byCar: text,
      byBus: text,
      durationHours: z.number().positive(),
      origin: latLng,
    }),
    TRANSLATABLE.directions.fields,
  )).min(4),
  weather: withTranslations(
    z.strictObject({
      climate: text,
      bestSeason: text,
      seasons: z.array(z.strictObject({
        months: text,
        description: text,
        avgTempC: z.strictObject({ min: z.number(), max: z.number() }),
      })),
      packing: z.array(text),
    }),
    TRANSLATABLE.weather.fields,
  ),
  gastronomy: z.array(withTranslations(
    z.strictObject({
      dish: text,
      description: text,
      whereToTry: slug.optional(),
    }),
    TRANSLATABLE.gastronomy.fields,
  )),
  culture: withTranslations(
    z.strictObject({
      history: text,
      traditions: z.array(text),
      etiquette: z.array(text),
    }),
    TRANSLATABLE.culture.fields,
  ),
  emergency: z.array(
    withTranslations(
      z.strictObject({ name: text, phone: text, notes: text.optional() }),
      TRANSLATABLE.emergency.fields,
    ),
  ).min(1),
}).superRefine(checkReferences);

/** The data set as the file holds it, guide codes included. */
export type RawTourismData = z.infer<typeof tourismDataSchema>;
export type LatLng = z.infer<typeof latLng>;

/**
 * Validates a parsed data set: its data, or one line per problem (at most
 * 20), each naming its path.
 */
export function validateTourismData(
  raw: unknown,
): { data: RawTourismData } | { problems: string[] } {
  // Parsed once per version: zod's compiled fast path (generated code for
  // every object schema, ~9 ms at a start) would cost more than it saves.
  const result = tourismDataSchema.safeParse(raw, { jitless: true });
  if (result.success) return { data: result.data };
  return { problems: result.error.issues.flatMap(describeIssue).slice(0, 20) };
}

function checkReferences(data: RawTourismData, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  const attractionSlugs = new Set<string>();
  const guideCodes = new Map<string, number>();
  data.attractions.forEach((attraction, i) => {
    if (attractionSlugs.has(attraction.slug)) {
      issue(["attractions", i, "slug"], `duplicate slug "${attraction.slug}"`);
    }
    attractionSlugs.add(attraction.slug);
    const code = normalizeGuideCode(attraction.guideCode);
    const first = guideCodes.get(code);
    if (first !== undefined) {
      // Both named, never the code: logs are no place for a guide code.
      const other = data.attractions[first];
      issue(
        ["attractions", i, "guideCode"],
        `duplicate guide code: "${attraction.name}" (${attraction.slug}) has the code of attractions[${first}], "${other.name}" (${other.slug}); two attractions cannot share a code`,
      );
    }
    if (first === undefined) guideCodes.set(code, i);
  });
  const providerSlugs = new Set<string>();
  data.providers.forEach((provider, i) => {
    if (providerSlugs.has(provider.slug)) {
      issue(["providers", i, "slug"], `duplicate slug "${provider.slug}"`);
    }
    providerSlugs.add(provider.slug);
  });
  data.routes.forEach((route, i) =>
    route.attractions.forEach((slug, j) => {
      if (!attractionSlugs.has(slug)) {
        issue(["routes", i, "attractions", j], `unknown attraction "${slug}"`);
      }
    })
  );
  data.packages.forEach((pkg, i) => {
    if (pkg.provider && !providerSlugs.has(pkg.provider)) {
      issue(["packages", i, "provider"], `unknown provider "${pkg.provider}"`);
    }
  });
  data.events.forEach((event, i) => {
    if (event.attraction && !attractionSlugs.has(event.attraction)) {
      issue(
        ["events", i, "attraction"],
        `unknown attraction "${event.attraction}"`,
      );
    }
    checkEventWhen(
      event,
      (field, message) => issue(["events", i, ...field], message),
    );
  });
  data.gastronomy.forEach((dish, i) => {
    if (dish.whereToTry && !providerSlugs.has(dish.whereToTry)) {
      issue(
        ["gastronomy", i, "whereToTry"],
        `unknown provider "${dish.whereToTry}"`,
      );
    }
  });
}

/**
 * An event's dates, times and recurrence: each problem with the field it
 * is on, said so that the office can fix it from the message alone.
 */
function checkEventWhen(
  event: RawTourismData["events"][number],
  issue: (field: (string | number)[], message: string) => void,
): void {
  const { startDate, endDate, startTime, endTime, recurrence } = event;
  if (endDate < startDate) {
    issue(["endDate"], "must not be before startDate");
    return;
  }
  if ((startTime === undefined) !== (endTime === undefined)) {
    issue(
      [startTime === undefined ? "startTime" : "endTime"],
      "required with " + (startTime === undefined ? "endTime" : "startTime") +
        ": give both times, or neither for an all-day event",
    );
  } else if (
    startTime !== undefined && endTime !== undefined &&
    endDate === startDate && endTime <= startTime
  ) {
    issue(
      ["endTime"],
      `must be after startTime (${startTime}) on the same day; an event that goes past midnight ends on the next day (endDate)`,
    );
  }
  if (recurrence) checkRecurrence(event, recurrence, issue);
}

const ORDINALS = ["", "first", "second", "third", "fourth"];

function checkRecurrence(
  { startDate, endDate }: RawTourismData["events"][number],
  recurrence: EventRecurrence,
  issue: (field: (string | number)[], message: string) => void,
): void {
  const at = (field: string) => ["recurrence", field];
  const { frequency, weekdays, monthDay, week, weekday, until } = recurrence;
  if (endDate > addDays(startDate, 1)) {
    issue(
      ["endDate"],
      "a recurring event's endDate is the last day of its first occurrence: the same day as startDate, or the next day for one that goes past midnight",
    );
  }
  if (until !== undefined && until < startDate) {
    issue(at("until"), "must not be before startDate");
  }
  if (frequency !== "weekly" && weekdays) {
    issue(at("weekdays"), "only for a weekly recurrence");
  }
  for (const field of ["monthDay", "week", "weekday"] as const) {
    if (frequency !== "monthly" && recurrence[field] !== undefined) {
      issue(at(field), "only for a monthly recurrence");
    }
  }
  if (frequency === "weekly") {
    if (!weekdays) {
      issue(
        at("weekdays"),
        'required for a weekly recurrence, e.g. ["saturday"]',
      );
      return;
    }
    if (new Set(weekdays).size !== weekdays.length) {
      issue(at("weekdays"), "names a day twice");
    }
  }
  if (frequency === "monthly") {
    const byWeek = week !== undefined || weekday !== undefined;
    if (monthDay !== undefined && byWeek) {
      issue(
        at("monthDay"),
        "give either monthDay (a day of the month) or week and weekday (e.g. the first sunday), not both",
      );
      return;
    }
    if (monthDay === undefined && !byWeek) {
      issue(
        at("monthDay"),
        "required for a monthly recurrence: monthDay (a day of the month), or week and weekday (e.g. the first sunday)",
      );
      return;
    }
    if (byWeek && (week === undefined || weekday === undefined)) {
      issue(
        at(week === undefined ? "week" : "weekday"),
        "week and weekday go together (e.g. week 1 and sunday: the first sunday of each month)",
      );
      return;
    }
  }
  // The first occurrence is the event's own dates: they must follow the rule.
  if (!isRecurrenceDay(recurrence, startDate)) {
    const rule = frequency === "weekly"
      ? `a weekly recurrence on ${weekdays!.join(", ")}`
      : monthDay !== undefined
      ? `day ${monthDay} of each month`
      : `the ${ORDINALS[week!]} ${weekday} of each month`;
    issue(
      ["startDate"],
      `${startDate} is a ${
        getWeekdayName(startDate)
      } and does not follow the recurrence (${rule}): startDate is the first occurrence`,
    );
  }
}

/**
 * Whether Intl knows the zone. Canonical names are looked up in the list
 * first: building a formatter loads ICU's zone data (about 11 ms), which a
 * start that answers no date yet need not pay; aliases go to the formatter.
 */
function isTimeZone(timeZone: string): boolean {
  if (Intl.supportedValuesOf("timeZone").includes(timeZone)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * One line per problem, each naming its path: an unknown field by its own
 * path (`attractions[2].i18n.en.descripton`), a bad record key (an overlay's
 * language tag) with the reason rather than zod's generic "Invalid key".
 */
function describeIssue(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") {
    const message = issue.message.startsWith("Unrecognized key")
      ? "unknown field"
      : issue.message;
    return issue.keys.map((key) =>
      `${formatPath([...issue.path, key])}: ${message}`
    );
  }
  if (issue.code === "invalid_key" && issue.issues.length > 0) {
    const reasons = issue.issues.map((inner) => inner.message).join("; ");
    return [`${formatPath(issue.path)}: invalid key: ${reasons}`];
  }
  return [`${formatPath(issue.path)}: ${issue.message}`];
}

function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === "number"
        ? `${out}[${part}]`
        : out
        ? `${out}.${String(part)}`
        : String(part),
    "",
  ) || "(root)";
}

/** A problem of a data set, by path, in the editor's words. */
export interface DataSetIssue {
  path: PropertyKey[];
  message: string;
}

/** The schema's own messages, by the catalogue key (`panel_content.schema.*`) the editor says them with. */
const MESSAGE_KEYS: [
  RegExp,
  string,
  (m: RegExpExecArray) => Record<string, string>,
][] = [
  [/recibido (indefinido|undefined)$/, "required", () => ({})],
  [/^must be a kebab-case slug$/, "slug", () => ({})],
  [/^must be a #RRGGBB colour$/, "color", () => ({})],
  [/^must be a photo id$/, "photo", () => ({})],
  [/^must be 4 to 16 letters or digits$/, "code", () => ({})],
  [/^must be an IANA time zone$/, "timeZone", () => ({})],
  [/^must be inline SVG markup$/, "svg", () => ({})],
  [/^must not contain scripts/, "svgScript", () => ({})],
  [/^must not be before \w+$/, "before", () => ({})],
  [
    /^unknown (?:attraction|provider) "(.+)"$/,
    "unknownRef",
    (m) => ({ name: m[1] }),
  ],
  [/^duplicate slug "(.+)"$/, "duplicate", (m) => ({ slug: m[1] })],
];

/**
 * Every problem of `raw` with its path, in `lang`: zod's own messages in
 * its locale for that language, the schema's from the catalogue. What the
 * editor shows beside each field.
 */
export function listDataSetIssues(
  raw: unknown,
  lang: "es" | "en" = "es",
): DataSetIssue[] {
  const result = tourismDataSchema.safeParse(raw, {
    jitless: true,
    error: z.locales[lang]().localeError,
  });
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => {
    const paths = issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => [...issue.path, key])
      : [issue.path];
    let message = issue.code === "unrecognized_keys"
      ? t(lang, "panel_content.schema.unknownField")
      : issue.message;
    for (const [pattern, key, values] of MESSAGE_KEYS) {
      const match = pattern.exec(message);
      if (match) {
        message = t(lang, `panel_content.schema.${key}`, values(match));
        break;
      }
    }
    return paths.map((path) => ({ path, message }));
  });
}
