/**
 * What a page says of one place's hours at one instant: the line, the
 * days' table and until when both hold. Computed once per render.
 */
import {
  getLocalDate,
  getLocalMidnightMs,
  getNextDay,
} from "@/lib/calendar/mod.ts";
import type { Lang } from "@/lib/i18n/catalogue.ts";
import {
  type DayHours,
  getDaysHours,
  getHoursStatus,
  type HoursPlace,
  type HoursStatus,
} from "./opening_hours.ts";
import { describeHoursStatus, type HoursLine } from "./words.ts";

/** The municipality as the data set has it: its centre and state place its holidays. */
export interface HoursMunicipality {
  timeZone: string;
  state: string;
  center: { lat: number; lng: number };
}

export function getHoursPlace(municipality: HoursMunicipality): HoursPlace {
  return { ...municipality.center, state: municipality.state };
}

export interface PlaceHours {
  status: HoursStatus;
  line: HoursLine;
  /** The next days from today, when asked for. */
  days: DayHours[];
  /**
   * Until when the line holds (epoch ms): its next opening or closing, and
   * at the latest the municipality's next midnight ("mañana" becomes
   * "hoy", and the days' table starts on another day).
   */
  validUntilMs: number;
}

/**
 * What was said, by expression, place, language and days: it holds, word
 * for word, from when it was computed until its `validUntilMs` (the state,
 * the next change and the day are the same all that while), so a page
 * rendered again says it without evaluating anything (a holiday rule costs
 * about half a millisecond to evaluate).
 */
const said = new Map<string, { from: number; hours: PlaceHours }>();

/** `expression`'s state, line and (with `days`) table at `now`, in `lang`. */
export function describePlaceHours(
  expression: string,
  options: {
    now: number;
    municipality: HoursMunicipality;
    lang: Lang;
    days?: number;
  },
): PlaceHours {
  const { now, municipality, lang, days = 0 } = options;
  const { timeZone, state, center } = municipality;
  const key =
    `${expression}\u0000${lang}\u0000${days}\u0000${timeZone}\u0000${state}\u0000${center.lat},${center.lng}`;
  const known = said.get(key);
  if (known && known.from <= now && now < known.hours.validUntilMs) {
    return known.hours;
  }
  const hours = evaluate(expression, options);
  if (said.size >= 1024) said.clear();
  said.set(key, { from: now, hours });
  return hours;
}

function evaluate(
  expression: string,
  { now, municipality, lang, days = 0 }: {
    now: number;
    municipality: HoursMunicipality;
    lang: Lang;
    days?: number;
  },
): PlaceHours {
  const { timeZone } = municipality;
  const place = getHoursPlace(municipality);
  const status = getHoursStatus(expression, { now, timeZone, place });
  const midnight = getLocalMidnightMs(
    getNextDay(getLocalDate(new Date(now), timeZone)),
    timeZone,
  );
  return {
    status,
    line: describeHoursStatus(status, { now, timeZone, lang }),
    days: days > 0
      ? getDaysHours(expression, { now, timeZone, place, days })
      : [],
    validUntilMs: Math.min(status.nextChangeMs ?? Infinity, midnight),
  };
}
