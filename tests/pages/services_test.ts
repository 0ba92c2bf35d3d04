/**
 * The services directory (`/turismo/servicios`), a provider's page and
 * "Información práctica" through the app in process: every provider with
 * its contact, prices, hours, map and nearest attractions; the kind filter;
 * the fair daily order (moving the test clock across the municipality's
 * midnight); the distance order with `?cerca=` checked against an
 * independent distance; bad coordinates; the page cache; a data set
 * reloaded; and the chat's prompt following the same order.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { formatDistance } from "@/lib/format/format.ts";
import { CONTENT_SECURITY_POLICY } from "@/lib/http/security_headers.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  copyShippedData,
  createTestContext,
  distanceKm,
  getPage,
  mutateShipped,
  postJson,
  SHIPPED,
} from "../test_utils.ts";

const PROVIDERS = SHIPPED.providers;
const BY_SLUG = new Map(PROVIDERS.map((p) => [p.slug, p]));
const TYPES = ["hotel", "restaurante", "guia"] as const;
const DAY_MS = 86_400_000;
/** Noon in Tequila (UTC-6) on Sunday 22 November 2026. */
const NOON = new Date("2026-11-22T18:00:00Z");
/** A visitor by the Casa de la Cultura. */
const HERE = { lat: 20.8845, lng: -103.839 };
const DISCLOSURE =
  "El orden cambia cada día para dar a todos la misma visibilidad; con tu ubicación, se ordena por distancia.";

/** A provider card as the directory renders it. */
interface Card {
  slug: string;
  html: string;
  /** "A <distance> de ti", when shown. */
  distance?: string;
  nearby: { slug: string; distance: string }[];
}

function readCards(html: string): Card[] {
  return html.split('<article class="provider"').slice(1).map((part) => {
    const body = part.slice(0, part.indexOf("</article>"));
    return {
      slug:
        /<h3 class="provider__name"><a href="\/turismo\/servicios\/([^"]+)">/
          .exec(body)![1],
      html: body,
      distance: /class="provider__distance">.*?<strong>([^<]+)<\/strong>/s
        .exec(body)?.[1],
      nearby: [
        ...body.matchAll(
          /<a href="\/turismo\/atractivos\/([^"]+)">[^<]*<\/a> <span class="provider__km">\(([^)]+)\)<\/span>/g,
        ),
      ].map((m) => ({ slug: m[1], distance: m[2] })),
    };
  });
}

const slugsOf = (html: string) => readCards(html).map((c) => c.slug);
const ofType = (slugs: string[], type: string) =>
  slugs.filter((s) => BY_SLUG.get(s)!.type === type);

/** The providers of `type` in the data set's order, turned left by `shift`. */
function turned(type: string, shift: number): string[] {
  const slugs = PROVIDERS.filter((p) => p.type === type).map((p) => p.slug);
  const n = shift % slugs.length;
  return [...slugs.slice(n), ...slugs.slice(0, n)];
}

/** What the CSP relies on: no inline script, style or handler. */
function assertNoInlineCode(html: string, path: string) {
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    assert.match(
      tag,
      /\bsrc="\/static\/build\/[^"]+"|type="application\/(?:ld\+)?json"/,
      `${path}: inline script ${tag}`,
    );
  }
  assert.doesNotMatch(html, /<style\b|\sstyle="|\son[a-z]+="/i, path);
}

