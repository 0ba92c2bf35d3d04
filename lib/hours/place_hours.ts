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

/** `expression`'s state, line and (with `days`) table at `now`, in `lang`. */
export function describePlaceHours(
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
