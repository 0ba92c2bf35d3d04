/**
 * Opening hours evaluated in the municipality's zone and said in words:
 * across a closing, at midnight and into the next days, in both languages.
 */
import assert from "node:assert/strict";
import { getLocalInstantMs } from "@/lib/calendar/mod.ts";
import {
  checkOpeningHours,
  describeHoursStatus,
  describePlaceHours,
  describeWeek,
  formatClock,
  formatHoursLine,
  getDaysHours,
  getHoursStatus,
} from "./mod.ts";

const TEQUILA = {
  timeZone: "America/Mexico_City",
  state: "Jalisco",
  center: { lat: 20.8823, lng: -103.8363 },
};
/** A zone far from the process's (UTC) and from Tequila's. */
const TOKYO = { ...TEQUILA, timeZone: "Asia/Tokyo" };

/** Epoch ms of a wall-clock time in `timeZone` ("2026-12-02T17:59:59"). */
const at = (wall: string, timeZone = TEQUILA.timeZone) =>
  getLocalInstantMs(wall.slice(0, 10), wall.slice(11), timeZone);

/** The line said at `wall` for `expression`. */
function line(
  expression: string,
  wall: string,
  { lang = "es", municipality = TEQUILA } = {},
): string {
  const now = at(wall, municipality.timeZone);
  return formatHoursLine(
    describePlaceHours(expression, { now, municipality, lang }).line,
  );
}

Deno.test("the line flips at the closing minute, in the municipality's zone", () => {
  // Wednesday 2 December 2026.
  const hours = "Mo-Fr 09:00-18:00";
  assert.equal(
    line(hours, "2026-12-02T17:59:59"),
    "Abierto ahora · cierra a las 18:00",
  );
  assert.equal(
    line(hours, "2026-12-02T18:00:00"),
    "Cerrado · abre mañana a las 9:00",
  );
  assert.equal(
    line(hours, "2026-12-02T17:59:59", { lang: "en" }),
    "Open now · closes at 6:00 p.m.",
  );
  assert.equal(
    line(hours, "2026-12-02T18:00:00", { lang: "en" }),
    "Closed · opens tomorrow at 9:00 a.m.",
  );
  // The same wall clock in another zone: the process's own zone plays no part.
  assert.equal(
    line(hours, "2026-12-02T17:59:59", { municipality: TOKYO }),
    "Abierto ahora · cierra a las 18:00",
  );
  const status = getHoursStatus(hours, {
    now: at("2026-12-02T12:00:00"),
    timeZone: TEQUILA.timeZone,
  });
  assert.equal(status.open, true);
  assert.equal(status.nextChangeMs, at("2026-12-02T18:00:00"));
});

Deno.test("before opening, after the weekend, at and past midnight", () => {
  const hours = "Mo-Fr 09:00-18:00";
  assert.equal(
    line(hours, "2026-12-02T08:30:00"),
    "Cerrado · abre hoy a las 9:00",
  );
  // Friday evening: Monday is named by its weekday.
  assert.equal(
    line(hours, "2026-12-04T19:00:00"),
    "Cerrado · abre el lunes a las 9:00",
  );
  assert.equal(
    line(hours, "2026-12-04T19:00:00", { lang: "en" }),
    "Closed · opens Monday at 9:00 a.m.",
  );
  // Just before and at midnight: "mañana" becomes "hoy".
  assert.equal(
    line(hours, "2026-12-02T23:59:59"),
    "Cerrado · abre mañana a las 9:00",
  );
  assert.equal(
    line(hours, "2026-12-03T00:00:00"),
    "Cerrado · abre hoy a las 9:00",
  );
  // Open past midnight: closes "mañana a la 1:00", then "a la 1:00".
  assert.equal(
    line("Tu-Su 13:00-01:00", "2026-12-02T23:30:00"),
    "Abierto ahora · cierra mañana a la 1:00",
  );
  assert.equal(
    line("Tu-Su 13:00-01:00", "2026-12-03T00:30:00"),
    "Abierto ahora · cierra a la 1:00",
  );
  assert.equal(
    line("Tu-Su 13:00-01:00", "2026-12-03T00:30:00", { lang: "en" }),
    "Open now · closes at 1:00 a.m.",
  );
  // Closing at midnight is the day's own midnight.
  assert.equal(
    line("Mo-Su 18:00-24:00", "2026-12-02T23:00:00"),
    "Abierto ahora · cierra a medianoche",
  );
  // Opening at tonight's midnight, and at a later one, named by its own day.
  assert.equal(
    line("Th 00:00-06:00", "2026-12-02T22:00:00"),
    "Cerrado · abre a medianoche",
  );
  assert.equal(
    line("Th 00:00-06:00", "2026-12-02T22:00:00", { lang: "en" }),
    "Closed · opens at midnight",
  );
  assert.equal(
    line("Mo 00:00-06:00", "2026-12-04T19:00:00"),
    "Cerrado · abre el lunes a las 0:00",
  );
  assert.equal(
    line("Fr 00:00-06:00", "2026-12-02T10:00:00", { lang: "en" }),
    "Closed · opens Friday at 12:00 a.m.",
  );
  assert.equal(line("24/7", "2026-12-02T03:00:00"), "Abierto las 24 horas");
  // Closed for a season: the date it opens.
  assert.equal(
    line("Jan-Nov Mo-Su 10:00-17:00", "2026-12-02T12:00:00"),
    "Cerrado · abre el 1 de enero a las 10:00",
  );
});