Deno.test("GET /turismo/servicios", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOON });

  await t.step(
    "lists all 11 providers, each with its page, contact, prices, hours and map",
    async () => {
      const { res, html } = await getPage(ctx, "/turismo/servicios");
      assert.equal(
        res.headers.get("content-security-policy"),
        CONTENT_SECURITY_POLICY,
      );
      assertNoInlineCode(html, "/turismo/servicios");
      const cards = readCards(html);
      assert.deepEqual(
        [...cards.map((c) => c.slug)].sort(),
        PROVIDERS.map((p) => p.slug).sort(),
      );
      for (const card of cards) {
        const p = BY_SLUG.get(card.slug)!;
        const { contact } = p;
        assert.ok(card.html.includes(`>${p.name}</a>`), p.name);
        assert.ok(
          card.html.includes(
            `href="tel:${contact.phone.replace(/[^\d+]/g, "")}"`,
          ),
          `${p.slug} tel`,
        );
        assert.equal(
          card.html.includes(`href="mailto:${contact.email}"`),
          contact.email !== undefined,
          `${p.slug} mailto`,
        );
        assert.equal(
          card.html.includes(`href="${contact.website}"`),
          contact.website !== undefined,
          `${p.slug} website`,
        );
        assert.equal(
          card.html.includes(
            `href="https://wa.me/${contact.whatsapp?.replace(/\D/g, "")}"`,
          ),
          contact.whatsapp !== undefined,
          `${p.slug} WhatsApp`,
        );
        assert.ok(
          card.html.includes(
            `href="https://www.google.com/maps/search/?api=1&amp;query=${p.location.lat},${p.location.lng}"`,
          ),
          `${p.slug} map`,
        );
        assert.ok(card.html.includes(`${p.priceRange} ·</span>`), p.slug);
        if (p.schedule) assert.ok(card.html.includes(p.schedule), p.slug);
        assert.equal(card.distance, undefined);
      }
    },
  );

  await t.step(
    "each card names its two nearest attractions with their distances",
    async () => {
      const { html } = await getPage(ctx, "/turismo/servicios");
      for (const card of readCards(html)) {
        const p = BY_SLUG.get(card.slug)!;
        const expected = SHIPPED.attractions
          .map((a) => ({ a, km: distanceKm(p.location, a.location) }))
          .sort((x, y) => x.km - y.km).slice(0, 2);
        assert.deepEqual(
          card.nearby,
          expected.map(({ a, km }) => ({
            slug: a.slug,
            distance: formatDistance(km),
          })),
          card.slug,
        );
      }
    },
  );

  await t.step(
    "groups by kind under Spanish headings and says how the order is made",
    async () => {
      const { html } = await getPage(ctx, "/turismo/servicios");
      assert.match(
        html,
        /<h2 id="grupo-hotel">Dónde dormir<\/h2>[\s\S]*<h2 id="grupo-restaurante">Dónde comer<\/h2>[\s\S]*<h2 id="grupo-guia">Guías de turistas<\/h2>/,
      );
      assert.ok(html.includes(DISCLOSURE));
      assert.match(html, /<h1>Hoteles, restaurantes y guías en Tequila<\/h1>/);
      assert.match(html, /data-island="NearMe"/);
      assert.match(html, /<noscript>/);
    },
  );

  await t.step("?tipo= filters by kind with plain links", async () => {
    const labels = {
      hotel: "Hospedaje (4)",
      restaurante: "Restaurantes (4)",
      guia: "Guías de turistas (3)",
    };
    for (const type of TYPES) {
      const { html } = await getPage(ctx, `/turismo/servicios?tipo=${type}`);
      const slugs = slugsOf(html);
      assert.deepEqual(
        [...slugs].sort(),
        PROVIDERS.filter((p) => p.type === type).map((p) => p.slug).sort(),
      );
      assert.ok(
        html.includes(
          `<a href="/turismo/servicios?tipo=${type}" aria-current="page">${
            labels[type]
          }</a>`,
        ),
        type,
      );
      assert.ok(html.includes('<a href="/turismo/servicios">Todos (11)</a>'));
    }
    const { html } = await getPage(ctx, "/turismo/servicios?tipo=spa");
    assert.equal(slugsOf(html).length, 11);
  });
});

Deno.test("GET /turismo/servicios: the fair daily order", async (t) => {
  // With the page cache on, as the service runs.
  await using ctx = await createTestContext({
    clockStart: NOON,
    cachePages: true,
  });
  const day = Date.UTC(2026, 10, 22) / DAY_MS; // The municipality's day number.
  const read = async (path = "/turismo/servicios") =>
    slugsOf((await getPage(ctx, path)).html);

  await t.step(
    "each kind is the data set's order turned by the day",
    async () => {
      const slugs = await read();
      for (const type of TYPES) {
        assert.deepEqual(ofType(slugs, type), turned(type, day), type);
      }
      assert.deepEqual(
        await read("/turismo/servicios?tipo=hotel"),
        turned("hotel", day),
      );
    },
  );

  await t.step("the same for everyone all day, in Tequila's time", async () => {
    const noon = await read();
    ctx.clock.advance(11.5 * 3_600_000); // 23:30 in Tequila, 05:30 UTC the 23rd.
    assert.deepEqual(await read(), noon);
    assert.deepEqual(
      await read("/turismo/servicios?tipo=hotel"),
      turned("hotel", day),
    );
  });

  await t.step(
    "after the municipality's midnight each kind moves up one place, cache or not",
    async () => {
      ctx.clock.advance(60 * 60_000); // 00:30 on the 23rd in Tequila.
      const slugs = await read();
      for (const type of TYPES) {
        assert.deepEqual(ofType(slugs, type), turned(type, day + 1), type);
      }
    },
  );

  await t.step(
    "over n days each provider of a kind leads exactly once",
    async () => {
      const leaders: Record<string, string[]> = {};
      for (let i = 0; i < 12; i++) {
        ctx.clock.advance(DAY_MS);
        const slugs = await read();
        for (const type of TYPES) {
          (leaders[type] ??= []).push(ofType(slugs, type)[0]);
        }
      }
      for (const type of TYPES) {
        const all = PROVIDERS.filter((p) => p.type === type).map((p) => p.slug);
        // 12 days: 3 rounds of 4, 4 rounds of 3.
        const counts = Map.groupBy(leaders[type], (s) => s);
        assert.deepEqual([...counts.keys()].sort(), [...all].sort(), type);
        for (const times of counts.values()) {
          assert.equal(times.length, 12 / all.length, type);
        }
      }
    },
  );
});

