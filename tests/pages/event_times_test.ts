/**
 * Events with times and recurring events on the pages, in both languages,
 * through the page cache as the service serves them: an event that ends at
 * 13:00 in Tequila leaves the events list, the attraction page, the home
 * page's count and the feed within the cache's time of it (PAGE_TTL_MS,
 * 10 s), and a recurring event's "próxima" moves to its next date once an
 * occurrence ends. The shipped market is on Saturdays 09:00-14:00 from
 * 5 December 2026 at plaza-principal; this test adds a concert there on
 * that day, 11:00-13:00.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import {
  createTestContext,
  getPage,
  mutateShipped,
  type TestContext,
} from "../test_utils.ts";

const CONCERT = {
  slug: "concierto-banda-municipal",
  name: "Concierto de la Banda Municipal",
  description: "Sones y marchas en el kiosco.",
  startDate: "2026-12-05",
  endDate: "2026-12-05",
  startTime: "11:00",
  endTime: "13:00",
  place: "Kiosco de la Plaza Principal",
  attraction: "plaza-principal",
  i18n: {
    en: {
      name: "Town Band Concert",
      description: "Sones and marches at the bandstand.",
      place: "Bandstand on the Main Square",
    },
  },
};

/** Each listed event's chip (if any), its "when" line and its title. */
async function getEvents(ctx: TestContext, path: string) {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html><html lang="(?:es-MX|en-US)">/);
  return [
    ...html.matchAll(
      /<li class="event" id="evento-([^"]+)">(?:<p class="chip event__now">([^<]*)<\/p>)?<p class="event__date[^"]*">(?:<svg.*?<\/svg>)?([^<]*)<\/p>/gs,
    ),
  ].map(([, slug, chip, when]) => ({ slug, chip: chip ?? null, when }));
}

/** The home page's count of events to come. */
async function getHomeCount(ctx: TestContext): Promise<number> {
  const { html } = await getPage(ctx, "/");
  return Number(
    /#eventos">(?:(?!<\/a>).)*?(\d+) próximos? eventos?<\/a>/s.exec(html)![1],
  );
}

Deno.test("events with times and recurring events, in both languages and through the page cache", async (t) => {
  const data = await parseTourismData(
    mutateShipped((d) => d.events.push(CONCERT)),
  );
  await using ctx = await createTestContext({
    // 12:59:55 on Saturday 5 December in Tequila (UTC-6).
    clockStart: new Date("2026-12-05T18:59:55Z"),
    data: new DataStore(data, { onWarning: () => {} }),
    cachePages: true,
  });
  const count = await getHomeCount(ctx);

  await t.step("at 12:59 the concert and the market are on", async () => {
    const events = await getEvents(ctx, "/turismo/informacion-practica");
    assert.deepEqual(
      events.find((e) => e.slug === CONCERT.slug),
      {
        slug: CONCERT.slug,
        chip: "En curso",
        when: "5 dic 2026, 11:00–13:00",
      },
    );
    assert.deepEqual(events.find((e) => e.slug === "mercado-de-productores"), {
      slug: "mercado-de-productores",
      chip: "En curso",
      when: "Todos los sábados, 09:00–14:00 · en curso: sábado 5 de diciembre",
    });
    const en = await getEvents(ctx, "/en/turismo/informacion-practica");
    assert.deepEqual(en.find((e) => e.slug === CONCERT.slug), {
      slug: CONCERT.slug,
      chip: "Happening now",
      when: "Dec 5, 2026, 11:00 AM–1:00 PM",
    });
    assert.deepEqual(
      en.find((e) => e.slug === "recorrido-leyendas-de-tequila"),
      {
        slug: "recorrido-leyendas-de-tequila",
        chip: null,
        when:
          "The first Friday of every month, 7:00 PM–9:00 PM · next: Friday, January 1, 2027 · until Friday, June 4, 2027",
      },
    );
    const plaza = await getPage(ctx, "/turismo/atractivos/plaza-principal");
    assert.match(
      plaza.html,
      /<strong>Concierto de la Banda Municipal<\/strong> \(en curso, 5 dic 2026, 11:00–13:00\)/,
    );
    // A recurring event's line says it is on once.
    assert.match(
      plaza.html,
      /<strong>Mercado de productores del valle<\/strong> \(Todos los sábados, 09:00–14:00 · en curso: sábado 5 de diciembre\)/,
    );
    const res = await ctx.app.request(
      `/turismo/eventos/${CONCERT.slug}.ics`,
    );
    assert.equal(res.status, 200);
    await res.body?.cancel();
  });

  await t.step(
    "at 13:00:06, past the cache's 10 s, the concert is gone everywhere",
    async () => {
      ctx.clock.advance(11_000);
      const events = await getEvents(ctx, "/turismo/informacion-practica");
      assert.ok(events.length > 0);
      assert.ok(!events.some((e) => e.slug === CONCERT.slug));
      const en = await getEvents(ctx, "/en/turismo/informacion-practica");
      assert.ok(!en.some((e) => e.slug === CONCERT.slug));
      const plaza = await getPage(ctx, "/turismo/atractivos/plaza-principal");
      assert.doesNotMatch(plaza.html, /Concierto de la Banda Municipal/);
      assert.equal(await getHomeCount(ctx), count - 1);
      const res = await ctx.app.request(
        `/turismo/eventos/${CONCERT.slug}.ics`,
      );
      assert.equal(res.status, 404);
      await res.body?.cancel();
    },
  );

  await t.step(
    "at 14:01 the market's next date is the following Saturday",
    async () => {
      ctx.clock.advance(61 * 60_000);
      const events = await getEvents(ctx, "/turismo/informacion-practica");
      assert.deepEqual(
        events.find((e) => e.slug === "mercado-de-productores"),
        {
          slug: "mercado-de-productores",
          chip: null,
          when:
            "Todos los sábados, 09:00–14:00 · próxima: sábado 12 de diciembre",
        },
      );
      const en = await getEvents(ctx, "/en/turismo/informacion-practica");
      assert.equal(
        en.find((e) => e.slug === "mercado-de-productores")?.when,
        "Every Saturday, 9:00 AM–2:00 PM · next: Saturday, December 12",
      );
      // Still listed, so still counted: a recurring event is not over.
      assert.equal(await getHomeCount(ctx), count - 1);
    },
  );
});
