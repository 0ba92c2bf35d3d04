import type { Attraction } from "@/lib/data/mod.ts";
import {
  type DayHours,
  describeDayHours,
  getWeekdayName,
  type HoursLine,
} from "@/lib/hours/mod.ts";
import { type Lang, t } from "@/lib/i18n/mod.ts";
import { Icon } from "./Icon.tsx";

/** "Abierto ahora · cierra a las 18:00": the state in words, never by colour alone. */
export function HoursNow(
  { line, until, compact = false }: {
    line: HoursLine;
    /** When the line stops holding (epoch ms): the browser hides it then (client/stale_hours.ts). */
    until: number;
    compact?: boolean;
  },
) {
  return (
    <p
      class={`hours-now hours-now--${line.state}${
        compact ? " hours-now--compact" : ""
      }`}
      data-hours-until={until}
    >
      <Icon name="clock" /> <strong>{line.label}</strong>
      {line.change && <>{" · "}{line.change}</>}
    </p>
  );
}

/** The days from today as a table: weekday, hours; today marked in words. */
export function DaysHoursTable(
  { days, lang }: { days: DayHours[]; lang: Lang },
) {
  return (
    <table class="hours-table">
      <caption>{t(lang, "hours.weekTitle")}</caption>
      <thead>
        <tr>
          <th scope="col">{t(lang, "hours.dayColumn")}</th>
          <th scope="col">{t(lang, "hours.hoursColumn")}</th>
        </tr>
      </thead>
      <tbody>
        {days.map((row, i) => {
          const name = getWeekdayName(row, lang);
          return (
            <tr
              key={row.day}
              class={i === 0 ? "hours-table__today" : undefined}
            >
              <th scope="row">
                {name.charAt(0).toLocaleUpperCase() + name.slice(1)}
                {i === 0 && ` (${t(lang, "hours.today")})`}
              </th>
              <td>{describeDayHours(row, lang)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * An attraction's access, as OpenStreetMap tags it: wheelchair, step-free
 * entrance, accessible toilet, each an icon with its words (the icon is
 * decorative); `null` when the data set says none of them.
 */
export function AccessFacts(
  { attraction, lang }: { attraction: Attraction; lang: Lang },
) {
  const { wheelchair, stepFreeEntrance, accessibleToilet } = attraction;
  const items = [
    wheelchair && {
      icon: "access" as const,
      key: "wheelchair",
      value: wheelchair,
      text: t(lang, "hours.wheelchair", { value: wheelchair }),
    },
    stepFreeEntrance !== undefined && {
      icon: "steps" as const,
      key: "step-free",
      value: stepFreeEntrance ? "yes" : "no",
      text: t(lang, "hours.stepFreeEntrance", {
        value: stepFreeEntrance ? "yes" : "no",
      }),
    },
    accessibleToilet !== undefined && {
      icon: "toilet" as const,
      key: "toilet",
      value: accessibleToilet ? "yes" : "no",
      text: t(lang, "hours.accessibleToilet", {
        value: accessibleToilet ? "yes" : "no",
      }),
    },
  ].filter((item) => !!item);
  if (items.length === 0) return null;
  return (
    <ul class="access-facts">
      {items.map((item) => (
        <li
          key={item.key}
          class={`access-facts__item access-facts__item--${item.value}`}
          data-access={item.key}
        >
          <Icon name={item.icon} /> {item.text}
        </li>
      ))}
    </ul>
  );
}
