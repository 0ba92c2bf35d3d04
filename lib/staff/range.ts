/**
 * The dashboard's date range: the days a staff member asks for, checked on
 * the server, or the default (the last 30 days of the municipality's
 * calendar).
 */
import {
  addDays,
  addMonths,
  getLocalTime,
  isDay,
  listDays,
} from "@/lib/calendar/mod.ts";
import { MAX_RANGE_DAYS } from "@/lib/figures/mod.ts";
import {
  DEFAULT_LANG,
  getLangMeta,
  type Lang,
  t,
} from "@/lib/i18n/catalogue.ts";

/** Days in the default range: today and the 29 before it. */
export const DEFAULT_RANGE_DAYS = 30;

/** Why a range asked for was not used: the page says so. */
export type RangeProblem = "invalid" | "reversed" | "too_long";

/** A range of days, both included (`YYYY-MM-DD`). */
export interface DayRange {
  from: string;
  to: string;
}

/** The last {@linkcode DEFAULT_RANGE_DAYS} days up to today in `timeZone`. */
export function getDefaultRange(now: Date, timeZone: string): DayRange {
  const to = getLocalTime(now, timeZone).day;
  return { from: addDays(to, 1 - DEFAULT_RANGE_DAYS), to };
}

/**
 * The range in `from` and `to` (a form's fields), or the default range with
 * the problem found: a field that is not a date, a start after the end, or
 * more than {@linkcode MAX_RANGE_DAYS} days. Neither field: the default, no
 * problem. One field alone: the other is the default's.
 */
export function parseDayRange(
  { from, to }: { from?: string; to?: string },
  { now, timeZone }: { now: Date; timeZone: string },
): DayRange & { problem: RangeProblem | null } {
  const fallback = getDefaultRange(now, timeZone);
  const asked = {
    from: from?.trim() || fallback.from,
    to: to?.trim() || fallback.to,
  };
  const problem: RangeProblem | null = !isDay(asked.from) || !isDay(asked.to)
    ? "invalid"
    : asked.from > asked.to
    ? "reversed"
    : addDays(asked.from, MAX_RANGE_DAYS - 1) < asked.to
    ? "too_long"
    : null;
  return problem ? { ...fallback, problem } : { ...asked, problem };
}

/**
 * The period of the same length just before `range`: it ends the day
 * before `range` starts (the dashboard's comparison).
 */
export function getPreviousRange({ from, to }: DayRange): DayRange {
  const length = listDays(from, to).length;
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

/** A quick range's link: its name and the days it sets. */
export interface QuickRange extends DayRange {
  id: "hoy" | "7-dias" | "este-mes" | "mes-pasado" | "este-ano";
  /** Its name in words (`panel_range.quick.<id>`). */
  label: string;
}

/**
 * The dashboard's quick ranges, as of today in `timeZone`: today, the last
 * 7 days, this month and this year up to today, and the whole of last
 * month, named in `lang` (Spanish unless said).
 */
export function getQuickRanges(
  now: Date,
  timeZone: string,
  lang: Lang = DEFAULT_LANG,
): QuickRange[] {
  const { day: today, month } = getLocalTime(now, timeZone);
  const lastMonth = addMonths(month, -1);
  const ranges: Omit<QuickRange, "label">[] = [
    { id: "hoy", from: today, to: today },
    { id: "7-dias", from: addDays(today, -6), to: today },
    { id: "este-mes", from: `${month}-01`, to: today },
    {
      id: "mes-pasado",
      from: `${lastMonth}-01`,
      to: addDays(`${month}-01`, -1),
    },
    { id: "este-ano", from: `${today.slice(0, 4)}-01-01`, to: today },
  ];
  return ranges.map((range) => ({
    ...range,
    label: t(lang, `panel_range.quick.${range.id}`),
  }));
}

// Days are calendar labels of the municipality (lib/calendar): written at
// noon UTC and formatted in UTC, they show as the day they name.
const formats = new Map<string, Intl.DateTimeFormat>();

function getDayFormat(
  lang: Lang,
  name: "dayMonth" | "dayMonthYear" | "weekday" | "medium",
): Intl.DateTimeFormat {
  const id = `${lang}\u0000${name}`;
  let format = formats.get(id);
  if (!format) {
    const options: Record<typeof name, Intl.DateTimeFormatOptions> = {
      dayMonth: { day: "numeric", month: "long" },
      dayMonthYear: { day: "numeric", month: "long", year: "numeric" },
      weekday: { weekday: "short" },
      medium: { dateStyle: "medium" },
    };
    format = new Intl.DateTimeFormat(getLangMeta(lang).intlLocale, {
      ...options[name],
      timeZone: "UTC",
    });
    formats.set(id, format);
  }
  return format;
}

function toDate(day: string): Date {
  return new Date(`${day}T12:00:00Z`);
}

/**
 * A range of days in words, as a sentence continues it: "del 29 de octubre
 * al 27 de noviembre de 2026", "del 1 al 28 de octubre de 2026", "el 27 de
 * noviembre de 2026" (`panel_range.span` and `.oneDay`). `year: false`
 * leaves the year out when both days share it (a comparison beside a
 * period that already says it).
 */
export function formatDayRange(
  { from, to }: DayRange,
  { year = true, lang = DEFAULT_LANG }: { year?: boolean; lang?: Lang } = {},
): string {
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  const end = getDayFormat(
    lang,
    year || !sameYear ? "dayMonthYear" : "dayMonth",
  )
    .format(toDate(to));
  if (from === to) return t(lang, "panel_range.oneDay", { day: end });
  const start = !sameYear
    ? getDayFormat(lang, "dayMonthYear").format(toDate(from))
    : from.slice(0, 7) === to.slice(0, 7)
    ? String(Number(from.slice(8)))
    : getDayFormat(lang, "dayMonth").format(toDate(from));
  return t(lang, "panel_range.span", { start, end });
}

/** A day for a table's row, short, in `lang`: "lun 10 mar 2025". */
export function formatDay(day: string, lang: Lang = DEFAULT_LANG): string {
  const date = toDate(day);
  return `${getDayFormat(lang, "weekday").format(date)} ${
    getDayFormat(lang, "medium").format(date)
  }`;
}
