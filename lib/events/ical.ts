/**
 * The data set's events as an iCalendar document (RFC 5545), for a phone's
 * calendar to subscribe to (`/turismo/eventos.ics`) or to add one event
 * (`/turismo/eventos/<slug>.ics`). An event without times is all-day, dated
 * by calendar day in the municipality: `VALUE=DATE`, with the exclusive end
 * (the day after the last one) the standard asks for. One with times is
 * written on the municipality's clock (`TZID`, with its `VTIMEZONE`), so a
 * calendar in another zone shows it at the right hour, daylight saving
 * included; a recurring one carries its `RRULE` from its first occurrence.
 */
import { getLocalInstantMs, getNextDay } from "@/lib/calendar/mod.ts";
import type { EventRecurrence } from "@/lib/data/event_recurrence.ts";
import type { TourismEvent } from "./occurrences.ts";

/** One event to write, its texts already in the calendar's language. */
export interface CalendarEvent {
  event: TourismEvent;
  /** The absolute address of the page that lists it. */
  url: string;
  /** Where it happens, from its attraction when it names one. */
  geo?: { lat: number; lng: number };
}

/** Escapes a TEXT value (RFC 5545 3.3.11): `\`, `;`, `,` and newlines. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();

/**
 * Folds a content line at 75 octets (RFC 5545 3.1): each continuation line
 * starts with one space. Cuts only between characters, never inside a
 * UTF-8 sequence (or a surrogate pair).
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  // The first line holds 75 octets; each continuation 74 after its space.
  let limit = 75;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
      limit = 74;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** `YYYY-MM-DD` as an iCalendar DATE. */
function toDate(day: string): string {
  return day.replaceAll("-", "");
}

/** An instant as an iCalendar UTC DATE-TIME. */
function toDateTime(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** A day and a wall-clock time (`HH:MM`) as an iCalendar local DATE-TIME. */
function toLocalDateTime(day: string, time: string): string {
  return `${toDate(day)}T${time.replace(":", "")}00`;
}

const ICAL_WEEKDAYS = {
  monday: "MO",
  tuesday: "TU",
  wednesday: "WE",
  thursday: "TH",
  friday: "FR",
  saturday: "SA",
  sunday: "SU",
} as const;

/**
 * `recurrence` as an RRULE value (RFC 5545 3.3.10), without `UNTIL`:
 * `FREQ=WEEKLY;BYDAY=SA,SU`, `FREQ=MONTHLY;BYMONTHDAY=15`,
 * `FREQ=MONTHLY;BYDAY=1SU` (the first Sunday).
 */
export function toRRule(recurrence: EventRecurrence): string {
  const { frequency, weekdays, monthDay, week, weekday } = recurrence;
  const parts = [`FREQ=${frequency.toUpperCase()}`];
  if (frequency === "weekly") {
    parts.push(`BYDAY=${weekdays!.map((d) => ICAL_WEEKDAYS[d]).join(",")}`);
  }
  if (frequency === "monthly") {
    parts.push(
      monthDay !== undefined
        ? `BYMONTHDAY=${monthDay}`
        : `BYDAY=${week}${ICAL_WEEKDAYS[weekday!]}`,
    );
  }
  return parts.join(";");
}

/**
 * How the calendar writes times in `timeZone`: by its `TZID`, with the
 * zone's `VTIMEZONE` (from timezones-ical-library's copy of the IANA data),
 * or in UTC when the zone is UTC or the library lacks it.
 */
async function getZone(
  timeZone: string,
): Promise<{ tzid: string; vtimezone: string } | undefined> {
  if (/^(?:Etc\/)?(?:UTC|GMT)$/.test(timeZone)) return undefined;
  const { tzlib_get_ical_block } = await import("timezones-ical-library");
  const [vtimezone, tzid] = tzlib_get_ical_block(timeZone) ?? [];
  if (!vtimezone || !tzid?.startsWith("TZID=")) return undefined;
  return { tzid: tzid.slice("TZID=".length), vtimezone };
}

/** An event's DTSTART, DTEND and RRULE lines. */
function getWhenLines(
  event: TourismEvent,
  timeZone: string,
  zone: { tzid: string } | undefined,
): string[] {
  const { startDate, endDate, startTime, endTime, recurrence } = event;
  const lines: string[] = [];
  let until: string | undefined;
  if (startTime === undefined || endTime === undefined) {
    lines.push(
      `DTSTART;VALUE=DATE:${toDate(startDate)}`,
      `DTEND;VALUE=DATE:${toDate(getNextDay(endDate))}`,
    );
    // UNTIL takes DTSTART's type: a DATE here.
    if (recurrence?.until) until = toDate(recurrence.until);
  } else {
    const at = (day: string, time: string) =>
      zone
        ? `;TZID=${zone.tzid}:${toLocalDateTime(day, time)}`
        : `:${toDateTime(new Date(getLocalInstantMs(day, time, timeZone)))}`;
    lines.push(
      `DTSTART${at(startDate, startTime)}`,
      `DTEND${at(endDate, endTime)}`,
    );
    // With a TZID start, UNTIL is in UTC (RFC 5545 3.3.10): the last
    // occurrence's start, included.
    if (recurrence?.until) {
      until = toDateTime(
        new Date(getLocalInstantMs(recurrence.until, startTime, timeZone)),
      );
    }
  }
  if (recurrence) {
    lines.push(
      `RRULE:${toRRule(recurrence)}${until ? `;UNTIL=${until}` : ""}`,
    );
  }
  return lines;
}

/**
 * The iCalendar document of `events`: one VEVENT each, with a `UID`
 * (`<slug>@<host>`) that stays the same across downloads so a subscribed
 * calendar updates an event rather than duplicating it.
 */
export async function buildCalendar(
  events: readonly CalendarEvent[],
  { host, name, now, lang, timeZone }: {
    /** The portal's host, for the UIDs. */
    host: string;
    /** The calendar's name (`X-WR-CALNAME`). */
    name: string;
    /** The `DTSTAMP`. */
    now: Date;
    /** The texts' language (`LANGUAGE` parameter). */
    lang: string;
    /** The municipality's IANA time zone, the one its times are on. */
    timeZone: string;
  },
): Promise<string> {
  const stamp = toDateTime(now);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(host)}//Eventos//${lang.toUpperCase()}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(name)}`,
  ];
  const timed = events.some(({ event }) => event.startTime !== undefined);
  const zone = timed ? await getZone(timeZone) : undefined;
  if (zone) {
    lines.push(
      `X-WR-TIMEZONE:${zone.tzid}`,
      ...zone.vtimezone.split(/\r?\n/),
    );
  }
  const language = `;LANGUAGE=${lang}`;
  for (const { event, url, geo } of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${event.slug}@${host}`,
      `DTSTAMP:${stamp}`,
      ...getWhenLines(event, timeZone, zone),
      `SUMMARY${language}:${escapeText(event.name)}`,
      `DESCRIPTION${language}:${escapeText(event.description)}`,
      `LOCATION${language}:${escapeText(event.place)}`,
      `URL:${url}`,
    );
    if (geo) lines.push(`GEO:${geo.lat};${geo.lng}`);
    lines.push("TRANSP:TRANSPARENT", "END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(foldLine).join("\r\n") + "\r\n";
}
