/**
 * Opening hours written in OpenStreetMap's `opening_hours` syntax
 * (`Mo-Fr 09:00-18:00; Sa 10:00-14:00; PH off`, `24/7`), evaluated by the
 * npm `opening_hours` library in the municipality's time zone.
 *
 * The library reads a `Date`'s local fields, which are the process's zone,
 * not the municipality's. So an instant is handed to it as a "wall date":
 * a `Date` whose local fields are the municipality's wall clock at that
 * instant, and what it answers is turned back into an instant the same way
 * ({@linkcode toWallDate}, {@linkcode fromWallDate}). Exact in any zone of
 * the municipality; a process whose own zone skips an hour (servers run in
 * UTC) would misread only a time inside that skipped hour.
 *
 * The library is about 1 MB of code (80 ms to import): only the modules
 * that need it import this one, and route modules are imported on their
 * first request (lib/http/lazy_routes.ts), never at start.
 */
import OpeningHours from "opening_hours";
import { getLocalInstantMs, getLocalWallClock } from "@/lib/calendar/mod.ts";
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/catalogue.ts";

/** Where the hours are kept: the public holidays (`PH`) are Mexico's. */
export interface HoursPlace {
  lat: number;
  lng: number;
  /** The state, as the data set names it ("Jalisco"). */
  state: string;
}

/** Used where no place is known (checking the syntax). */
const DEFAULT_PLACE: HoursPlace = {
  lat: 20.88,
  lng: -103.84,
  state: "Jalisco",
};

/** How far ahead the next change is looked for (a place closed for a season). */
const HORIZON_MS = 400 * 86_400_000;

/** Parsed expressions by place and text: a data set has a few dozen. */
const parsed = new Map<string, OpeningHours>();

function parse(expression: string, place: HoursPlace): OpeningHours {
  const key = `${place.lat},${place.lng},${place.state}\u0000${expression}`;
  let hours = parsed.get(key);
  if (!hours) {
    hours = new OpeningHours(expression, {
      lat: place.lat,
      lon: place.lng,
      address: { country_code: "mx", state: place.state },
    }, { mode: 0 } as never);
    if (parsed.size >= 512) parsed.clear();
    parsed.set(key, hours);
  }
  return hours;
}

/**
 * Why `expression` is not valid `opening_hours` syntax, in `lang` (Spanish
 * by default: the staff who edit the data set read the schema's errors),
 * or `undefined` when it is valid.
 */
export function checkOpeningHours(
  expression: string,
  lang: Lang = DEFAULT_LANG,
): string | undefined {
  try {
    const hours = parse(expression, DEFAULT_PLACE);
    // The library reads some mistakes its own way ("Lunes a viernes 9-18"
    // as Mo-Fr 09:00-18:00), with a warning: the data set says it exactly.
    if (hours.getWarnings().length === 0) return undefined;
    return t(lang, "hours.invalidRewrite", { value: hours.prettifyValue() });
  } catch (error) {
    const detail = String(error);
    const marker = detail.indexOf(" <---");
    return t(lang, "hours.invalid", {
      read: marker > 0 ? detail.slice(0, marker).trim() : "none",
      examples: EXAMPLES.map((example) => `"${example}"`).join(", "),
    });
  }
}

/** What a refusal shows as valid hours. */
const EXAMPLES = [
  "Mo-Fr 09:00-18:00; Sa 10:00-14:00",
  "Mo-Sa 10:00-19:00; PH off",
  "24/7",
];

/** A `Date` whose local fields show `timeZone`'s wall clock at `ms`. */
function toWallDate(ms: number, timeZone: string): Date {
  const [y, mo, d, h, mi, s] = getLocalWallClock(new Date(ms), timeZone)
    .split(/[-T:]/).map(Number);
  return new Date(y, mo - 1, d, h, mi, s, ((ms % 1000) + 1000) % 1000);
}