Deno.test("GET /turismo/servicios?cerca=", async (t) => {
  await using ctx = await createTestContext({
    clockStart: NOON,
    cachePages: true,
  });
  const cerca = `${HERE.lat},${HERE.lng}`;

  await t.step(
    "sorts each kind by distance and shows distances an independent formula agrees with",
    async () => {
      const { res, html } = await getPage(
        ctx,
        `/turismo/servicios?cerca=${cerca}`,
      );
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const cards = readCards(html);
      assert.equal(cards.length, 11);
      for (const type of TYPES) {
        const expected = PROVIDERS.filter((p) => p.type === type)
          .map((p) => ({ p, km: distanceKm(HERE, p.location) }))
          .sort((a, b) => a.km - b.km);
        const shown = cards.filter((c) => BY_SLUG.get(c.slug)!.type === type);
        assert.deepEqual(
          shown.map((c) => [c.slug, c.distance]),
          expected.map(({ p, km }) => [p.slug, formatDistance(km)]),
          type,
        );
      }
      assert.match(html, /Ordenados por distancia desde tu ubicación/);
      assert.ok(html.includes(DISCLOSURE) === false);
      // "Quitar mi ubicación" and the filters keep to the plain links.
      assert.ok(
        html.includes('<a href="/turismo/servicios">Quitar mi ubicación</a>'),
      );
      assert.ok(
        html.includes(
          `href="/turismo/servicios?tipo=hotel&amp;cerca=${cerca}"`,
        ),
      );
    },
  );

  await t.step("a filter keeps the distance order", async () => {
    const { html } = await getPage(
      ctx,
      `/turismo/servicios?tipo=restaurante&cerca=${encodeURIComponent(cerca)}`,
    );
    assert.deepEqual(
      readCards(html).map((c) => [c.slug, c.distance]),
      [
        ["cenaduria-santiago", "120 m"],
        ["los-cantaritos-de-la-plaza", "410 m"],
        ["la-cantina-del-jimador", "420 m"],
        ["fonda-dona-chayo", "500 m"],
      ],
    );
  });

  await t.step(
    "a page with a location is never kept in the page cache",
    async () => {
      const before = ctx.deps.pageCache!.stats;
      for (let i = 0; i < 3; i++) {
        await getPage(ctx, `/turismo/servicios?cerca=20.88${i},-103.83`);
      }
      const after = ctx.deps.pageCache!.stats;
      assert.equal(after.entries, before.entries);
      assert.equal(after.misses, before.misses);
      // Without one, it is cached.
      await getPage(ctx, "/turismo/servicios");
      await getPage(ctx, "/turismo/servicios");
      assert.equal(ctx.deps.pageCache!.stats.entries, before.entries + 1);
    },
  );

  await t.step(
    "bad coordinates are ignored with a Spanish note, in the day's order",
    async () => {
      const { html: plain } = await getPage(ctx, "/turismo/servicios");
      for (
        const bad of [
          "abc",
          "91,0",
          "20.88,-181",
          "20.88",
          "NaN,1",
          "1e3,2",
          "%3Cscript%3E",
        ]
      ) {
        const { res, html } = await getPage(
          ctx,
          `/turismo/servicios?cerca=${bad}`,
        );
        assert.match(
          html,
          /No pudimos usar la ubicación de la dirección: deben ser una\s+latitud y una longitud válidas/,
          bad,
        );
        assert.deepEqual(slugsOf(html), slugsOf(plain), bad);
        assert.ok(readCards(html).every((c) => c.distance === undefined));
        assert.ok(html.includes(DISCLOSURE));
        assert.doesNotMatch(html, /<script>/);
        assert.notEqual(res.headers.get("cache-control"), "private, no-store");
      }
      // An empty one is no location and no note.
      const { html } = await getPage(ctx, "/turismo/servicios?cerca=");
      assert.doesNotMatch(html, /No pudimos usar la ubicación/);
    },
  );
});

