import assert from "node:assert/strict";
import { localizeData } from "@/lib/data/translations.ts";
import { formatMoney } from "@/lib/format/format.ts";
import { orderProviders } from "@/lib/services/order.ts";
import { loadShippedData, SHIPPED } from "@/tests/test_utils.ts";
import {
  buildChatMessages,
  buildRequestContext,
  buildStablePrompt,
} from "./prompt.ts";
import { createPromptCache } from "./prompt_cache.ts";

const loaded = await loadShippedData();

/** Noon in Tequila (UTC-6) on 22 November 2026. */
const NOW = new Date("2026-11-22T18:00:00Z");
const HOUR = 3_600_000;

Deno.test("the stable prompt holds every attraction and provider but no guide code", () => {
  const prompt = buildStablePrompt(loaded.data, NOW);
  for (const a of SHIPPED.attractions) {
    assert.ok(prompt.includes(`**${a.name}**`), a.name);
    assert.ok(prompt.includes(`/turismo/atractivos/${a.slug}`), a.slug);
    assert.ok(prompt.includes(`${a.location.lat},${a.location.lng}`), a.slug);
    assert.ok(!prompt.toUpperCase().includes(a.guideCode.toUpperCase()));
  }
  for (const p of SHIPPED.providers) {
    assert.ok(prompt.includes(`**${p.name}**`), p.name);
    assert.ok(prompt.includes(`tel. ${p.contact.phone}`), p.name);
  }
  for (const e of SHIPPED.emergency) {
    assert.ok(prompt.includes(`**${e.phone}**`));
  }
  for (const d of SHIPPED.directions) {
    assert.ok(prompt.includes(`Desde **${d.fromCity}**`));
  }
  assert.ok(prompt.includes("**$1,450 MXN** por persona"));
});

Deno.test("the stable prompt stays compact", () => {
  // About 9,000 tokens for the demo data set (the week's hours and the
  // access of every place in words included); this guards against bloat.
  const prompt = buildStablePrompt(loaded.data, NOW);
  assert.ok(prompt.length < 36_000, `${prompt.length} characters`);
});

Deno.test("the stable prompt is the same string for the same data", () => {
  assert.equal(
    buildStablePrompt(loaded.data, NOW),
    buildStablePrompt(
      structuredClone(loaded.data),
      new Date(NOW.getTime() + HOUR),
    ),
  );
});

Deno.test("createPromptCache builds once per data version and rebuilds on a new one", async () => {
  let calls = 0;
  const cache = createPromptCache((data) =>
    `prompt ${++calls} ${data.municipality.name}`
  );
  const first = await cache.get(loaded, NOW);
  assert.equal(await cache.get(loaded, NOW), first);
  assert.equal(await cache.get({ ...loaded }, NOW), first);
  assert.equal(cache.builds, 1);

  const next = { ...loaded, version: "otra-version" };
  assert.equal(await cache.get(next, NOW), "prompt 2 Tequila");
  assert.equal(await cache.get(next, NOW), "prompt 2 Tequila");
  assert.equal(cache.builds, 2);
});

Deno.test("createPromptCache rebuilds at the municipality's midnight, not UTC's", async () => {
  const cache = createPromptCache((_data, now) =>
    `prompt ${now.toISOString()}`
  );
  // 18:00 on the 22nd and 23:59 the same day in Tequila (05:59 UTC on the 23rd).
  const first = await cache.get(loaded, NOW);
  assert.equal(
    await cache.get(loaded, new Date("2026-11-23T05:59:00Z")),
    first,
  );
  assert.equal(cache.builds, 1);
  // 00:01 on the 23rd in Tequila.
  assert.notEqual(
    await cache.get(loaded, new Date("2026-11-23T06:01:00Z")),
    first,
  );
  assert.equal(cache.builds, 2);
});

/** The providers' names in the order the stable prompt lists them. */
function listedProviders(prompt: string): string[] {
  const section = prompt.split("## Prestadores de servicios\n")[1]
    .split("\n\n")[0];
  return section.split("\n").filter((line) => line.startsWith("- **"))
    .map((line) => line.slice(4, line.indexOf("**", 4)));
}

