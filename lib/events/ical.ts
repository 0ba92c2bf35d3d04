/**
 * The data set's events as an iCalendar document (RFC 5545), for a phone's
 * calendar to subscribe to (`/turismo/eventos.ics`) or to add one event
 * (`/turismo/eventos/<slug>.ics`). Events are all-day, dated by calendar
 * day in the municipality, so they are written as `VALUE=DATE` with the
 * exclusive end (the day after the last one) the standard asks for.
 */
import { getNextDay } from "@/lib/calendar/mod.ts";
import type { TourismEvent } from "./upcoming.ts";

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

/**
 * The iCalendar document of `events`: one VEVENT each, with a `UID`
 * (`<slug>@<host>`) that stays the same across downloads so a subscribed
 * calendar updates an event rather than duplicating it.
 */
export function buildCalendar(
  events: readonly CalendarEvent[],
  { host, name, now, lang }: {
    /** The portal's host, for the UIDs. */
    host: string;
    /** The calendar's name (`X-WR-CALNAME`). */
    name: string;
    /** The `DTSTAMP`. */
    now: Date;
    /** The texts' language (`LANGUAGE` parameter). */
    lang: string;
  },
): string {
  const stamp = toDateTime(now);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(host)}//Eventos//${lang.toUpperCase()}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(name)}`,
  ];
  const language = `;LANGUAGE=${lang}`;
  for (const { event, url, geo } of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${event.slug}@${host}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${toDate(event.startDate)}`,
      `DTEND;VALUE=DATE:${toDate(getNextDay(event.endDate))}`,
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
