/**
 * Events never listed as coming once they are over: the practical
 * information page (its list) and the home page (its count), the
 * attraction pages and the chat's prompt, on the test clock, with the day
 * turning at the municipality's midnight (not UTC's). The shipped data set
 * has Día de Muertos 2026 (31 Oct to 2 Nov, at plaza-principal) and eight
 * later events, the first the Feria Nacional del Tequila (28 Nov to 13 Dec,
 * also at plaza-principal); two of them recur at plaza-principal: a market
 * every Saturday 09:00-14:00 from 5 Dec and a night walk the first Friday
 * of each month 19:00-21:00 from 4 Dec to 4 Jun 2027.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  createTestContext,
  getPage,
  mutateShipped,
  postJson,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const MUERTOS = "Día de Muertos 2026";
const FERIA = "Feria Nacional del Tequila 2026";
const MERCADO = "Mercado de productores del valle";
const RECORRIDO = "Recorrido nocturno «Leyendas de Tequila»";

/**
 * The events' titles, in order, as the practical information page lists
 * them (`html` is that page), and the count the home page's link to them says.
 */
async function getHomeEvents(ctx: TestContext) {
  const { html } = await getPage(ctx, "/turismo/informacion-practica");
  const titles = [...html.matchAll(/<h3 class="event__title">([^<]*)<\/h3>/g)]
    .map((m) => m[1]);
  const home = (await getPage(ctx, "/")).html;
  const count = /#eventos">(?:(?!<\/a>).)*?(\d+) próximos? eventos?<\/a>/s
    .exec(home)?.[1];
  return { html, titles, count: count === undefined ? null : Number(count) };
}

/** What plaza-principal's page says under its events heading ("" without one). */
async function getPlazaEvents(ctx: TestContext): Promise<string> {
  const { html } = await getPage(ctx, "/turismo/atractivos/plaza-principal");
  return /Próximos eventos en este lugar<\/h2>(.*?)<\/section>/s.exec(html)
    ?.[1] ?? "";
}

Deno.test("three weeks after Día de Muertos: only the events to come", async (t) => {
  // Noon in Tequila on 23 November 2026.
  await using ctx = await createTestContext({
    clockStart: new Date("2026-11-23T18:00:00Z"),
  });

  await t.step(
    "the home page lists the eight to come and counts eight",
    async () => {
      const { titles, count, html } = await getHomeEvents(ctx);
      assert.equal(titles.length, 8);
      assert.equal(count, titles.length, "the count is what is listed");
      assert.ok(!titles.includes(MUERTOS));
      assert.equal(titles[0], FERIA);
      assert.doesNotMatch(html, /eventos al año/);
      assert.doesNotMatch(html, /En curso/);
      const shipped = SHIPPED.events.filter((e) => e.endDate >= "2026-11-23");
      assert.deepEqual(
        titles.toSorted(),
        shipped.map((e) => e.name).toSorted(),
      );
    },
  );

  await t.step(
    "plaza-principal's page lists the Feria but not Día de Muertos",
    async () => {
      const events = await getPlazaEvents(ctx);
      assert.match(events, new RegExp(`<strong>${FERIA}</strong> \\(28 nov`));
      assert.ok(!events.includes(MUERTOS));
    },
  );

  await t.step(
    "after the Feria, plaza-principal lists its recurring events by their next date",
    async () => {
      ctx.clock.advance(30 * 86_400_000); // Wednesday 23 December
      const events = await getPlazaEvents(ctx);
      assert.ok(!events.includes(FERIA));
      assert.match(
        events,
        new RegExp(
          `<strong>${MERCADO}</strong> \\(Todos los sábados, 09:00–14:00 · próxima: sábado 26 de diciembre\\)`,
        ),
      );
      assert.match(
        events,
        new RegExp(
          `<strong>${RECORRIDO}</strong> \\(El primer viernes de cada mes, 19:00–21:00 · próxima: viernes 1 de enero de 2027 · hasta el viernes 4 de junio de 2027\\)`,
        ),
      );
    },
  );

  await t.step("an attraction with only past events shows none", async () => {
    ctx.clock.advance(89 * 86_400_000); // 22 March 2027
    const { html } = await getPage(
      ctx,
      "/turismo/atractivos/museo-nacional-del-tequila",
    );
    assert.doesNotMatch(html, /eventos-title/);
    assert.doesNotMatch(html, /Día Nacional del Tequila 2027/);
  });
});