Deno.test("the stable prompt lists providers in the day's order and says so", () => {
  const prompt = buildStablePrompt(loaded.data, NOW);
  assert.match(
    prompt,
    /gira un lugar cada día para dar a todos la misma visibilidad/,
  );
  assert.match(prompt, /si la compartió, ordénalos por distancia/);
  const timeZone = loaded.data.municipality.timeZone;
  const expected = orderProviders(loaded.data.providers, { now: NOW, timeZone })
    .map(({ provider }) => provider.name);
  assert.deepEqual(listedProviders(prompt), expected);
  assert.equal(expected.length, SHIPPED.providers.length);

  // The same all day; each kind turned by one place the next day.
  const evening = buildStablePrompt(
    loaded.data,
    new Date("2026-11-23T05:30:00Z"),
  );
  assert.deepEqual(listedProviders(evening), expected);
  const tomorrow = listedProviders(
    buildStablePrompt(loaded.data, new Date(NOW.getTime() + 24 * HOUR)),
  );
  assert.notDeepEqual(tomorrow, expected);
  for (const type of ["hotel", "restaurante", "guia"]) {
    const names = (list: string[]) =>
      list.filter((name) =>
        SHIPPED.providers.find((p) => p.name === name)!.type === type
      );
    const today = names(expected);
    assert.deepEqual(names(tomorrow), [...today.slice(1), today[0]], type);
  }
});

Deno.test("the stable prompt links each provider's page and gives its hours", () => {
  const prompt = buildStablePrompt(loaded.data, NOW);
  for (const p of SHIPPED.providers) {
    assert.ok(prompt.includes(`| /turismo/servicios/${p.slug} |`), p.slug);
    if (p.schedule) assert.ok(prompt.includes(`${p.schedule} |`), p.slug);
  }
});

/** The stable prompt's line of the place named `name`. */
function lineOf(prompt: string, name: string): string {
  const line = prompt.split("\n").find((l) => l.startsWith(`- **${name}**`));
  assert.ok(line, name);
  return line;
}

Deno.test("the stable prompt says each place's hours of the 7 days from today in words", () => {
  // Sunday 22 November 2026.
  const prompt = buildStablePrompt(loaded.data, NOW);
  assert.match(
    prompt,
    /Los horarios ya vienen calculados para los próximos 7 días/,
  );
  // "Mo,We-Su 18:00-23:30", from Sunday on.
  assert.match(
    lineOf(prompt, "Cenaduría Santiago"),
    /\| domingo y lunes: 18:00 a 23:30; martes: cerrado; miércoles a sábado: 18:00 a 23:30 \|/,
  );
  // "Mo-Fr 09:00-15:00; PH off": Monday 16 November was a holiday, the
  // next week has none.
  assert.match(
    lineOf(prompt, "Presidencia Municipal y sus murales"),
    /\| domingo: cerrado; lunes a viernes: 9:00 a 15:00; sábado: cerrado \|/,
  );
  // A note stays beside the hours; 24/7 is said so.
  assert.match(
    lineOf(prompt, "Barranca de Tequila y pozas Los Azules"),
    /\| todos los días: 8:00 a 17:00\. Último descenso a las 14:00\. \|/,
  );
  assert.match(
    lineOf(prompt, "Plaza Principal de Tequila"),
    /\| todos los días: abierto las 24 horas \|/,
  );
  // Access as OpenStreetMap tags it, in words, then the note.
  assert.match(
    lineOf(prompt, "Capilla del Calvario"),
    /\| No accesible en silla de ruedas, La entrada tiene escalones, Sin sanitario accesible, Acceso únicamente por escalinata/,
  );
  const english = buildStablePrompt(localizeData(loaded.data, "en"), NOW, "en");
  assert.match(
    english,
    /\| Sunday and Monday: 6:00 p\.m\. to 11:30 p\.m\.; Tuesday: closed; Wednesday to Saturday: 6:00 p\.m\. to 11:30 p\.m\. \|/,
  );
});

Deno.test("the request context says whether each place is open at the moment of the question", () => {
  // Sunday 22 November 2026, 16:59 and 17:00 in Tequila.
  const before = buildRequestContext(loaded.data, {
    now: new Date("2026-11-22T22:59:00Z"),
  });
  assert.match(before, /Abierto o cerrado en este momento:/);
  assert.match(
    before,
    /^- Museo Nacional del Tequila \(MUNAT\): Abierto ahora · cierra a las 17:00$/m,
  );
  assert.match(
    before,
    /^- Presidencia Municipal y sus murales: Cerrado · abre mañana a las 9:00$/m,
  );
  assert.match(before, /^- Plaza Principal de Tequila: Abierto las 24 horas$/m);
  assert.match(
    before,
    /^- Cenaduría Santiago: Cerrado · abre hoy a las 18:00$/m,
  );
  const after = buildRequestContext(loaded.data, {
    now: new Date("2026-11-22T23:00:00Z"),
  });
  assert.match(
    after,
    /^- Museo Nacional del Tequila \(MUNAT\): Cerrado · abre el martes a las 10:00$/m,
  );
  const english = buildRequestContext(localizeData(loaded.data, "en"), {
    now: new Date("2026-11-22T23:00:00Z"),
    lang: "en",
  });
  assert.match(english, /Open or closed right now:/);
  assert.match(english, /: Closed · opens Tuesday at 10:00 a\.m\.$/m);
});

