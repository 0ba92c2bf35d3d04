/**
 * When an event happens, as the events list and an attraction's page say
 * it: `5 dic 2026, 10:00–13:00` for one with times, or for a recurring one
 * its rule, times and next occurrence: `Todos los sábados, 09:00–14:00 ·
 * próxima: sábado 5 de diciembre`.
 */
import { getLocalDate } from "@/lib/calendar/mod.ts";
import type { EventRecurrence } from "@/lib/data/event_recurrence.ts";
import {
  formatClockTime,
  formatDateRange,
  formatLongDate,
  formatWeekday,
} from "@/lib/format/mod.ts";
import { type Lang, t } from "@/lib/i18n/mod.ts";
import type { UpcomingEvent } from "./upcoming.ts";

/** A Monday, to name the weekdays from (`2026-11-30` + 0..6). */
const WEEKDAY_DAYS = {
  monday: "2026-11-30",
  tuesday: "2026-12-01",
  wednesday: "2026-12-02",
  thursday: "2026-12-03",
  friday: "2026-12-04",
  saturday: "2026-12-05",
  sunday: "2026-12-06",
} as const;

/** `sábados y domingos`, `Saturday and Sunday`: the days a weekly event is on. */
function formatWeekdays(
  weekdays: readonly (keyof typeof WEEKDAY_DAYS)[],
  lang: Lang,
): string {
  const names = weekdays.map((day) => {
    const name = formatWeekday(WEEKDAY_DAYS[day], lang);
    // «Todos los sábados»: Spanish says the days in the plural (lunes stays).
    return lang === "es" && !name.endsWith("s") ? `${name}s` : name;
  });
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(names);
}

/** `Todos los sábados`, `El primer viernes de cada mes`. */
export function describeRecurrence(
  recurrence: EventRecurrence,
  lang: Lang,
): string {
  const { frequency, weekdays, monthDay, week, weekday } = recurrence;
  return t(lang, "format.eventRepeats", {
    frequency: frequency !== "monthly"
      ? frequency
      : monthDay !== undefined
      ? "monthDay"
      : "monthWeek",
    weekdays: weekdays ? formatWeekdays(weekdays, lang) : "",
    day: monthDay ?? 0,
    week: week ?? 0,
    weekday: weekday ? formatWeekday(WEEKDAY_DAYS[weekday], lang) : "",
  });
}

/** `10:00–13:00`. */
function formatTimes(start: string, end: string, lang: Lang): string {
  return t(lang, "format.timeRange", {
    start: formatClockTime(start, lang),
    end: formatClockTime(end, lang),
  });
}

/**
 * When `upcoming` happens, in `lang`. `now` and `timeZone` give the year
 * the next occurrence's date leaves out when it is this year's.
 */
export function describeWhen(
  { event, next, ongoing }: UpcomingEvent,
  { lang, now, timeZone }: { lang: Lang; now: Date; timeZone: string },
): string {
  const { startDate, endDate, startTime, endTime, recurrence } = event;
  const times = startTime && endTime
    ? formatTimes(startTime, endTime, lang)
    : undefined;
  if (recurrence) {
    const thisYear = getLocalDate(now, timeZone).slice(0, 4);
    const date = (day: string) =>
      formatLongDate(day, lang, { withYear: day.slice(0, 4) !== thisYear });
    const rule = describeRecurrence(recurrence, lang);
    return [
      times ? t(lang, "format.dateTime", { date: rule, time: times }) : rule,
      t(lang, "format.eventNext", {
        ongoing: ongoing ? "yes" : "no",
        date: date(next.startDate),
      }),
      ...(recurrence.until
        ? [t(lang, "format.eventUntil", { date: date(recurrence.until) })]
        : []),
    ].join(" · ");
  }
  if (!startTime || !endTime) return formatDateRange(startDate, endDate, lang);
  if (startDate === endDate) {
    return t(lang, "format.dateTime", {
      date: formatDateRange(startDate, endDate, lang),
      time: times!,
    });
  }
  return t(lang, "format.dateRange", {
    start: t(lang, "format.dateTime", {
      date: formatDateRange(startDate, startDate, lang),
      time: formatClockTime(startTime, lang),
    }),
    end: t(lang, "format.dateTime", {
      date: formatDateRange(endDate, endDate, lang),
      time: formatClockTime(endTime, lang),
    }),
  });
}
