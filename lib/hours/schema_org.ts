/**
 * The days' hours as schema.org's `OpeningHoursSpecification`, one per day
 * from today, each valid that day only (so a holiday or a season is said as
 * it falls): opens and closes on the 24-hour clock; a day open at all hours
 * is 00:00 to 23:59, a closed day 00:00 to 00:00 (schema.org's way).
 */
import type { ClockTime, DayHours } from "./opening_hours.ts";

const DAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
];

const clock = ({ hour, minute }: ClockTime) =>
  `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;

export function toOpeningHoursSpecification(
  days: DayHours[],
): ({ "@type": "OpeningHoursSpecification" } & Record<string, string>)[] {
  return days.flatMap((row) => {
    const base = {
      "@type": "OpeningHoursSpecification" as const,
      dayOfWeek: `https://schema.org/${DAYS[row.weekday]}`,
      validFrom: row.day,
      validThrough: row.day,
    };
    if (row.allDay) return [{ ...base, opens: "00:00", closes: "23:59" }];
    if (row.openings.length === 0) {
      return [{ ...base, opens: "00:00", closes: "00:00" }];
    }
    return row.openings.map(({ from, to }) => ({
      ...base,
      opens: clock(from),
      closes: clock(to),
    }));
  });
}
