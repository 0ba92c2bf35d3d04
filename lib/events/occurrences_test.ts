import assert from "node:assert/strict";
import { listOccurrences } from "./occurrences.ts";
import { getUpcomingEvents, type TourismEvent } from "./upcoming.ts";

const TZ = "America/Mexico_City"; // UTC-6 all year since 2022

function event(fields: Partial<TourismEvent>): TourismEvent {
  return {
    slug: "e",
    name: "e",
    description: "",
    place: "",
    startDate: "2026-12-05",
    endDate: "2026-12-05",
    ...fields,
  };
}

/** The occurrences' first days and their start and end instants, in UTC. */
function list(e: TourismEvent, now: string, count = 10): string[] {
  return listOccurrences(e, { now: new Date(now), timeZone: TZ, count }).map(
    (o) =>
      `${o.startDate} ${new Date(o.startMs).toISOString()} ${
        new Date(o.endMs).toISOString()
      }`,
  );
}

Deno.test("a weekly event across a month boundary, on two weekdays", () => {
  const market = event({
    startDate: "2026-11-28",
    endDate: "2026-11-28",
    startTime: "09:00",
    endTime: "14:00",
    recurrence: { frequency: "weekly", weekdays: ["saturday", "sunday"] },
  });
  assert.deepEqual(list(market, "2026-11-25T12:00:00Z", 5), [
    "2026-11-28 2026-11-28T15:00:00.000Z 2026-11-28T20:00:00.000Z",
    "2026-11-29 2026-11-29T15:00:00.000Z 2026-11-29T20:00:00.000Z",
    "2026-12-05 2026-12-05T15:00:00.000Z 2026-12-05T20:00:00.000Z",
    "2026-12-06 2026-12-06T15:00:00.000Z 2026-12-06T20:00:00.000Z",
    "2026-12-12 2026-12-12T15:00:00.000Z 2026-12-12T20:00:00.000Z",
  ]);
});

Deno.test("a monthly event: the nth weekday, a day of the month, until", () => {
  const walk = event({
    startDate: "2026-12-04",
    endDate: "2026-12-04",
    recurrence: {
      frequency: "monthly",
      week: 1,
      weekday: "friday",
      until: "2027-03-05",
    },
  });
  assert.deepEqual(
    list(walk, "2026-12-10T12:00:00Z").map((o) => o.slice(0, 10)),
    ["2027-01-01", "2027-02-05", "2027-03-05"],
  );
  // Day 31: the months without one are skipped.
  const last = event({
    startDate: "2026-12-31",
    endDate: "2026-12-31",
    recurrence: { frequency: "monthly", monthDay: 31 },
  });
  assert.deepEqual(
    list(last, "2026-12-10T12:00:00Z", 4).map((o) => o.slice(0, 10)),
    ["2026-12-31", "2027-01-31", "2027-03-31", "2027-05-31"],
  );
});

Deno.test("an event that ends today at 13:00 is on at 12:59 and gone at 13:01", () => {
  const concert = event({ startTime: "11:00", endTime: "13:00" });
  const at = (local: string) =>
    getUpcomingEvents([concert], {
      now: new Date(`2026-12-05T${local}:00-06:00`),
      timeZone: TZ,
    });
  assert.deepEqual(at("10:59").map((e) => e.ongoing), [false]);
  assert.deepEqual(at("12:59").map((e) => e.ongoing), [true]);
  assert.deepEqual(at("13:00"), []);
  assert.deepEqual(at("13:01"), []);
  // Its times are the municipality's: read on UTC's clock, it would have
  // ended six hours earlier.
  assert.equal(
    getUpcomingEvents([concert], {
      now: new Date("2026-12-05T12:59:00-06:00"),
      timeZone: "UTC",
    }).length,
    0,
  );
});

Deno.test("a recurring event: a past occurrence gives way to the next, then none after until", () => {
  const market = event({
    startTime: "09:00",
    endTime: "14:00",
    recurrence: {
      frequency: "weekly",
      weekdays: ["saturday"],
      until: "2026-12-12",
    },
  });
  const at = (iso: string) =>
    getUpcomingEvents([market], { now: new Date(iso), timeZone: TZ }).map((
      e,
    ) => `${e.next.startDate} ${e.ongoing}`);
  assert.deepEqual(at("2026-12-05T13:59:00-06:00"), ["2026-12-05 true"]);
  assert.deepEqual(at("2026-12-05T14:01:00-06:00"), ["2026-12-12 false"]);
  assert.deepEqual(at("2026-12-12T14:00:00-06:00"), []);
});

Deno.test("an occurrence past midnight is on after it, until its end on the next day", () => {
  const night = event({
    startDate: "2026-12-05",
    endDate: "2026-12-06",
    startTime: "22:00",
    endTime: "02:00",
    recurrence: { frequency: "weekly", weekdays: ["saturday"] },
  });
  const on = getUpcomingEvents([night], {
    now: new Date("2026-12-06T01:30:00-06:00"),
    timeZone: TZ,
  });
  assert.equal(on[0].next.startDate, "2026-12-05");
  assert.equal(on[0].next.endDate, "2026-12-06");
  assert.ok(on[0].ongoing);
  const after = getUpcomingEvents([night], {
    now: new Date("2026-12-06T02:00:00-06:00"),
    timeZone: TZ,
  });
  assert.equal(after[0].next.startDate, "2026-12-12");
});

Deno.test("times follow the zone's daylight saving", () => {
  // 10:00 in Madrid: UTC+1 in March before the change, UTC+2 after it.
  const tour = event({
    startDate: "2027-03-27",
    endDate: "2027-03-27",
    startTime: "10:00",
    endTime: "12:00",
    recurrence: { frequency: "daily" },
  });
  const starts = listOccurrences(tour, {
    now: new Date("2027-03-26T12:00:00Z"),
    timeZone: "Europe/Madrid",
    count: 2,
  }).map((o) => new Date(o.startMs).toISOString());
  assert.deepEqual(starts, [
    "2027-03-27T09:00:00.000Z",
    "2027-03-28T08:00:00.000Z",
  ]);
});
