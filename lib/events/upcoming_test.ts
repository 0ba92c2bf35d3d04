import assert from "node:assert/strict";
import { getLocalDate } from "@/lib/calendar/mod.ts";
import { getUpcomingEvents, type TourismEvent } from "./upcoming.ts";

const TZ = "America/Mexico_City";

function event(
  slug: string,
  startDate: string,
  endDate: string,
  attraction?: string,
): TourismEvent {
  return {
    slug,
    name: slug,
    description: "",
    place: "",
    startDate,
    endDate,
    ...(attraction ? { attraction } : {}),
  };
}

const EVENTS = [
  event("later", "2026-12-16", "2026-12-24"),
  event("over", "2026-10-31", "2026-11-02", "plaza"),
  event("on-now", "2026-11-20", "2026-11-25", "plaza"),
  event("same-start-shorter", "2026-12-16", "2026-12-17"),
  event("one-day", "2026-11-23", "2026-11-23"),
];

Deno.test("the local date turns at the time zone's midnight", () => {
  assert.equal(
    getLocalDate(new Date("2026-11-23T05:59:00Z"), TZ),
    "2026-11-22",
  );
  assert.equal(
    getLocalDate(new Date("2026-11-23T06:00:00Z"), TZ),
    "2026-11-23",
  );
  assert.equal(
    getLocalDate(new Date("2026-11-23T05:59:00Z"), "UTC"),
    "2026-11-23",
  );
});

Deno.test("upcoming: not over in the municipality, soonest first, ongoing marked", () => {
  // 18:00 on 23 November in Mexico City (already the 24th in UTC).
  const now = new Date("2026-11-24T00:00:00Z");
  assert.deepEqual(
    getUpcomingEvents(EVENTS, { now, timeZone: TZ }).map((
      { event, ongoing },
    ) => [event.slug, ongoing]),
    [
      ["on-now", true],
      ["one-day", true],
      ["same-start-shorter", false],
      ["later", false],
    ],
  );
  // The same instant read in UTC is the 24th: the one-day event would be over.
  assert.ok(
    !getUpcomingEvents(EVENTS, { now, timeZone: "UTC" }).some((e) =>
      e.event.slug === "one-day"
    ),
  );
});

Deno.test("upcoming at one attraction; nothing once all are over", () => {
  const now = new Date("2026-11-23T18:00:00Z");
  assert.deepEqual(
    getUpcomingEvents(EVENTS, { now, timeZone: TZ, attraction: "plaza" })
      .map((e) => e.event.slug),
    ["on-now"],
  );
  assert.deepEqual(
    getUpcomingEvents(EVENTS, {
      now: new Date("2027-01-01T12:00:00Z"),
      timeZone: TZ,
    }),
    [],
  );
});
