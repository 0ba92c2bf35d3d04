/**
 * The events as iCalendar (`/turismo/eventos.ics`, `/turismo/eventos/<slug>.ics`),
 * read back by a real parser (ical.js): every event still to come with its
 * all-day dates (exclusive end), or its times on the municipality's clock
 * (TZID, with the zone's VTIMEZONE), a recurring one's RRULE expanding to
 * the occurrences the pages show; a UID that stays put, the texts escaped
 * and long lines folded at 75 octets; English under `/en/`; an unknown or
 * past event a 404; the practical information page links both.
 */
import assert from "node:assert/strict";
import ICAL from "ical.js";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { foldLine, listOccurrences } from "@/lib/events/mod.ts";
import {
  assertJson,
  createTestContext,
  getPage,
  mutateShipped,
  SHIPPED,
} from "../test_utils.ts";

// Noon in Tequila on 23 November 2026: Día de Muertos is over, six to come.
const NOW = new Date("2026-11-23T18:00:00Z");
const FERIA = "feria-nacional-del-tequila-2026";
const TRICKY = "Catas, charreadas; palenque\\jaripeo\ny «desfile» de carros, " +
  "con un texto largo que obliga a doblar la línea varias veces: ñandú, " +
  "acción, corazón, 🎉 fiesta en la plaza y más allá del recinto ferial.";

/** The calendar at `path`, checked for its headers, parsed by ical.js. */
async function getCalendar(
  app: { request(p: string): Response | Promise<Response> },
  path: string,
) {
  const res = await app.request(path);
  assert.equal(res.status, 200, path);
  assert.equal(
    res.headers.get("content-type"),
    "text/calendar; charset=utf-8",
  );
  assert.equal(res.headers.get("cache-control"), "public, max-age=900");
  const text = await res.text();
  const calendar = new ICAL.Component(ICAL.parse(text));
  // ical.js reads a TZID by the zones it was given: the feed's own.
  for (const vtimezone of calendar.getAllSubcomponents("vtimezone")) {
    ICAL.TimezoneService.register(vtimezone);
  }
  const events = calendar.getAllSubcomponents("vevent").map((v) => ({
    vevent: v,
    event: new ICAL.Event(v),
  }));
  return { text, calendar, events };
}

