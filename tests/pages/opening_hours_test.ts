/**
 * Opening hours and access on the public pages: the attraction page says
 * whether the place is open now and shows the days' hours and its access;
 * the list shows each place's state and filters by open now and by
 * wheelchair access. Pages are kept in the page cache and replayed whole:
 * the state must flip at the very minute it changes, not a TTL later.
 */
import assert from "node:assert/strict";
import { PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import {
  createTestContext,
  getPage,
  mutateShipped,
  type TestContext,
} from "../test_utils.ts";

/** Wednesday 2 December 2026, 17:59:55 in Tequila (UTC-6, no daylight saving). */
const BEFORE_SIX = new Date("2026-12-02T23:59:55Z");
/** La Vega's hot springs: "Mo,We-Su 09:00-18:00" (closed on Tuesdays). */
const SPRINGS = "/turismo/atractivos/balneario-termal-la-vega";
const CONNECTION = { remoteAddr: { hostname: "203.0.113.7", port: 5000 } };

/** A GET as `Deno.serve` hands it to the app (replayed answers included). */
async function serve(ctx: TestContext, path: string): Promise<string> {
  const res = await ctx.app.fetch(
    new Request(`http://turismo.test${path}`),
    CONNECTION,
  );
  assert.equal(res.status, 200, path);
  return await res.text();
}

/** An English page's HTML (getPage checks for a Spanish one). */
async function getEnglish(ctx: TestContext, path: string): Promise<string> {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html><html lang="en-US">/);
  return html;
}

/** The page's words, tags and icons dropped, spaces collapsed. */
function words(html: string): string {
  return html.replace(/<svg.*?<\/svg>/gs, "").replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

/** The "open now" line, as text. */
function hoursLine(html: string): string {
  const match = /<p class="hours-now[^"]*"[^>]*>(.*?)<\/p>/s.exec(html);
  assert.ok(match, "hours line");
  return words(match[1]).trim();
}

/** The slugs of the list's cards, in order. */
function listed(html: string): string[] {
  return [
    ...html.matchAll(/href="(?:\/en)?\/turismo\/atractivos\/([a-z0-9-]+)"/g),
  ]
    .map((m) => m[1]);
}

Deno.test("the attraction page's open-now line flips at the local minute, cache and replay included", async () => {
  await using ctx = await createTestContext({
    cachePages: true,
    clockStart: BEFORE_SIX,
  });
  const first = await serve(ctx, SPRINGS);
  assert.equal(hoursLine(first), "Abierto ahora · cierra a las 18:00");
  // The line says when it stops holding, for a copy kept offline
  // (client/stale_hours.ts hides it then).
  assert.match(
    first,
    new RegExp(
      `<p class="hours-now hours-now--open" data-hours-until="${
        Date.parse("2026-12-03T00:00:00Z")
      }">`,
    ),
  );
  // Within the page's TTL: served again from what was kept.
  ctx.clock.advance(4_999);
  assert.equal(
    hoursLine(await serve(ctx, SPRINGS)),
    "Abierto ahora · cierra a las 18:00",
  );
  assert.ok(ctx.deps.replayedAnswers.stats.replays >= 1, "replayed");
  // 18:00:00 sharp, well within PAGE_TTL_MS of the first render.
  ctx.clock.advance(1);
  assert.ok(5_000 < PAGE_TTL_MS);
  assert.equal(
    hoursLine(await serve(ctx, SPRINGS)),
    "Cerrado · abre mañana a las 9:00",
  );
  assert.equal(
    hoursLine(await serve(ctx, `/en${SPRINGS}`)),
    "Closed · opens tomorrow at 9:00 a.m.",
  );
  // At the municipality's midnight "mañana" becomes "hoy".
  ctx.clock.advance(6 * 3_600_000 - 1);
  assert.equal(
    hoursLine(await serve(ctx, SPRINGS)),
    "Cerrado · abre mañana a las 9:00",
  );
  ctx.clock.advance(1);
  assert.equal(
    hoursLine(await serve(ctx, SPRINGS)),
    "Cerrado · abre hoy a las 9:00",
  );
});

Deno.test("the attraction page shows the next 7 days' hours and its access in words", async () => {
  await using ctx = await createTestContext({ clockStart: BEFORE_SIX });
  const { html } = await getPage(ctx, SPRINGS);
  const table = /<table class="hours-table">.*?<\/table>/s.exec(html)?.[0];
  assert.ok(table, "hours table");
  const rows = [
    ...table.matchAll(
      /<tr[^>]*><th scope="row">(.*?)<\/th><td>(.*?)<\/td><\/tr>/g,
    ),
  ]
    .map((m) => `${m[1]}: ${m[2]}`);
  assert.deepEqual(rows, [
    "Miércoles (hoy): 9:00 a 18:00",
    "Jueves: 9:00 a 18:00",
    "Viernes: 9:00 a 18:00",
    "Sábado: 9:00 a 18:00",
    "Domingo: 9:00 a 18:00",
    "Lunes: 9:00 a 18:00",
    "Martes: Cerrado",
  ]);
  const access = words(/<ul class="access-facts">.*?<\/ul>/s.exec(html)![0]);
  assert.equal(
    access.trim(),
    "Acceso limitado en silla de ruedas Entrada sin escalones Sanitario accesible",
  );
  // The icons are decoration: the words say it.
  assert.match(
    html,
    /<ul class="access-facts"><li[^>]*><svg[^>]*aria-hidden="true"/,
  );

  const en = { html: await getEnglish(ctx, `/en${SPRINGS}`) };
  assert.match(
    words(en.html),
    /Wednesday \(today\) 9:00 a\.m\. to 6:00 p\.m\./,
  );
  assert.match(words(en.html), /Tuesday Closed/);
  assert.match(
    words(en.html),
    /Limited wheelchair access Step-free entrance Accessible toilet/,
  );

  // A place open at all hours says so, with no change to announce.
  const square = await getPage(ctx, "/turismo/atractivos/plaza-principal");
  assert.equal(hoursLine(square.html), "Abierto las 24 horas");
});

