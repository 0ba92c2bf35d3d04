import type {
  Attraction,
  LatLng,
  TourismData,
} from "@/lib/data/tourism_data.ts";
import {
  findNearest,
  formatKm,
  formatLatLng,
  getDirectionsUrl,
} from "@/lib/geo/geo.ts";
import { formatMoney } from "@/lib/format/format.ts";
import {
  addDays,
  getLocalDate,
  getLocalMidnightMs,
} from "@/lib/calendar/mod.ts";
import {
  describePlaceHours,
  describeWeek,
  formatHoursLine,
  getDaysHours,
  getHoursPlace,
} from "@/lib/hours/mod.ts";
import { getUpcomingEvents } from "@/lib/events/upcoming.ts";
import { describeRecurrence } from "@/lib/events/when.ts";
import {
  DEFAULT_LANG,
  getLangMeta,
  type Lang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";
import { localizePath } from "@/lib/i18n/paths.ts";
import { orderProviders } from "@/lib/services/order.ts";
import type { ChatInput } from "./input.ts";
import type { ModelMessage } from "./model.ts";
import { NO_DATA_MARKER } from "./no_data_marker.ts";

/** How many nearest attractions and providers the location block lists. */
export const NEAREST_ATTRACTIONS = 8;
export const NEAREST_PROVIDERS = 6;

/** The Google Maps link the prompt shows the model, to fill in. */
const MAPS_PATTERN =
  "https://www.google.com/maps/dir/?api=1&destination=LAT,LNG";

/** `assistant.<key>` in `lang`: the prompt's wording (locales/<lang>/assistant.json). */
function say(lang: Lang, key: string, values?: MessageValues): string {
  return t(lang, `assistant.${key}`, values);
}

/**
 * The stable system prompt: who the assistant is, its reply rules and the
 * whole public data set, in a compact line-per-item form (it is sent with
 * every request), in `lang`: its wording from the `assistant` catalogue, and
 * `data` as seen in that language (pass `localizeData(data, lang)`: the
 * {@linkcode PromptCache} does), its links to that language's pages. It
 * depends on the data set, the language and the municipality's day only
 * (providers are listed in the day's order, {@linkcode orderProviders}, as
 * the services directory shows them, and only the events not over that
 * day, {@linkcode getUpcomingEvents}), so it is byte-identical across a
 * day's requests and a provider's prompt cache can reuse it. It is built
 * from {@linkcode TourismData}, which has no guide codes.
 */
export function buildStablePrompt(
  data: TourismData,
  now: Date,
  lang: Lang = DEFAULT_LANG,
): string {
  const m = data.municipality;
  const place = `${m.name}, ${m.state}`;
  const lines: string[] = [];
  const add = (...more: string[]) => lines.push(...more);
  const page = (path: string) => localizePath(lang, path);
  const free = say(lang, "prompt.free");
  const money = (price: { amount: number; currency: string }) =>
    formatMoney(price, free, lang);
  // The hours of the 7 days from today, holidays included, in words: the
  // prompt is built once per day (PromptCache), so they hold all day.
  const hours = (openingHours?: string, note?: string) =>
    [
      openingHours && describeWeek(
        getDaysHours(openingHours, {
          now: now.getTime(),
          timeZone: m.timeZone,
          place: getHoursPlace(m),
        }),
        lang,
      ),
      note,
    ].filter(Boolean).join(". ");

  add(
    say(lang, "prompt.intro", {
      brand: data.branding.name,
      place,
      country: m.country,
    }),
    "",
    say(lang, "prompt.rules"),
    say(lang, "prompt.ruleLanguage"),
    say(lang, "prompt.ruleTopic", { municipality: m.name }),
    say(lang, "prompt.ruleData"),
    say(lang, "prompt.ruleHours"),
    say(lang, "prompt.ruleNoData", { marker: NO_DATA_MARKER }),
    say(lang, "prompt.ruleBold"),
    say(lang, "prompt.ruleLinks", {
      pattern: `${page("/turismo/atractivos")}/<slug>`,
    }),
    say(lang, "prompt.ruleMaps", { mapsUrl: MAPS_PATTERN }),
    say(lang, "prompt.ruleLists"),
    say(lang, "prompt.ruleEmoji"),
    say(lang, "prompt.ruleEmergency"),
    say(lang, "prompt.ruleSecret"),
    `- ${data.meta.notice}`,
    "",
    `## ${m.name}`,
    m.description,
    "",
    say(lang, "prompt.attractions"),
    say(lang, "prompt.attractionsFormat"),
  );
  for (const a of data.attractions) {
    const cost = [
      say(lang, "prompt.costAdults", { price: money(a.cost.adult) }),
      a.cost.child &&
      say(lang, "prompt.costChildren", { price: money(a.cost.child) }),
      a.cost.notes,
    ].filter(Boolean).join(", ");
    add(
      [
        `- **${a.name}** (${
          say(lang, "prompt.category", { category: a.category })
        })`,
        page(`/turismo/atractivos/${a.slug}`),
        formatLatLng(a.location),
        a.address,
        cost,
        hours(a.openingHours, a.schedule),
        `${a.durationMinutes} min`,
        describeAccess(a, lang),
        a.tips?.join(" ") ?? "",
        a.description,
      ].join(" | "),
    );
  }

  add("", say(lang, "prompt.routes"), say(lang, "prompt.routesFormat"));
  for (const r of data.routes) {
    add(
      [
        `- **${r.name}**`,
        `${r.durationHours} h`,
        say(lang, "prompt.difficulty", { difficulty: r.difficulty }),
        `${r.distanceKm} km`,
        r.attractions.join(", "),
        r.description,
      ].join(" | "),
    );
  }

  add("", say(lang, "prompt.packages"), say(lang, "prompt.packagesFormat"));
  for (const p of data.packages) {
    add(
      [
        `- **${p.name}**`,
        say(lang, "prompt.pricePer", { price: money(p.price), per: p.per }),
        say(lang, "prompt.days", { days: p.durationDays }),
        p.includes.join("; "),
        p.availability,
        p.provider ?? "",
        p.description,
      ].join(" | "),
    );
  }

  add("", say(lang, "prompt.events"), say(lang, "prompt.eventsFormat"));
  // Listed as at the day's start, so that the prompt stays the same all
  // day: an event that ends at 13:00 stays in it until midnight, with its
  // times for the model to read (the per-request context says what is on).
  const dayStart = new Date(
    getLocalMidnightMs(getLocalDate(now, m.timeZone), m.timeZone),
  );
  for (
    const { event: e, next } of getUpcomingEvents(data.events, {
      now: dayStart,
      timeZone: m.timeZone,
    })
  ) {
    const times = e.startTime && e.endTime
      ? ` ${e.startTime}–${e.endTime}`
      : "";
    const dates = e.recurrence
      ? [
        `${describeRecurrence(e.recurrence, lang)}${times}`,
        t(lang, "format.eventNext", { ongoing: "no", date: next.startDate }),
        ...(e.recurrence.until
          ? [t(lang, "format.eventUntil", { date: e.recurrence.until })]
          : []),
      ].join(", ")
      : e.startDate === e.endDate
      ? `${e.startDate}${times}`
      : say(lang, "prompt.dateSpan", {
        start: `${e.startDate}${e.startTime ? ` ${e.startTime}` : ""}`,
        end: `${e.endDate}${e.endTime ? ` ${e.endTime}` : ""}`,
      });
    add([`- **${e.name}**`, dates, e.place, e.description].join(" | "));
  }

  add(
    "",
    say(lang, "prompt.providers"),
    say(lang, "prompt.providersOrder", {
      directory: page("/turismo/servicios"),
    }),
    say(lang, "prompt.providersFormat"),
  );
  const ordered = orderProviders(data.providers, {
    now,
    timeZone: m.timeZone,
  });
  for (const { provider: p } of ordered) {
    const c = p.contact;
    const contact = [
      say(lang, "prompt.phone", { phone: c.phone }),
      c.whatsapp && `WhatsApp ${c.whatsapp}`,
      c.email,
      c.website,
    ].filter(Boolean).join(", ");
    add(
      [
        `- **${p.name}** (${
          say(lang, "prompt.providerType", { type: p.type })
        }, ${p.priceRange})`,
        page(`/turismo/servicios/${p.slug}`),
        formatLatLng(p.location),
        p.address,
        hours(p.openingHours, p.schedule),
        contact,
        p.languages?.join(", ") ?? "",
        p.description,
      ].join(" | "),
    );
  }

  add("", say(lang, "prompt.directions"));
  for (const d of data.directions) {
    add(
      say(lang, "prompt.direction", {
        city: d.fromCity,
        km: String(d.distanceKm),
        hours: String(d.durationHours),
        byCar: d.byCar,
        byBus: d.byBus,
      }),
    );
  }

  const w = data.weather;
  add(
    "",
    say(lang, "prompt.weather"),
    say(lang, "prompt.climate", {
      climate: w.climate,
      bestSeason: w.bestSeason,
    }),
    ...w.seasons.map((s) =>
      say(lang, "prompt.season", {
        months: s.months,
        min: String(s.avgTempC.min),
        max: String(s.avgTempC.max),
        description: s.description,
      })
    ),
    say(lang, "prompt.packing", { packing: w.packing.join("; ") }),
  );

  add("", say(lang, "prompt.gastronomy"));
  for (const g of data.gastronomy) {
    add(
      `- **${g.dish}**: ${g.description}${
        g.whereToTry
          ? ` ${say(lang, "prompt.whereToTry", { places: g.whereToTry })}`
          : ""
      }`,
    );
  }

  const c = data.culture;
  add(
    "",
    say(lang, "prompt.culture"),
    c.history,
    say(lang, "prompt.traditions", { traditions: c.traditions.join(" ") }),
    say(lang, "prompt.etiquette", { etiquette: c.etiquette.join(" ") }),
  );

  add("", say(lang, "prompt.emergency"));
  for (const e of data.emergency) {
    add(`- ${e.name}: **${e.phone}**${e.notes ? ` (${e.notes})` : ""}`);
  }
  return lines.join("\n");
}

/**
 * The per-request system message, in `lang` (pass the data as seen in that
 * language): today's date in the municipality's time zone, the events on
 * now or soon, and, with a location, the nearest attractions and providers
 * with computed distances and directions links. Kept apart from the stable
 * prompt so that the stable one stays cacheable.
 */
export function buildRequestContext(
  data: TourismData,
  { now, location, lang = DEFAULT_LANG }: {
    now: Date;
    location?: LatLng;
    lang?: Lang;
  },
): string {
  const timeZone = data.municipality.timeZone;
  const today = getLocalDate(now, timeZone);
  const spoken = new Intl.DateTimeFormat(getLangMeta(lang).intlLocale, {
    timeZone,
    dateStyle: "full",
    timeStyle: "short",
  }).format(now);
  const lines = [
    say(lang, "context.title"),
    say(lang, "context.now", {
      now: spoken,
      municipality: data.municipality.name,
    }),
    say(lang, "context.openNow"),
  ];
  // Whether each place is open at the moment of the question: per request,
  // never in the stable prompt.
  for (const place of [...data.attractions, ...data.providers]) {
    if (place.openingHours === undefined) continue;
    const { line } = describePlaceHours(place.openingHours, {
      now: now.getTime(),
      municipality: data.municipality,
      lang,
    });
    lines.push(`- ${place.name}: ${formatHoursLine(line)}`);
  }
  const soon = addDays(today, 45);
  const events = getUpcomingEvents(data.events, { now, timeZone });
  const current = events.filter((e) => e.ongoing).map((e) => e.event);
  const upcoming = events.filter((e) => !e.ongoing && e.next.startDate <= soon);
  if (current.length) {
    lines.push(
      say(lang, "context.ongoing", {
        events: current.map((e) => e.name).join(", "),
      }),
    );
  }
  if (upcoming.length) {
    lines.push(
      say(lang, "context.upcoming", {
        events: upcoming.map(({ event, next }) =>
          say(
            lang,
            event.recurrence ? "context.eventNext" : "context.eventSince",
            { name: event.name, start: next.startDate },
          )
        ).join(", "),
      }),
    );
  }

  if (!location) {
    lines.push(say(lang, "context.noLocation"));
    return lines.join("\n");
  }
  const directions = say(lang, "context.directionsLink");
  lines.push(
    say(lang, "context.location", {
      latLng: formatLatLng(location),
      directionsLink: directions,
    }),
    say(lang, "context.nearestAttractions"),
  );
  for (
    const { item, distanceKm } of findNearest(
      location,
      data.attractions,
      NEAREST_ATTRACTIONS,
    )
  ) {
    lines.push(
      `- [${item.name}](${
        localizePath(lang, `/turismo/atractivos/${item.slug}`)
      }): ${formatKm(distanceKm, lang)} | [${directions}](${
        getDirectionsUrl(location, item.location)
      })`,
    );
  }
  lines.push(say(lang, "context.nearestProviders"));
  const nearest = orderProviders(data.providers, { now, timeZone, location })
    .slice(0, NEAREST_PROVIDERS);
  for (const { provider: item, distanceKm } of nearest) {
    lines.push(
      `- ${item.name} (${
        say(lang, "prompt.providerType", { type: item.type })
      }, ${say(lang, "prompt.phone", { phone: item.contact.phone })}): ${
        formatKm(distanceKm!, lang)
      } | [${directions}](${getDirectionsUrl(location, item.location)})`,
    );
  }
  return lines.join("\n");
}

/**
 * The messages sent to the model: the stable prompt first (a cacheable
 * prefix), then this request's context as a second system message, then the
 * client's history and the new question.
 */
export function buildChatMessages(
  { stablePrompt, requestContext, input }: {
    stablePrompt: string;
    requestContext: string;
    input: ChatInput;
  },
): ModelMessage[] {
  return [
    { role: "system", content: stablePrompt },
    { role: "system", content: requestContext },
    ...input.history,
    { role: "user", content: input.message },
  ];
}

/** An attraction's access in words: wheelchair, entrance, toilet, then its note. */
function describeAccess(a: Attraction, lang: Lang): string {
  const yesNo = (value: boolean) => value ? "yes" : "no";
  return [
    a.wheelchair && t(lang, "hours.wheelchair", { value: a.wheelchair }),
    a.stepFreeEntrance !== undefined &&
    t(lang, "hours.stepFreeEntrance", { value: yesNo(a.stepFreeEntrance) }),
    a.accessibleToilet !== undefined &&
    t(lang, "hours.accessibleToilet", { value: yesNo(a.accessibleToilet) }),
    a.accessibility,
  ].filter(Boolean).join(", ");
}