Deno.test("an event is on until its last day ends in the municipality", async (t) => {
  // 23:30 on 2 November in Tequila: already 3 November in UTC.
  await using ctx = await createTestContext({
    clockStart: new Date("2026-11-03T05:30:00Z"),
  });

  await t.step("on its last evening it is listed, as on now", async () => {
    const { titles, count, html } = await getHomeEvents(ctx);
    assert.equal(titles[0], MUERTOS);
    assert.equal(count, 9);
    assert.match(
      html,
      /<p class="chip event__now">En curso<\/p><p class="event__date">.*?31 oct – 2 nov 2026<\/p><h3 class="event__title">Día de Muertos 2026/,
    );
    assert.match(
      await getPlazaEvents(ctx),
      /<strong>Día de Muertos 2026<\/strong> \(en curso, 31 oct – 2 nov 2026\)/,
    );
  });

  await t.step(
    "an hour later, at midnight in Tequila, it is gone",
    async () => {
      ctx.clock.advance(60 * 60 * 1000);
      const { titles, count } = await getHomeEvents(ctx);
      assert.ok(!titles.includes(MUERTOS));
      assert.equal(count, 8);
      assert.ok(!(await getPlazaEvents(ctx)).includes(MUERTOS));
    },
  );
});

Deno.test("when every event is over the events list says so and the home page counts none", async () => {
  // The shipped market recurs with no end: without it, all are over in 2028.
  const data = await parseTourismData(mutateShipped((d) => {
    d.events = d.events.filter((e: { slug: string }) =>
      e.slug !== "mercado-de-productores"
    );
  }));
  await using ctx = await createTestContext({
    clockStart: new Date("2028-01-15T18:00:00Z"),
    data: new DataStore(data, { onWarning: () => {} }),
  });
  const { titles, count, html } = await getHomeEvents(ctx);
  assert.deepEqual(titles, []);
  assert.equal(count, null, "no count of zero events on the home page");
  // The section stays (the footer links to it) and says why it is empty.
  assert.match(
    html,
    /<h2 id="eventos-title">(?:(?!<\/h2>).)*Próximos eventos<\/h2><p>Por ahora no hay eventos próximos en la agenda\./s,
  );
});

Deno.test("the chat's prompt never offers an event that is over", async (t) => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    // 23:30 on 2 November in Tequila.
    clockStart: new Date("2026-11-03T05:30:00Z"),
    env: { TRUST_PROXY: "true" },
    openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
  });
  let ip = 0;
  /** The two system messages the model got for one question. */
  async function ask(): Promise<{ prompt: string; context: string }> {
    const res = await postJson(ctx, "/api/chat", {
      message: "¿Qué eventos hay?",
    }, { "x-forwarded-for": `203.0.113.${++ip}` });
    assert.equal(res.status, 200, await res.text());
    const [prompt, context] = fake.lastRequest().body.messages;
    return { prompt: prompt.content, context: context.content };
  }

  await t.step("on its last evening Día de Muertos is on today", async () => {
    const { prompt, context } = await ask();
    assert.match(
      prompt,
      /## Próximos eventos\n.*\n- \*\*Día de Muertos 2026\*\* \| 2026-10-31 a 2026-11-02/,
    );
    assert.match(context, /Eventos en curso hoy: Día de Muertos 2026\./);
    assert.match(
      context,
      /Próximos eventos \(45 días\): Feria Nacional del Tequila 2026 \(desde 2026-11-28\), Recorrido nocturno «Leyendas de Tequila» \(se repite; la próxima, el 2026-12-04\), Mercado de productores del valle \(se repite; la próxima, el 2026-12-05\), Posadas/,
    );
  });

  await t.step("three weeks later it is gone from both messages", async () => {
    ctx.clock.advance(21 * 86_400_000);
    const { prompt, context } = await ask();
    assert.ok(!prompt.includes(MUERTOS), "not in the calendar");
    assert.ok(!context.includes(MUERTOS), "not on today");
    assert.doesNotMatch(context, /Eventos en curso hoy/);
    const listed = prompt.split("## Próximos eventos\n")[1].split("\n\n")[0]
      .split("\n").filter((line) => line.startsWith("- **"));
    assert.equal(listed.length, 8);
    assert.match(listed[0], /^- \*\*Feria Nacional del Tequila 2026\*\*/);
  });
});