Deno.test("the events' iCalendar feeds", async (t) => {
  const data = await parseTourismData(mutateShipped((d) => {
    d.events.find((e: { slug: string }) => e.slug === FERIA).description =
      TRICKY;
  }));
  await using ctx = await createTestContext({
    clockStart: NOW,
    data: new DataStore(data, { onWarning: () => {} }),
  });
  const upcoming = SHIPPED.events.filter((e) => e.endDate >= "2026-11-23");
  const plaza = SHIPPED.attractions.find((a) => a.slug === "plaza-principal")!;

  await t.step("the feed has every event to come, none over", async () => {
    const { events, calendar } = await getCalendar(
      ctx.app,
      "/turismo/eventos.ics",
    );
    assert.equal(calendar.getFirstPropertyValue("version"), "2.0");
    assert.equal(events.length, upcoming.length);
    assert.equal(upcoming.length, 8);
    assert.deepEqual(
      events.map((e) => e.event.uid).sort(),
      upcoming.map((e) => `${e.slug}@localhost`).sort(),
    );
    assert.ok(!events.some((e) => e.event.uid.startsWith("dia-de-muertos")));
    for (const { event, vevent } of events) {
      const source = upcoming.find((e) => event.uid === `${e.slug}@localhost`)!;
      assert.equal(event.summary, source.name);
      assert.equal(event.location, source.place);
      if (source.startTime) continue; // Next step.
      assert.ok(event.startDate.isDate, "all-day start");
      assert.ok(event.endDate.isDate, "all-day end");
      assert.equal(event.startDate.toString(), source.startDate);
      // The end is exclusive: the day after the last one.
      const end = new Date(`${source.endDate}T00:00:00Z`);
      end.setUTCDate(end.getUTCDate() + 1);
      assert.equal(event.endDate.toString(), end.toISOString().slice(0, 10));
      assert.ok(vevent.getFirstPropertyValue("dtstamp"));
      assert.equal(
        vevent.getFirstPropertyValue("url"),
        `http://localhost/turismo/informacion-practica#evento-${source.slug}`,
      );
    }
  });

  await t.step(
    "times on the municipality's clock, and recurring events' occurrences as the pages list them",
    async () => {
      const { events, text } = await getCalendar(
        ctx.app,
        "/turismo/eventos.ics",
      );
      const byUid = (slug: string) =>
        events.find((e) => e.event.uid === `${slug}@localhost`)!.event;
      assert.match(text, /BEGIN:VTIMEZONE\r\nTZID:America\/Mexico_City\r\n/);
      // One day, 11:00 to 20:00 in Tequila (UTC-6).
      const day = byUid("dia-nacional-del-tequila-2027");
      assert.match(
        text,
        /DTSTART;TZID=America\/Mexico_City:20270320T110000\r\nDTEND;TZID=America\/Mexico_City:20270320T200000\r\n/,
      );
      assert.ok(!day.startDate.isDate);
      assert.equal(day.startDate.zone.tzid, "America/Mexico_City");
      assert.equal(
        day.startDate.toJSDate().toISOString(),
        "2027-03-20T17:00:00.000Z",
      );
      assert.equal(
        day.endDate.toJSDate().toISOString(),
        "2027-03-21T02:00:00.000Z",
      );
      assert.ok(!day.isRecurring());
      // All-day events stay dates.
      assert.ok(byUid(FERIA).startDate.isDate);

      const timeZone = SHIPPED.municipality.timeZone;
      for (
        const [slug, rrule, count] of [
          ["mercado-de-productores", "RRULE:FREQ=WEEKLY;BYDAY=SA", 6],
          // The first Friday, 4 Dec to 4 Jun: across six month boundaries.
          [
            "recorrido-leyendas-de-tequila",
            "RRULE:FREQ=MONTHLY;BYDAY=1FR;UNTIL=20270605T010000Z",
            7,
          ],
        ] as const
      ) {
        const event = byUid(slug);
        assert.ok(event.isRecurring(), slug);
        assert.ok(text.includes(`${rrule}\r\n`), rrule);
        const source = SHIPPED.events.find((e) => e.slug === slug)!;
        const pages = listOccurrences(source, { now: NOW, timeZone, count });
        const it = event.iterator();
        const parsed: { start: string; end: string }[] = [];
        for (
          let next = it.next();
          next && parsed.length < 10;
          next = it.next()
        ) {
          const details = event.getOccurrenceDetails(next);
          parsed.push({
            start: details.startDate.toJSDate().toISOString(),
            end: details.endDate.toJSDate().toISOString(),
          });
        }
        assert.deepEqual(
          parsed.slice(0, count),
          pages.map((o) => ({
            start: new Date(o.startMs).toISOString(),
            end: new Date(o.endMs).toISOString(),
          })),
          slug,
        );
        if (slug === "recorrido-leyendas-de-tequila") {
          assert.equal(parsed.length, 7, "none after until");
          assert.deepEqual(
            parsed.map((o) => o.start.slice(0, 10)),
            [
              "2026-12-05", // 19:00 on Friday 4 December in Tequila
              "2027-01-02",
              "2027-02-06",
              "2027-03-06",
              "2027-04-03",
              "2027-05-08",
              "2027-06-05",
            ],
          );
        } else {
          assert.equal(parsed[0].start, "2026-12-05T15:00:00.000Z");
          assert.equal(parsed[0].end, "2026-12-05T20:00:00.000Z");
        }
      }
    },
  );

  await t.step(
    "a description with commas, semicolons, a backslash and a newline reads back whole, folded at 75 octets",
    async () => {
      const { text, events } = await getCalendar(
        ctx.app,
        "/turismo/eventos.ics",
      );
      const feria = events.find((e) => e.event.uid === `${FERIA}@localhost`)!;
      assert.equal(feria.event.description, TRICKY);
      assert.ok(text.includes("\\;"), "semicolons escaped");
      assert.ok(text.includes("\\,"), "commas escaped");
      assert.ok(text.includes("\\\\"), "backslash escaped");
      assert.ok(text.includes("\\n"), "newline escaped");
      const encoder = new TextEncoder();
      const lines = text.split("\r\n");
      assert.equal(lines.pop(), "", "ends with CRLF");
      assert.ok(lines.some((l) => l.startsWith(" ")), "a line is folded");
      for (const line of lines) {
        assert.ok(encoder.encode(line).length <= 75, line);
        assert.ok(!line.includes("\uFFFD"), "no split character");
      }
      assert.equal(
        feria.vevent.getFirstPropertyValue("geo")?.toString(),
        [
          plaza.location.lat,
          plaza.location.lng,
        ].toString(),
      );
    },
  );

  await t.step("the UID stays the same across downloads and days", async () => {
    const first = await getCalendar(ctx.app, `/turismo/eventos/${FERIA}.ics`);
    ctx.clock.advance(3 * 86_400_000);
    const again = await getCalendar(ctx.app, `/turismo/eventos/${FERIA}.ics`);
    ctx.clock.advance(-3 * 86_400_000);
    assert.equal(first.events.length, 1);
    assert.equal(first.events[0].event.uid, `${FERIA}@localhost`);
    assert.equal(again.events[0].event.uid, first.events[0].event.uid);
  });

  await t.step(
    "English under /en/, with the data set's English texts",
    async () => {
      const { events, text } = await getCalendar(
        ctx.app,
        `/en/turismo/eventos/${FERIA}.ics`,
      );
      const source = upcoming.find((e) => e.slug === FERIA)!;
      assert.equal(events[0].event.summary, source.i18n!.en!.name);
      assert.match(text, /SUMMARY;LANGUAGE=en:/);
      assert.equal(
        events[0].vevent.getFirstPropertyValue("url"),
        `http://localhost/en/turismo/informacion-practica#evento-${FERIA}`,
      );
    },
  );

  await t.step(
    "an unknown or past event is a 404 {error, details}",
    async () => {
      for (
        const path of [
          "/turismo/eventos/no-existe.ics",
          "/turismo/eventos/dia-de-muertos-2026.ics",
          `/turismo/eventos/${FERIA}.txt`,
        ]
      ) {
        const res = await ctx.app.request(path);
        const body = await assertJson(res, 404);
        assert.equal(typeof body.error, "string", path);
        assert.match(body.details, /evento/, path);
      }
    },
  );

  await t.step(
    "the practical information page links each event's calendar and the feed",
    async () => {
      const { html } = await getPage(ctx, "/turismo/informacion-practica");
      for (const event of upcoming) {
        assert.ok(html.includes(`id="evento-${event.slug}"`), event.slug);
        assert.ok(
          html.includes(`href="/turismo/eventos/${event.slug}.ics"`),
          event.slug,
        );
      }
      assert.match(html, /Añadir al calendario/);
      assert.match(
        html,
        /<a href="\/turismo\/eventos\.ics">(?:(?!<\/a>).)*Suscríbete a los eventos<\/a>/s,
      );
      const en = await ctx.app.request("/en/turismo/informacion-practica");
      const enHtml = await en.text();
      assert.ok(enHtml.includes('href="/en/turismo/eventos.ics"'));
      assert.match(enHtml, /Subscribe to the events/);
    },
  );
});

Deno.test("foldLine never splits a UTF-8 character and keeps every octet", () => {
  const encoder = new TextEncoder();
  for (const filler of ["a", "ñ", "€", "🎉"]) {
    const line = `DESCRIPTION:${filler.repeat(200)}`;
    const folded = foldLine(line);
    const parts = folded.split("\r\n");
    for (const part of parts) assert.ok(encoder.encode(part).length <= 75);
    assert.equal(parts.map((p, i) => i ? p.slice(1) : p).join(""), line);
  }
});
