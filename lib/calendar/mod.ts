/**
 * The municipality's calendar: which day, month and hour an instant falls
 * on in a time zone, and arithmetic on calendar days (`YYYY-MM-DD`) and
 * months (`YYYY-MM`). The one place that turns instants into local dates
 * and clock times (and a local day back into its first instant):
 * the dashboard's counters, the open data's closed periods, the events
 * still to come and the providers' daily order all read it.
 *
 * Day and month arithmetic is done on UTC dates, which have no daylight
 * saving: a calendar day is a label, not an instant.
 */

/** The calendar at an instant, in one time zone. */
export interface LocalTime {
  /** `YYYY-MM-DD`. */
  day: string;
  /** `YYYY-MM`. */
  month: string;
  /** 0..23. */
  hour: number;
}

const MS_PER_DAY = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

// One formatter per time zone: building one costs far more than using it.
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Every zone's offset changes only at a quarter hour of UTC (IANA's
 * transitions all fall on one), so within one quarter the wall clock is the
 * instant plus one offset: found once per zone and quarter, since a
 * formatter's `formatToParts` costs about 15 µs per call. Kept for many
 * quarters per zone, not only the current one: the events' occurrences
 * turn the same wall-clock times into instants on every listing.
 */
const QUARTER_HOUR_MS = 900_000;
const MAX_QUARTERS_PER_ZONE = 2048;
const offsets = new Map<string, Map<number, number>>();

/** How far `timeZone`'s wall clock is ahead of UTC at `ms`. */
function getOffsetMs(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_HOUR_MS);
  let zone = offsets.get(timeZone);
  const known = zone?.get(quarter);
  if (known !== undefined) return known;
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA writes its parts as digits, year first.
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  const start = quarter * QUARTER_HOUR_MS;
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(start))) {
    parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  const offsetMs = wall - start;
  if (!zone) {
    if (offsets.size >= 64) offsets.clear();
    offsets.set(timeZone, zone = new Map());
  }
  if (zone.size >= MAX_QUARTERS_PER_ZONE) zone.clear();
  zone.set(quarter, offsetMs);
  return offsetMs;
}

/** The wall clock's parts at `at` in `timeZone`, each as digits. */
function readWallClock(
  at: Date | string,
  timeZone: string,
): Record<"year" | "month" | "day" | "hour" | "minute" | "second", string> {
  const ms = new Date(at).getTime();
  const wall = new Date(ms + getOffsetMs(ms, timeZone));
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    year: String(wall.getUTCFullYear()).padStart(4, "0"),
    month: two(wall.getUTCMonth() + 1),
    day: two(wall.getUTCDate()),
    hour: two(wall.getUTCHours()),
    minute: two(wall.getUTCMinutes()),
    second: two(wall.getUTCSeconds()),
  };
}

/** The day, month and hour it is at `at` in `timeZone` (the municipality's). */
export function getLocalTime(at: Date | string, timeZone: string): LocalTime {
  const parts = readWallClock(at, timeZone);
  const month = `${parts.year}-${parts.month}`;
  return { day: `${month}-${parts.day}`, month, hour: Number(parts.hour) };
}

/**
 * The wall clock at `at` in `timeZone`, `YYYY-MM-DDTHH:MM:SS` with no zone:
 * what the staff's spreadsheets show as a local date and time (Excel and
 * LibreOffice read `YYYY-MM-DD HH:MM` as one; an ISO instant in UTC they
 * keep as text, or in the wrong hour).
 */
export function getLocalWallClock(at: Date | string, timeZone: string): string {
  const p = readWallClock(at, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/**
 * The instant `at` on `timeZone`'s wall clock with its offset,
 * `2026-12-05T09:00:00-06:00`: ISO 8601 as schema.org's dates take it.
 */
export function getLocalIsoDateTime(
  at: Date | string,
  timeZone: string,
): string {
  const ms = new Date(at).getTime();
  const offset = Math.round(getOffsetMs(ms, timeZone) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const two = (n: number) => String(n).padStart(2, "0");
  const abs = Math.abs(offset);
  return `${getLocalWallClock(at, timeZone)}${sign}${
    two(Math.floor(abs / 60))
  }:${two(abs % 60)}`;
}

/** `14:05`: the hour and minute on the wall clock at `at` in `timeZone` (24 hours). */
export function getLocalClockTime(at: Date | string, timeZone: string): string {
  const { hour, minute } = readWallClock(at, timeZone);
  return `${hour}:${minute}`;
}

/**
 * The instant `day` (`YYYY-MM-DD`) starts in `timeZone`, in epoch
 * milliseconds: local midnight ({@linkcode getLocalInstantMs} at `00:00`).
 */
export function getLocalMidnightMs(day: string, timeZone: string): number {
  return getLocalInstantMs(day, "00:00", timeZone);
}

/**
 * The instant the wall clock in `timeZone` reads `time` (`HH:MM` or `HH:MM:SS`) on `day`
 * (`YYYY-MM-DD`), in epoch milliseconds: found by correcting a UTC guess by
 * the zone's offset (twice, for a day when the offset changes). A time a
 * spring-forward skips comes out an hour later; one a fall-back repeats is
 * its first instant.
 */
export function getLocalInstantMs(
  day: string,
  time: string,
  timeZone: string,
): number {
  const wall = Date.parse(
    `${day}T${time.length === 5 ? `${time}:00` : time}Z`,
  );
  let at = wall;
  for (let i = 0; i < 2; i++) at = wall - getOffsetMs(at, timeZone);
  return at;
}

/** Whether `value` is a clock time `HH:MM` on a 24-hour clock (`00:00` to `23:59`). */
export function isClockTime(value: string): boolean {
  return /^(?:[01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/** The calendar day (`YYYY-MM-DD`) it is at `at` in `timeZone`. */
export function getLocalDate(at: Date | string, timeZone: string): string {
  return getLocalTime(at, timeZone).day;
}

/**
 * The calendar day it is at `at` in `timeZone`, as a day number (days
 * since 1970-01-01): it changes at local midnight, the same for everyone.
 */
export function getLocalDayNumber(at: Date | string, timeZone: string): number {
  return getDayNumber(getLocalDate(at, timeZone));
}

/** `day` (`YYYY-MM-DD`) as a day number: days since 1970-01-01. */
export function getDayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / MS_PER_DAY);
}

/** Whether `value` is a real calendar day written `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) &&
    date.toISOString().slice(0, 10) === value;
}

/** `day` moved by `n` days (`YYYY-MM-DD`). */
export function addDays(day: string, n: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + n);
  return date.toISOString().slice(0, 10);
}

/** The day after `day` (`YYYY-MM-DD`). */
export function getNextDay(day: string): string {
  return addDays(day, 1);
}

/** `month` moved by `n` months (`YYYY-MM`). */
export function addMonths(month: string, n: number): string {
  const [year, m] = month.split("-").map(Number);
  return new Date(Date.UTC(year, m - 1 + n, 1)).toISOString().slice(0, 7);
}

/** Every day from `from` to `to`, both included. */
export function listDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = getNextDay(day)) days.push(day);
  return days;
}

/** The day of the week of `day`: 0 = Monday .. 6 = Sunday. */
export function getWeekday(day: string): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}
