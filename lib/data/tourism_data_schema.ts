/**
 * The schema of the tourism data set file (`TOURISM_DATA`), in zod, and
 * what its issues say. Imported only when a data set has to be validated:
 * a start whose file `deno task build` already validated (see
 * `CHECKED_DATA_DIR` in tourism_data.ts) never builds these schemas.
 */
import { z } from "zod";
import { TRANSLATABLE, withTranslations } from "./translations.ts";
import { normalizeGuideCode } from "./guide_code.ts";
import {
  ATTRACTION_CATEGORIES,
  WHEELCHAIR_ACCESS,
} from "./attraction_categories.ts";
import { checkOpeningHours } from "@/lib/hours/opening_hours.ts";
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
    if (event.endDate < event.startDate) {
      issue(["events", i, "endDate"], "must not be before startDate");
    }
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