Deno.test("a place open past midnight closes 'mañana a la 1:00', one that closes at midnight 'a medianoche'", async () => {
  /** The app with the springs' hours replaced by `openingHours`. */
  const withHours = async (openingHours: string, clockStart: Date) =>
    await createTestContext({
      clockStart,
      data: new DataStore(
        await parseTourismData(
          mutateShipped((d) => {
            d.attractions.find((a: { slug: string }) =>
              a.slug === "balneario-termal-la-vega"
            ).openingHours = openingHours;
          }),
          "test",
        ),
        { onWarning: () => {} },
      ),
    });
  {
    await using ctx = await withHours("Tu-Su 13:00-01:00", BEFORE_SIX);
    assert.equal(
      hoursLine((await getPage(ctx, SPRINGS)).html),
      "Abierto ahora · cierra mañana a la 1:00",
    );
  }
  {
    // 19:00 on the Wednesday.
    await using ctx = await withHours(
      "We-Su 18:00-24:00",
      new Date("2026-12-03T01:00:00Z"),
    );
    assert.equal(
      hoursLine((await getPage(ctx, SPRINGS)).html),
      "Abierto ahora · cierra a medianoche",
    );
    assert.equal(
      hoursLine(await getEnglish(ctx, `/en${SPRINGS}`)),
      "Open now · closes at midnight",
    );
  }
});

Deno.test("the list filters by open now and wheelchair access, in both languages", async () => {
  await using ctx = await createTestContext({
    cachePages: true,
    clockStart: BEFORE_SIX,
  });
  const all = await serve(ctx, "/turismo/atractivos");
  assert.equal(listed(all).length, 17);
  assert.match(words(all), /Abierto ahora Accesible en silla de ruedas/);
  // At 17:59:55 on a Wednesday: the square and the volcano (24/7), the
  // church (to 20:00), the chapel (19:00), the cultural centre (19:00), the
  // lookout (18:30) and the springs (18:00).
  const open = await serve(ctx, "/turismo/atractivos?abierto=1");
  assert.deepEqual(listed(open), [
    "plaza-principal",
    "parroquia-santiago-apostol",
    "casa-de-la-cultura",
    "capilla-del-calvario",
    "mirador-paisaje-agavero",
    "balneario-termal-la-vega",
    "volcan-de-tequila",
  ]);
  assert.match(
    open,
    /<a href="\/turismo\/atractivos" aria-current="page" data-filter="abierto">/,
  );
  assert.match(words(open), /7 atractivos/);
  // 18:00: the springs close, and the kept list with them.
  ctx.clock.advance(5_000);
  const later = await serve(ctx, "/turismo/atractivos?abierto=1");
  assert.ok(!listed(later).includes("balneario-termal-la-vega"));
  assert.equal(listed(later).length, 6);

  const accessible = await serve(ctx, "/en/turismo/atractivos?accesible=1");
  assert.deepEqual(listed(accessible), [
    "plaza-principal",
    "parroquia-santiago-apostol",
    "casa-de-la-cultura",
    "hacienda-san-jose-del-refugio",
  ]);
  assert.match(words(accessible), /Wheelchair accessible/);
  // Filters add up, and the category links keep them.
  const both = await serve(
    ctx,
    "/turismo/atractivos?abierto=1&accesible=1&categoria=cultura",
  );
  assert.deepEqual(listed(both), ["plaza-principal", "casa-de-la-cultura"]);
  assert.match(
    both,
    /href="\/turismo\/atractivos\?categoria=museo&amp;abierto=1&amp;accesible=1"/,
  );
  // No match: said in words, with a way back.
  const none = await serve(
    ctx,
    "/turismo/atractivos?abierto=1&categoria=museo",
  );
  assert.deepEqual(listed(none), []);
  assert.match(
    words(none),
    /Ningún atractivo cumple estos filtros en este momento\. Quitar filtros/,
  );
  // Each card says its state.
  assert.match(
    words(all),
    /Museo Nacional del Tequila .*?Cerrado · abre mañana a las 10:00/,
  );
});

Deno.test("a provider's page and its directory card say whether it is open, and flip on time", async () => {
  await using ctx = await createTestContext({
    cachePages: true,
    clockStart: BEFORE_SIX,
  });
  // Cenaduría Santiago: "Mo,We-Su 18:00-23:30".
  const page = "/turismo/servicios/cenaduria-santiago";
  assert.equal(
    hoursLine(await serve(ctx, page)),
    "Cerrado · abre hoy a las 18:00",
  );
  const card = (html: string) =>
    hoursLine(html.slice(html.indexOf('id="prestador-cenaduria-santiago"')));
  assert.equal(
    card(await serve(ctx, "/turismo/servicios")),
    "Cerrado · abre hoy a las 18:00",
  );
  ctx.clock.advance(5_000);
  assert.equal(
    hoursLine(await serve(ctx, page)),
    "Abierto ahora · cierra a las 23:30",
  );
  assert.equal(
    card(await serve(ctx, "/turismo/servicios")),
    "Abierto ahora · cierra a las 23:30",
  );
  const table = words(
    /<table class="hours-table">.*?<\/table>/s.exec(await serve(ctx, page))![0],
  );
  assert.match(table, /Miércoles \(hoy\) 18:00 a 23:30 .* Martes Cerrado/);
});
