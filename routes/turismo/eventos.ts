import { Hono } from "hono";
import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import {
  buildCalendar,
  type CalendarEvent,
  getUpcomingEvents,
} from "@/lib/events/mod.ts";
import { type AppEnv, getLang, getPublicOrigin } from "@/lib/http/mod.ts";
import { localizePath, t } from "@/lib/i18n/mod.ts";

/** `<slug>.ics`, the one form of the single-event route's last segment. */
const FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.ics$/;

/** Calendars poll the feed; the data set changes seldom. */
const CALENDAR_HEADERS = {
  "Content-Type": "text/calendar; charset=utf-8",
  "Cache-Control": "public, max-age=900",
  // Public, credential-free data: any site may read it.
  "Access-Control-Allow-Origin": "*",
};

/**
 * The calendar of the events still to come (the ones the pages list), or
 * of the one named `slug` among them: `undefined` when there is none.
 */
async function buildEventsCalendar(
  c: Context<AppEnv>,
  deps: AppDeps,
  slug?: string,
): Promise<string | undefined> {
  const lang = getLang(c);
  const data = localizeData(deps.data.current().data, lang);
  const now = deps.now();
  const upcoming = getUpcomingEvents(data.events, {
    now,
    timeZone: data.municipality.timeZone,
  }).filter(({ event }) => slug === undefined || event.slug === slug);
  if (slug !== undefined && upcoming.length === 0) return undefined;
  const origin = getPublicOrigin(c, deps.config);
  const places = new Map(data.attractions.map((a) => [a.slug, a.location]));
  const events: CalendarEvent[] = upcoming.map(({ event }) => ({
    event,
    url: `${origin}${
      localizePath(lang, "/turismo/informacion-practica")
    }#evento-${event.slug}`,
    geo: event.attraction ? places.get(event.attraction) : undefined,
  }));
  return await buildCalendar(events, {
    host: new URL(origin).host,
    name: t(lang, "page_info.calendarName", {
      place: data.municipality.name,
    }),
    now,
    lang,
    timeZone: data.municipality.timeZone,
  });
}

/**
 * `/turismo/eventos.ics`: every event still to come as an iCalendar feed a
 * phone subscribes to. Mounted under each language's prefix
 * (`/en/turismo/eventos.ics`), its texts in that language.
 */
export default function eventsFeed(deps: AppDeps) {
  return new Hono<AppEnv>().get(
    "/",
    async (c) =>
      c.body((await buildEventsCalendar(c, deps))!, 200, CALENDAR_HEADERS),
  );
}

/**
 * `/turismo/eventos/<slug>.ics`: one event still to come, to add to a
 * calendar; 404 for a slug the data set lacks or an event that is over.
 */
export function eventCalendar(deps: AppDeps) {
  return new Hono<AppEnv>().get("/:file", async (c) => {
    const slug = FILE.exec(c.req.param("file"))?.[1];
    const body = slug && await buildEventsCalendar(c, deps, slug);
    if (!body) {
      throw new NotFoundError(t(getLang(c), "page_info.eventNotFound"));
    }
    return c.body(body, 200, CALENDAR_HEADERS);
  });
}