Deno.test("GET /turismo/servicios/:slug", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOON });

  await t.step(
    "every provider has a page with contact and nearby attractions",
    async () => {
      for (const p of PROVIDERS) {
        const { html } = await getPage(ctx, `/turismo/servicios/${p.slug}`);
        assertNoInlineCode(html, p.slug);
        assert.ok(html.includes(`<h1>${p.name}</h1>`), p.slug);
        assert.ok(html.includes(p.description));
        assert.ok(html.includes(p.address));
        assert.ok(
          html.includes(`href="tel:${p.contact.phone.replace(/[^\d+]/g, "")}"`),
        );
        if (p.contact.email) {
          assert.ok(html.includes(`href="mailto:${p.contact.email}"`), p.slug);
          assert.ok(html.includes(` ${p.contact.email}</a>`), p.slug);
        }
        for (const lang of p.languages ?? []) assert.ok(html.includes(lang));
        const nearest = SHIPPED.attractions
          .map((a) => ({ a, km: distanceKm(p.location, a.location) }))
          .sort((x, y) => x.km - y.km).slice(0, 4);
        for (const { a, km } of nearest) {
          assert.ok(
            html.includes(`href="/turismo/atractivos/${a.slug}"`),
            `${p.slug} → ${a.slug}`,
          );
          assert.ok(
            html.includes(`A ${formatDistance(km)} en línea recta`),
            `${p.slug} → ${a.slug}`,
          );
        }
      }
    },
  );

  await t.step("a restaurant lists what to try there", async () => {
    const { html } = await getPage(
      ctx,
      "/turismo/servicios/cenaduria-santiago",
    );
    for (const dish of ["Pozole rojo", "Sopes y tostadas", "Jericalla"]) {
      assert.ok(html.includes(`<strong>${dish}</strong>`), dish);
    }
  });

  await t.step("an unknown provider is the friendly 404 page", async () => {
    const { html } = await getPage(ctx, "/turismo/servicios/no-existe", 404);
    assert.match(html, /Página no encontrada/);
  });
});

Deno.test("GET /turismo/informacion-practica", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOON });
  const { html } = await getPage(ctx, "/turismo/informacion-practica");

  await t.step("shows every emergency number as a tel: link", () => {
    assertNoInlineCode(html, "/turismo/informacion-practica");
    for (const e of SHIPPED.emergency) {
      assert.ok(
        html.includes(
          `href="tel:${
            e.phone.replace(/[^\d+]/g, "")
          }"><span class="sr-only">Llamar al</span> ${e.phone}</a>`,
        ),
        e.phone,
      );
      assert.ok(html.includes(e.name), e.name);
      if (e.notes) assert.ok(html.includes(e.notes), e.notes);
    }
  });

  await t.step(
    "weather by season, packing, food, culture and directions",
    () => {
      const { weather, culture } = SHIPPED;
      for (const season of weather.seasons) {
        assert.ok(html.includes(season.months));
        assert.ok(
          html.includes(`${season.avgTempC.min} a ${season.avgTempC.max} °C`),
        );
      }
      for (const item of weather.packing) assert.ok(html.includes(item), item);
      for (const dish of SHIPPED.gastronomy) {
        assert.ok(html.includes(`<h3>${dish.dish}</h3>`), dish.dish);
        if (dish.whereToTry) {
          assert.ok(
            html.includes(`href="/turismo/servicios/${dish.whereToTry}"`),
          );
        }
      }
      for (const text of [...culture.traditions, ...culture.etiquette]) {
        assert.ok(html.includes(text), text);
      }
      for (const d of SHIPPED.directions) {
        assert.ok(html.includes(`Desde ${d.fromCity}`), d.fromCity);
      }
    },
  );

  await t.step("the menu and the home page link both new pages", async () => {
    assert.ok(
      html.includes(
        '<a href="/turismo/informacion-practica" aria-current="page">',
      ),
    );
    assert.ok(html.includes('<a href="/turismo/servicios">Servicios</a>'));
    const home = (await getPage(ctx, "/")).html;
    assert.ok(home.includes('href="/turismo/servicios"'));
    assert.ok(home.includes('href="/turismo/informacion-practica"'));
  });

  await t.step("no guide code on the new pages", async () => {
    for (
      const path of [
        "/turismo/servicios",
        `/turismo/servicios?cerca=${HERE.lat},${HERE.lng}`,
        ...PROVIDERS.map((p) => `/turismo/servicios/${p.slug}`),
        "/turismo/informacion-practica",
      ]
    ) {
      const body = (await getPage(ctx, path)).html.toUpperCase();
      for (const { guideCode } of SHIPPED.attractions) {
        assert.ok(!body.includes(guideCode.toUpperCase()), `${path}`);
      }
    }
  });
});