/** The instant a wall date (see {@linkcode toWallDate}) stands for. */
function fromWallDate(date: Date, timeZone: string): number {
  const two = (n: number) => String(n).padStart(2, "0");
  const wall = `${String(date.getFullYear()).padStart(4, "0")}-${
    two(date.getMonth() + 1)
  }-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${
    two(date.getSeconds())
  }`;
  return getLocalInstantMs(wall.slice(0, 10), wall.slice(11), timeZone) +
    date.getMilliseconds();
}

/** Whether a place is open at an instant, and until when. */
export interface HoursStatus {
  open: boolean;
  /** Open at every hour ahead (`24/7`): no change to announce. */
  alwaysOpen: boolean;
  /**
   * The next opening or closing, epoch ms; `undefined` when there is none
   * within a year (always open, or closed for good).
   */
  nextChangeMs?: number;
}

export interface HoursOptions {
  /** Epoch ms. */
  now: number;
  /** The municipality's IANA zone. */
  timeZone: string;
  place?: HoursPlace;
}

/** Whether `expression`'s place is open at `now`, and when that changes. */
export function getHoursStatus(
  expression: string,
  { now, timeZone, place = DEFAULT_PLACE }: HoursOptions,
): HoursStatus {
  const hours = parse(expression, place);
  const wall = toWallDate(now, timeZone);
  const open = hours.getState(wall);
  const next = hours.getNextChange(wall, new Date(wall.getTime() + HORIZON_MS));
  return {
    open,
    alwaysOpen: open && next === undefined,
    nextChangeMs: next && fromWallDate(next, timeZone),
  };
}

/** A clock time of the municipality's wall clock. */
export interface ClockTime {
  hour: number;
  minute: number;
}

/** One day's hours (a row of the weekly table). */
export interface DayHours {
  /** `YYYY-MM-DD` in the municipality. */
  day: string;
  /** 0 = Monday .. 6 = Sunday. */
  weekday: number;
  /** Open the whole day, midnight to midnight. */
  allDay: boolean;
  /**
   * The openings that start this day, in order. `to` may be the next day
   * (`nextDay`): a bar open 13:00-01:00 is one opening of the day it opens.
   */
  openings: { from: ClockTime; to: ClockTime; nextDay: boolean }[];
}

/**
 * The hours of the `days` days from `now`'s day on, as the municipality's
 * calendar has them (a holiday, a season or a closed date included).
 */
export function getDaysHours(
  expression: string,
  { now, timeZone, place = DEFAULT_PLACE, days = 7 }: HoursOptions & {
    days?: number;
  },
): DayHours[] {
  const hours = parse(expression, place);
  const wall = toWallDate(now, timeZone);
  const dayStart = (i: number) =>
    new Date(wall.getFullYear(), wall.getMonth(), wall.getDate() + i);
  // From the day before: an opening that runs past midnight into today is
  // yesterday's, not one that starts at today's midnight.
  const intervals = hours.getOpenIntervals(dayStart(-1), dayStart(days + 1));
  const clock = (date: Date): ClockTime => ({
    hour: date.getHours(),
    minute: date.getMinutes(),
  });
  const rows: DayHours[] = [];
  for (let i = 0; i < days; i++) {
    const start = dayStart(i).getTime();
    const end = dayStart(i + 1).getTime();
    const two = (n: number) => String(n).padStart(2, "0");
    const date = dayStart(i);
    const row: DayHours = {
      day: `${date.getFullYear()}-${two(date.getMonth() + 1)}-${
        two(date.getDate())
      }`,
      weekday: (date.getDay() + 6) % 7,
      allDay: false,
      openings: [],
    };
    for (const [from, to] of intervals) {
      const a = from.getTime();
      const b = to.getTime();
      if (a <= start && b >= end) row.allDay = true;
      else if (a >= start && a < end) {
        row.openings.push({
          from: clock(from),
          to: clock(to),
          nextDay: b >= end,
        });
      }
    }
    if (row.allDay) row.openings = [];
    rows.push(row);
  }
  return rows;
}
