/**
 * Opening hours in words, in each language: the line a page shows ("Abierto
 * ahora · cierra a las 18:00", "Closed · opens tomorrow at 9:00 a.m."), the
 * rows of the weekly table, and the week in one phrase for the assistant.
 * The words come from the `hours` catalogue (`locales/<lang>/hours.json`).
 */
import { getDayNumber, getLocalWallClock } from "@/lib/calendar/mod.ts";
import {
  DEFAULT_LANG,
  getLangMeta,
  type Lang,
  t,
} from "@/lib/i18n/catalogue.ts";
import type { ClockTime, DayHours, HoursStatus } from "./opening_hours.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();

function getFormatter(
  lang: Lang,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const locale = getLangMeta(lang).intlLocale;
  const key = `${locale}:${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, {
      ...options,
      timeZone: "UTC",
    });
    if (formatters.size >= 64) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * `18:00` (Spanish: the 24-hour clock of the portal's pages), `6:00 p.m.`
 * (another language: its locale's clock, with the catalogue's a.m./p.m.).
 */
export function formatClock({ hour, minute }: ClockTime, lang: Lang): string {
  if (lang === DEFAULT_LANG) {
    return `${hour}:${String(minute).padStart(2, "0")}`;
  }
  const parts = getFormatter(lang, {
    hour: "numeric",
    minute: "2-digit",
    hourCycle: "h12",
  }).formatToParts(Date.UTC(1970, 0, 1, hour, minute));
  return parts.map((part) =>
    part.type === "dayPeriod"
      ? t(lang, "hours.dayPeriod", { period: hour < 12 ? "am" : "pm" })
      : part.value
  ).join("");
}

/**
 * "a las 18:00", "a la 1:00", "a medianoche" / "at 6:00 p.m.", "at midnight";
 * "a las 0:00" with `midnightAsClock`.
 */
function sayAt(time: ClockTime, lang: Lang, midnightAsClock = false): string {
  if (time.hour === 0 && time.minute === 0 && !midnightAsClock) {
    return t(lang, "hours.atMidnight");
  }
  return t(lang, "hours.at", {
    time: formatClock(time, lang),
    one: time.hour === 1 ? "yes" : "no",
  });
}

/** `martes` / `Tuesday`: the weekday of `day` (`YYYY-MM-DD`). */
function sayWeekday(day: string, lang: Lang): string {
  return getFormatter(lang, { weekday: "long" }).format(
    Date.parse(`${day}T12:00:00Z`),
  );
}

/** When a change falls, relative to today: "hoy", "mañana", "el martes", "el 5 de enero". */
function sayChange(
  kind: "opens" | "closes",
  changeMs: number,
  { now, timeZone, lang }: { now: number; timeZone: string; lang: Lang },
): string {
  const wall = getLocalWallClock(new Date(changeMs), timeZone);
  let day = wall.slice(0, 10);
  const time = {
    hour: Number(wall.slice(11, 13)),
    minute: Number(wall.slice(14, 16)),
  };
  let offset = getDayNumber(day) -
    getDayNumber(getLocalWallClock(new Date(now), timeZone).slice(0, 10));
  const midnight = time.hour === 0 && time.minute === 0;
  // Midnight ends the day before: "cierra a medianoche", "cierra el viernes
  // a medianoche", not "mañana a las 0:00". An opening at tonight's midnight
  // is "abre a medianoche"; a later one names its own day ("abre el lunes a
  // las 0:00"), since "el domingo a medianoche" could be either night.
  if (midnight && offset > 0 && (kind === "closes" || offset === 1)) {
    offset--;
    day = new Date(Date.parse(`${day}T12:00:00Z`) - 86_400_000).toISOString()
      .slice(0, 10);
  }
  const when = offset === 0
    ? midnight && kind === "opens" ? "tonight" : "today"
    : offset === 1
    ? "tomorrow"
    : offset < 7
    ? "weekday"
    : "date";
  return t(lang, `hours.${kind}`, {
    when,
    weekday: sayWeekday(day, lang),
    date: getFormatter(lang, { day: "numeric", month: "long" }).format(
      Date.parse(`${day}T12:00:00Z`),
    ),
    at: sayAt(time, lang, kind === "opens" && when !== "tonight"),
  });
}

/** What a page says of a place's hours now: the state, and the next change. */
export interface HoursLine {
  /** "open": open now; "closed"; "always": open at every hour. */
  state: "open" | "closed" | "always";
  /** "Abierto ahora", "Cerrado", "Abierto las 24 horas". */
  label: string;
  /** "cierra a las 18:00", "abre mañana a las 9:00"; none when nothing changes. */
  change?: string;
}

/** The line for `status` at `now`: "Abierto ahora · cierra a las 18:00" once joined. */
export function describeHoursStatus(
  status: HoursStatus,
  context: { now: number; timeZone: string; lang: Lang },
): HoursLine {
  const { lang } = context;
  if (status.alwaysOpen) {
    return { state: "always", label: t(lang, "hours.always") };
  }
  const state = status.open ? "open" : "closed";
  return {
    state,
    label: t(lang, status.open ? "hours.openNow" : "hours.closedNow"),
    change: status.nextChangeMs === undefined ? undefined : sayChange(
      status.open ? "closes" : "opens",
      status.nextChangeMs,
      context,
    ),
  };
}

/** "Abierto ahora · cierra a las 18:00": the line as one string. */
export function formatHoursLine(line: HoursLine): string {
  return line.change ? `${line.label} · ${line.change}` : line.label;
}

/** A day's hours in words: "10:00 a 17:00", "Abierto las 24 horas", "Cerrado". */
export function describeDayHours(
  row: DayHours,
  lang: Lang,
  { inPhrase = false }: { inPhrase?: boolean } = {},
): string {
  if (row.allDay) {
    return t(lang, inPhrase ? "hours.allDayInPhrase" : "hours.allDay");
  }
  if (row.openings.length === 0) {
    return t(lang, inPhrase ? "hours.closedInPhrase" : "hours.closedDay");
  }
  return row.openings.map(({ from, to }) =>
    t(lang, "hours.range", {
      from: formatClock(from, lang),
      to: to.hour === 0 && to.minute === 0
        ? t(lang, "hours.midnight")
        : formatClock(to, lang),
    })
  ).join(t(lang, "hours.rangeSeparator"));
}

/** `lunes` / `Monday`: the name of a row's weekday. */
export function getWeekdayName(row: DayHours, lang: Lang): string {
  return sayWeekday(row.day, lang);
}

/**
 * The days in one phrase, from today on, days with the same hours joined:
 * "miércoles a lunes: 9:00 a 18:00; martes: cerrado".
 */
export function describeWeek(rows: DayHours[], lang: Lang): string {
  const groups: { first: DayHours; last: DayHours; hours: string }[] = [];
  for (const row of rows) {
    const hours = describeDayHours(row, lang, { inPhrase: true });
    const group = groups.at(-1);
    if (group?.hours === hours) group.last = row;
    else groups.push({ first: row, last: row, hours });
  }
  if (groups.length === 1 && rows.length === 7) {
    return t(lang, "hours.weekPart", {
      days: t(lang, "hours.everyDay"),
      hours: groups[0].hours,
    });
  }
  return groups.map(({ first, last, hours }) => {
    const days = first === last
      ? sayWeekday(first.day, lang)
      : t(lang, "hours.dayRange", {
        first: sayWeekday(first.day, lang),
        last: sayWeekday(last.day, lang),
        two: getDayNumber(last.day) - getDayNumber(first.day) === 1
          ? "yes"
          : "no",
      });
    return t(lang, "hours.weekPart", { days, hours });
  }).join("; ");
}
