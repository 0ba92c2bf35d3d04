import assert from "node:assert/strict";
import { getUpcomingEvents, type TourismEvent } from "./upcoming.ts";
import { describeWhen } from "./when.ts";

const TZ = "America/Mexico_City";
// Wednesday 2 December 2026, noon in Tequila.
const NOW = new Date("2026-12-02T18:00:00Z");

function when(fields: Partial<TourismEvent>, lang: "es" | "en"): string {
  const [upcoming] = getUpcomingEvents([{
    slug: "e",
    name: "e",
    description: "",
    place: "",
    startDate: "2026-12-05",
    endDate: "2026-12-05",
    ...fields,
  }], { now: NOW, timeZone: TZ });
  return describeWhen(upcoming, { lang, now: NOW, timeZone: TZ });
}

Deno.test("one-off events: days, or days and times", () => {
  assert.equal(when({}, "es"), "5 dic 2026");
  assert.equal(
    when({ startTime: "10:00", endTime: "13:00" }, "es"),
    "5 dic 2026, 10:00–13:00",
  );
  assert.equal(
    when({ startTime: "10:00", endTime: "13:00" }, "en"),
    "Dec 5, 2026, 10:00 AM–1:00 PM",
  );
  assert.equal(
    when({ endDate: "2026-12-06", startTime: "20:00", endTime: "02:00" }, "es"),
    "5 dic 2026, 20:00 – 6 dic 2026, 02:00",
  );
});

Deno.test("recurring events: the rule, the times, the next date and the last", () => {
  const market = {
    startTime: "10:00",
    endTime: "13:00",
    recurrence: {
      frequency: "weekly" as const,
      weekdays: ["saturday" as const],
    },
  };
  assert.equal(
    when(market, "es"),
    "Todos los sábados, 10:00–13:00 · próxima: sábado 5 de diciembre",
  );
  assert.equal(
    when(market, "en"),
    "Every Saturday, 10:00 AM–1:00 PM · next: Saturday, December 5",
  );
  assert.equal(
    when({
      startDate: "2026-12-04",
      endDate: "2026-12-04",
      recurrence: {
        frequency: "monthly",
        week: 1,
        weekday: "friday",
        until: "2027-06-04",
      },
    }, "es"),
    "El primer viernes de cada mes · próxima: viernes 4 de diciembre · hasta el viernes 4 de junio de 2027",
  );
  assert.equal(
    when({
      startDate: "2026-12-15",
      endDate: "2026-12-15",
      recurrence: { frequency: "monthly", monthDay: 15 },
    }, "en"),
    "On the 15th of every month · next: Tuesday, December 15",
  );
  assert.equal(
    when({
      startDate: "2026-12-05",
      endDate: "2026-12-05",
      recurrence: { frequency: "weekly", weekdays: ["saturday", "sunday"] },
    }, "es"),
    "Todos los sábados y domingos · próxima: sábado 5 de diciembre",
  );
  assert.equal(
    when({
      startDate: "2026-12-02",
      endDate: "2026-12-02",
      startTime: "09:00",
      endTime: "19:00",
      recurrence: { frequency: "daily" },
    }, "es"),
    "Todos los días, 09:00–19:00 · en curso: miércoles 2 de diciembre",
  );
});
