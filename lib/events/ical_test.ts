import assert from "node:assert/strict";
import ICAL from "ical.js";
import { buildCalendar } from "./ical.ts";
import { listOccurrences, type TourismEvent } from "./occurrences.ts";

function event(fields: Partial<TourismEvent>): TourismEvent {
  return {
    slug: "e",
    name: "e",
    description: "",
    place: "",
    startDate: "2027-03-27",
    endDate: "2027-03-27",
    ...fields,
  };
}

/** The feed of `e` in `timeZone`, parsed by ical.js, and its text. */
async function parse(e: TourismEvent, timeZone: string) {
  const text = await buildCalendar([{ event: e, url: "https://x.test/" }], {
    host: "x.test",
    name: "Eventos",
    now: new Date("2027-03-01T00:00:00Z"),
    lang: "es",
    timeZone,
  });
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.register(vtimezone);
  }
  return {
    text,
    vevent: new ICAL.Event(calendar.getFirstSubcomponent("vevent")!),
  };
}

/** The first `count` occurrences' starts, in UTC, as ical.js expands them. */
function expand(vevent: ICAL.Event, count: number): string[] {
  const it = vevent.iterator();
  const starts: string[] = [];
  for (let next = it.next(); next && starts.length < count; next = it.next()) {
    starts.push(next.toJSDate().toISOString());
  }
  return starts;
}

Deno.test("a daily tour in Madrid keeps its 10:00 across the change to summer time", async () => {
  const tour = event({
    startTime: "10:00",
    endTime: "12:00",
    recurrence: { frequency: "daily", until: "2027-03-29" },
  });
  const { text, vevent } = await parse(tour, "Europe/Madrid");
  assert.match(text, /BEGIN:VTIMEZONE\r\nTZID:Europe\/Madrid\r\n/);
  assert.match(text, /DTSTART;TZID=Europe\/Madrid:20270327T100000\r\n/);
  assert.match(text, /RRULE:FREQ=DAILY;UNTIL=20270329T080000Z\r\n/);
  const pages = listOccurrences(tour, {
    now: new Date("2027-03-26T00:00:00Z"),
    timeZone: "Europe/Madrid",
    count: 10,
  }).map((o) => new Date(o.startMs).toISOString());
  assert.deepEqual(expand(vevent, 10), pages);
  assert.deepEqual(pages, [
    "2027-03-27T09:00:00.000Z",
    "2027-03-28T08:00:00.000Z",
    "2027-03-29T08:00:00.000Z",
  ]);
});

Deno.test("an all-day weekly event: dates, and UNTIL as a date", async () => {
  const market = event({
    recurrence: {
      frequency: "weekly",
      weekdays: ["saturday", "sunday"],
      until: "2027-04-04",
    },
  });
  const { text, vevent } = await parse(market, "America/Mexico_City");
  assert.doesNotMatch(text, /VTIMEZONE/, "no zone for dates");
  assert.match(
    text,
    /DTSTART;VALUE=DATE:20270327\r\nDTEND;VALUE=DATE:20270328\r\nRRULE:FREQ=WEEKLY;BYDAY=SA,SU;UNTIL=20270404\r\n/,
  );
  const days: string[] = [];
  const it = vevent.iterator();
  for (let next = it.next(); next && days.length < 10; next = it.next()) {
    assert.ok(next.isDate);
    days.push(next.toString());
  }
  assert.deepEqual(days, [
    "2027-03-27",
    "2027-03-28",
    "2027-04-03",
    "2027-04-04",
  ]);
});

Deno.test("in UTC, times are written as UTC instants", async () => {
  const { text, vevent } = await parse(
    event({ startTime: "10:00", endTime: "12:30" }),
    "UTC",
  );
  assert.doesNotMatch(text, /VTIMEZONE|TZID/);
  assert.match(text, /DTSTART:20270327T100000Z\r\nDTEND:20270327T123000Z\r\n/);
  assert.equal(vevent.duration.toSeconds(), 9000);
});