Deno.test("the page's line holds until the next change or the next midnight", () => {
  const open = describePlaceHours("Mo-Su 09:00-18:00", {
    now: at("2026-12-02T12:00:00"),
    municipality: TEQUILA,
    lang: "es",
  });
  assert.equal(open.validUntilMs, at("2026-12-02T18:00:00"));
  const evening = describePlaceHours("Mo-Su 09:00-18:00", {
    now: at("2026-12-02T20:00:00"),
    municipality: TEQUILA,
    lang: "es",
  });
  assert.equal(evening.validUntilMs, at("2026-12-03T00:00:00"));
  const always = describePlaceHours("24/7", {
    now: at("2026-12-02T20:00:00"),
    municipality: TEQUILA,
    lang: "es",
  });
  assert.equal(always.validUntilMs, at("2026-12-03T00:00:00"));
});

Deno.test("the days from today, a Mexican holiday and a night past midnight", () => {
  // Friday 25 December 2026 is Christmas: "PH off" closes it.
  const days = getDaysHours("Mo-Fr 09:00-15:00; PH off", {
    now: at("2026-12-23T10:00:00"),
    timeZone: TEQUILA.timeZone,
    place: { ...TEQUILA.center, state: TEQUILA.state },
  });
  assert.deepEqual(
    days.map((d) => [d.day, d.openings.length]),
    [
      ["2026-12-23", 1],
      ["2026-12-24", 1],
      ["2026-12-25", 0],
      ["2026-12-26", 0],
      ["2026-12-27", 0],
      ["2026-12-28", 1],
      ["2026-12-29", 1],
    ],
  );
  assert.equal(
    describeWeek(days, "es"),
    "miércoles y jueves: 9:00 a 15:00; viernes a domingo: cerrado; lunes y martes: 9:00 a 15:00",
  );
  // A night past midnight belongs to the day it opens.
  const nights = getDaysHours("Tu-Su 20:00-02:00", {
    now: at("2026-12-07T12:00:00"),
    timeZone: TEQUILA.timeZone,
    days: 2,
  });
  assert.deepEqual(nights.map((d) => d.openings), [
    [],
    [{
      from: { hour: 20, minute: 0 },
      to: { hour: 2, minute: 0 },
      nextDay: true,
    }],
  ]);
  assert.equal(
    describeWeek(nights, "en"),
    "Monday: closed; Tuesday: 8:00 p.m. to 2:00 a.m.",
  );
});

Deno.test("a status with nothing ahead says only the state", () => {
  const line = describeHoursStatus({ open: false, alwaysOpen: false }, {
    now: 0,
    timeZone: TEQUILA.timeZone,
    lang: "es",
  });
  assert.equal(formatHoursLine(line), "Cerrado");
});

Deno.test("clock times: 24-hour in Spanish, a.m./p.m. in English", () => {
  assert.equal(formatClock({ hour: 9, minute: 0 }, "es"), "9:00");
  assert.equal(formatClock({ hour: 18, minute: 30 }, "es"), "18:30");
  assert.equal(formatClock({ hour: 18, minute: 30 }, "en"), "6:30 p.m.");
  assert.equal(formatClock({ hour: 0, minute: 15 }, "en"), "12:15 a.m.");
});

Deno.test("the syntax check explains in Spanish, and accepts OSM's forms", () => {
  assert.equal(
    checkOpeningHours("Mo-Fr 09:00-14:00,16:00-19:00; PH off"),
    undefined,
  );
  assert.equal(checkOpeningHours("24/7"), undefined);
  assert.match(
    checkOpeningHours("Mo-Fx 09:00-18:00")!,
    /^horario no válido en la sintaxis opening_hours de OpenStreetMap \(se entiende hasta «Mo-F»\); ejemplos: /,
  );
  assert.match(
    checkOpeningHours("Lunes a viernes 9-18")!,
    /escríbelo así, "Mo-Fr 09:00-18:00"/,
  );
});