Deno.test("the new pages show an edited data set without a restart", async () => {
  await using copy = await copyShippedData();
  await using ctx = await createTestContext({
    clockStart: NOON,
    cachePages: true,
    data: await DataStore.open(copy.path),
  });
  const paths = [
    "/turismo/servicios",
    "/turismo/servicios/fonda-dona-chayo",
    "/turismo/informacion-practica",
  ];
  for (const path of paths) {
    assert.ok((await getPage(ctx, path)).html.includes("Fonda Doña Chayo"));
  }
  await Deno.writeTextFile(
    copy.path,
    mutateShipped((data) => {
      data.providers[4].name = "Fonda Doña Chayo e Hijas";
      data.emergency[0].phone = "112";
    }),
  );
  assert.equal(await ctx.deps.data.reload(), true);
  for (const path of paths) {
    assert.ok(
      (await getPage(ctx, path)).html.includes("Fonda Doña Chayo e Hijas"),
      path,
    );
  }
  assert.ok(
    (await getPage(ctx, "/turismo/informacion-practica")).html.includes(
      'href="tel:112"',
    ),
  );
});

Deno.test("the chat's prompt lists providers in the directory's order", async (t) => {
  await using fake = startFakeOpenAI();
  await using ctx = await createTestContext({
    clockStart: NOON,
    openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
  });
  const nameToSlug = new Map(PROVIDERS.map((p) => [p.name, p.slug]));
  let ip = 0;
  const ask = async (body: Record<string, unknown>) => {
    const res = await postJson(ctx, "/api/chat", body, {
      "x-forwarded-for": `203.0.113.${++ip}`,
    });
    assert.equal(res.status, 200, await res.text());
    return fake.lastRequest().body.messages as { content: string }[];
  };
  /** The providers the stable prompt lists, in its order. */
  const listed = (prompt: string) =>
    prompt.split("## Prestadores de servicios\n")[1].split("\n\n")[0]
      .split("\n").filter((l) => l.startsWith("- **"))
      .map((l) => nameToSlug.get(l.slice(4, l.indexOf("**", 4)))!);

  await t.step(
    "without a location: the day's order, and it says so",
    async () => {
      for (let day = 0; day < 2; day++) {
        const [system] = await ask({ message: "¿Dónde puedo comer?" });
        assert.match(
          system.content,
          /gira un lugar cada día para dar a todos la misma visibilidad/,
        );
        const page = slugsOf((await getPage(ctx, "/turismo/servicios")).html);
        assert.deepEqual(listed(system.content), page, `day ${day}`);
        ctx.clock.advance(DAY_MS);
      }
    },
  );

  await t.step(
    "with a location: nearest first, as the page with ?cerca=",
    async () => {
      const [, context] = await ask({
        message: "¿Qué hay cerca?",
        location: HERE,
      });
      const nearest = context.content.split("Prestadores más cercanos:\n")[1]
        .split("\n").map((line) =>
          nameToSlug.get(line.slice(2, line.indexOf(" (")))!
        );
      assert.equal(nearest.length, 6);
      const expected = [...PROVIDERS]
        .sort((a, b) =>
          distanceKm(HERE, a.location) - distanceKm(HERE, b.location)
        ).map((p) => p.slug).slice(0, 6);
      assert.deepEqual(nearest, expected);
      const page = slugsOf(
        (await getPage(ctx, `/turismo/servicios?cerca=${HERE.lat},${HERE.lng}`))
          .html,
      );
      for (const type of TYPES) {
        const chat = ofType(nearest, type);
        assert.deepEqual(ofType(page, type).slice(0, chat.length), chat, type);
      }
    },
  );
});