Deno.test("the request context dates today in the municipality's time zone", () => {
  // 05:30 UTC on the 23rd is still 23:30 on the 22nd in Mexico City.
  const context = buildRequestContext(loaded.data, {
    now: new Date("2026-11-23T05:30:00Z"),
  });
  assert.match(context, /domingo, 22 de noviembre de 2026, 11:30 p\.m\./);
  assert.match(context, /no compartió su ubicación/);
});

Deno.test("the request context names the events on today and soon", () => {
  const context = buildRequestContext(loaded.data, {
    now: new Date("2026-12-01T18:00:00Z"),
  });
  assert.match(
    context,
    /Eventos en curso hoy: Feria Nacional del Tequila 2026\./,
  );
  assert.match(
    context,
    /Próximos eventos \(45 días\): Recorrido nocturno «Leyendas de Tequila» \(se repite; la próxima, el 2026-12-04\), Mercado de productores del valle \(se repite; la próxima, el 2026-12-05\), Posadas y luces de Navidad \(desde 2026-12-16\)\./,
  );
});

Deno.test("the prompt gives events' times and a recurring event's rule and next date", () => {
  // 14:00 on Saturday 5 December in Tequila: the market ended at 14:00, but
  // the prompt lists the day as at its start (it is the same all day).
  const prompt = buildStablePrompt(
    loaded.data,
    new Date("2026-12-05T20:00:00Z"),
  );
  assert.match(
    prompt,
    /\n- \*\*Mercado de productores del valle\*\* \| Todos los sábados 09:00–14:00, próxima: 2026-12-05 \| Portales de la Plaza Principal \|/,
  );
  assert.match(
    prompt,
    /\n- \*\*Recorrido nocturno «Leyendas de Tequila»\*\* \| El primer viernes de cada mes 19:00–21:00, próxima: 2027-01-01, hasta el 2027-06-04 \|/,
  );
  assert.match(
    prompt,
    /\n- \*\*Día Nacional del Tequila 2027\*\* \| 2027-03-20 11:00–20:00 \|/,
  );
  const english = buildStablePrompt(
    localizeData(loaded.data, "en"),
    new Date("2026-12-05T20:00:00Z"),
    "en",
  );
  assert.match(
    english,
    /\n- \*\*Valley Producers' Market\*\* \| Every Saturday 09:00–14:00, next: 2026-12-05 \|/,
  );
});

Deno.test("the request context lists 8 attractions and 6 providers by distance", () => {
  const context = buildRequestContext(loaded.data, {
    now: new Date("2026-11-22T15:00:00Z"),
    location: { lat: 20.89, lng: -103.845 },
  });
  const attractions = context.split("\n").filter((l) => l.startsWith("- ["));
  const providers = context.split("Prestadores más cercanos:\n")[1]
    .split("\n");
  assert.equal(attractions.length, 8);
  assert.equal(providers.length, 6);
  assert.match(
    attractions[0],
    /^- \[Casa de la Cultura de Tequila\]\(\/turismo\/atractivos\/casa-de-la-cultura\): 1\.0 km \| \[Cómo llegar\]\(https:\/\/www\.google\.com\/maps\/dir\/\?api=1&origin=20\.89,-103\.845&destination=20\.88356,-103\.83776\)$/,
  );
  assert.match(
    providers[0],
    /^- Cenaduría Santiago \(restaurante, tel\. \+52 374 000 0221\): 1\.0 km \|/,
  );
});

Deno.test("buildChatMessages puts the stable prompt first and the question last", () => {
  const messages = buildChatMessages({
    stablePrompt: "estable",
    requestContext: "contexto",
    input: {
      message: "¿Y hoy?",
      history: [{ role: "user", content: "hola" }, {
        role: "assistant",
        content: "¡Hola!",
      }],
    },
  });
  assert.deepEqual(messages, [
    { role: "system", content: "estable" },
    { role: "system", content: "contexto" },
    { role: "user", content: "hola" },
    { role: "assistant", content: "¡Hola!" },
    { role: "user", content: "¿Y hoy?" },
  ]);
});

Deno.test("the prompt writes Mexican pesos, and zero as free", () => {
  assert.equal(
    formatMoney({ amount: 1450, currency: "MXN" }, "gratis"),
    "$1,450 MXN",
  );
  assert.equal(
    formatMoney({ amount: 40, currency: "MXN" }, "gratis"),
    "$40 MXN",
  );
  assert.equal(formatMoney({ amount: 0, currency: "MXN" }, "gratis"), "gratis");
});
