/**
 * Share cards in the visitor's language (issue 24): a route's card is drawn
 * in the language its ticket was made in (`lang` of POST
 * /api/turismo/ticket, else `Accept-Language`, else Spanish), and that
 * language is part of its cache key and of its `?v=` URL; the public pages'
 * cards have an English version under `/en/og/`. The text satori is given
 * (the element tree, before it becomes paths and pixels) is checked: an
 * English card says English words and no Spanish ones.
 */
import assert from "node:assert/strict";
import { getTicket } from "@/lib/db/tickets.ts";
import { getShareCardPath } from "@/lib/og/card_url.ts";
import { getPageCard } from "@/lib/og/page_cards.ts";
import {
  buildPageCardElement,
  buildShareCardElement,
} from "@/lib/og/render_card.ts";
import type { ShareCard } from "@/lib/og/card_types.ts";
import { BRANDING } from "@/lib/og/testdata/cards.ts";
import {
  createTestContext,
  loadShippedData,
  postJson,
  type TestContext,
} from "../test_utils.ts";

/** Every string in a satori element tree (Preact VNodes), in order. */
function textOf(node: unknown): string[] {
  if (typeof node === "string" || typeof node === "number") {
    return [String(node)];
  }
  if (Array.isArray(node)) return node.flatMap(textOf);
  if (!node || typeof node !== "object") return [];
  const { type, props } = node as {
    type: unknown;
    props?: { children?: unknown };
  };
  if (typeof type === "function") {
    return textOf((type as (p: unknown) => unknown)(props));
  }
  return textOf(props?.children);
}

/** Words of the Spanish cards that must not be on an English one. */
const SPANISH =
  /Lugares|lugar|Insignia|Descubre|Visita|colecciona|pasaporte|PASAPORTE|Ruta|ruta|Entrada|Atractivo|atractivos|Registra/;

function shareCard(overrides: Partial<ShareCard> = {}): ShareCard {
  return {
    name: "Ana López",
    visitCount: 3,
    totalAttractions: 17,
    badges: [{ id: "primera", name: "Primera visita", icon: "🌟" }],
    // The operator's tagline is the data set's, not the card's words.
    branding: { ...BRANDING, tagline: "" },
    ...overrides,
  };
}

async function makeTicket(
  ctx: TestContext,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return await postJson(ctx, "/api/turismo/ticket", {
    name: "Ana López",
    email: "ana@ejemplo.mx",
    ...body,
  }, headers);
}

Deno.test("the route's card in the ticket's language", async (t) => {
  await t.step(
    "an English card's text is English, before rasterising",
    async () => {
      const text = textOf(
        await buildShareCardElement(shareCard({ lang: "en" })),
      )
        .join("\n");
      for (
        const words of [
          "TOURIST PASSPORT",
          "On the route",
          "Places visited",
          "of 17 places",
          "Badge earned",
          "Route completed",
          "14 places left to discover",
          "Discover your route",
          "Visit, collect badges and complete your passport.",
        ]
      ) {
        assert.ok(text.includes(words), `${words} in:\n${text}`);
      }
      assert.doesNotMatch(text, SPANISH);
    },
  );

  await t.step("a Spanish card keeps its Spanish words", async () => {
    const text = textOf(await buildShareCardElement(shareCard())).join("\n");
    for (
      const words of [
        "PASAPORTE TURÍSTICO",
        "En la ruta",
        "Lugares visitados",
        "de 17 lugares",
        "Insignia ganada",
        "14 lugares por descubrir",
        "Descubre tu ruta",
      ]
    ) {
      assert.ok(text.includes(words), words);
    }
  });

  await t.step(
    "a Spanish card speaks of its tourist in words for anyone",
    async () => {
      for (const name of ["María Fernanda López", ""]) {
        const text = textOf(await buildShareCardElement(shareCard({ name })))
          .join("\n");
        // "Viajero", "viajera": a gendered word beside a woman's name (or
        // for a nameless tourist) was the card's words until issue 41.
        assert.doesNotMatch(text, /viajer[oa]/i, text);
        assert.ok(text.includes(name || "Visitante"), text);
      }
    },
  );

  await t.step("English plurals and the empty route", async () => {
    const none = textOf(
      await buildShareCardElement(
        shareCard({
          lang: "en",
          visitCount: 0,
          badges: [],
          totalAttractions: 1,
        }),
      ),
    ).join("\n");
    assert.ok(none.includes("of 1 place"), none);
    assert.ok(none.includes("The first one awaits!"), none);
    assert.ok(none.includes("1 place left to discover"), none);
    const done = textOf(
      await buildShareCardElement(
        shareCard({ lang: "en", visitCount: 17, name: "" }),
      ),
    ).join("\n");
    assert.ok(done.includes("Route complete!"), done);
    assert.ok(done.includes("Traveler"), done);
  });

  await t.step(
    "the card's URL names its language; Spanish URLs stay as they were",
    () => {
      const counts = { visitCount: 3, badgeCount: 1 };
      assert.equal(
        getShareCardPath("abc-1", counts),
        "/api/turismo/og/abc-1?v=3-1",
      );
      assert.equal(
        getShareCardPath("abc-1", { ...counts, lang: "es" }),
        "/api/turismo/og/abc-1?v=3-1",
      );
      assert.equal(
        getShareCardPath("abc-1", { ...counts, lang: "en", nameRevision: 2 }),
        "/api/turismo/og/abc-1?v=3-1-2-en",
      );
    },
  );
});

Deno.test("POST /api/turismo/ticket: the ticket's language", async (t) => {
  await using ctx = await createTestContext();

  await t.step('lang "en" is kept on the ticket in KV', async () => {
    const res = await makeTicket(ctx, { shareCode: "lang-en-01", lang: "en" });
    assert.equal(res.status, 200, await res.text());
    assert.equal((await getTicket(ctx.deps.kv, "lang-en-01"))?.lang, "en");
  });

  await t.step(
    "without lang, an English Accept-Language makes it English",
    async () => {
      const res = await makeTicket(ctx, { shareCode: "lang-en-02" }, {
        "accept-language": "en-GB,en;q=0.9",
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.equal((await getTicket(ctx.deps.kv, "lang-en-02"))?.lang, "en");
    },
  );

  await t.step(
    "without either it is Spanish, stored as before (no field)",
    async () => {
      for (
        const [code, headers] of [
          ["lang-es-01", {}],
          ["lang-es-02", { "accept-language": "es-MX,es;q=0.9,en;q=0.8" }],
          ["lang-es-03", { "accept-language": "de" }],
        ] as const
      ) {
        const res = await makeTicket(ctx, { shareCode: code }, headers);
        assert.equal(res.status, 200);
        await res.body?.cancel();
        const ticket = await getTicket(ctx.deps.kv, code);
        assert.ok(ticket);
        assert.equal("lang" in ticket, false);
      }
    },
  );

  await t.step(
    "a language the portal does not have is a 400 naming lang",
    async () => {
      const res = await makeTicket(ctx, {
        shareCode: "lang-xx-01",
        lang: "fr",
      });
      assert.equal(res.status, 400);
      assert.deepEqual(await res.json(), {
        error: "Solicitud no válida",
        details:
          'El idioma del boleto (lang) debe ser uno de estos valores: "es", "en".',
        field: "lang",
      });
      const english = await makeTicket(ctx, {
        shareCode: "lang-xx-01",
        lang: "fr",
      }, {
        "accept-language": "en",
      });
      assert.deepEqual(await english.json(), {
        error: "Invalid request",
        details:
          'The ticket language (lang) must be one of these values: "es", "en".',
        field: "lang",
      });
      assert.equal(await getTicket(ctx.deps.kv, "lang-xx-01"), null);
    },
  );

  await t.step(
    "the English and the Spanish card of the same route are two images",
    async () => {
      const en = await ctx.app.request("/api/turismo/og/lang-en-01?v=0-0-en");
      const es = await ctx.app.request("/api/turismo/og/lang-es-01?v=0-0");
      assert.equal(en.status, 200);
      assert.equal(es.status, 200);
      assert.equal(en.headers.get("content-type"), "image/png");
      const [enBytes, esBytes] = [
        new Uint8Array(await en.arrayBuffer()),
        new Uint8Array(await es.arrayBuffer()),
      ];
      assert.notEqual(en.headers.get("etag"), es.headers.get("etag"));
      assert.notDeepEqual(enBytes, esBytes);
      // The spec's URL (no v) of the English ticket is the same English card.
      const latest = await ctx.app.request("/api/turismo/og/lang-en-01");
      assert.equal(latest.headers.get("etag"), en.headers.get("etag"));
      await latest.body?.cancel();
    },
  );

  await t.step("the English route page links its English card", async () => {
    const res = await ctx.app.request("/en/ruta/lang-en-01");
    const html = await res.text();
    assert.match(html, /\/api\/turismo\/og\/lang-en-01\?v=0-0-en/);
  });
});

Deno.test("the public pages' cards in English", async (t) => {
  const loaded = await loadShippedData();
  await using ctx = await createTestContext();

  await t.step("the home card's text is English", async () => {
    const card = getPageCard(loaded, { kind: "home", lang: "en" })!;
    const text = textOf(await buildPageCardElement(card)).join("\n");
    for (
      const words of [
        "Tourist passport",
        "Official tourism portal · Tequila, Jalisco",
        "17 attractions",
        "Passport with badges",
        "Discover Tequila",
        "Visit, collect badges and complete your passport.",
      ]
    ) {
      assert.ok(text.includes(words), `${words} in:\n${text}`);
    }
    assert.doesNotMatch(text, SPANISH);
  });

  await t.step("an attraction's card uses the English data set", async () => {
    const slug = loaded.data.attractions.find((a) =>
      a.i18n?.en?.name && a.i18n.en.name !== a.name
    )!.slug;
    const spanish = loaded.attractionsBySlug.get(slug)!;
    const card = getPageCard(loaded, { kind: "attraction", slug, lang: "en" })!;
    assert.equal(card.title, spanish.i18n!.en!.name);
    assert.equal(card.text, spanish.i18n!.en!.summary ?? spanish.summary);
    const text = textOf(await buildPageCardElement(card)).join("\n");
    assert.ok(text.includes("Check in on your visit"), text);
    assert.match(text, /Free admission|Admission MX\$/);
    assert.match(text, /(min|hr) visit/);
    assert.doesNotMatch(text, SPANISH);
  });

  await t.step(
    "/en/og/inicio.png is a PNG other than /og/inicio.png",
    async () => {
      const en = await ctx.app.request("/en/og/inicio.png");
      const es = await ctx.app.request("/og/inicio.png");
      assert.equal(en.status, 200);
      assert.equal(en.headers.get("content-type"), "image/png");
      assert.equal(es.status, 200);
      assert.notEqual(en.headers.get("etag"), es.headers.get("etag"));
      await en.body?.cancel();
      await es.body?.cancel();
    },
  );

  await t.step(
    "/en/og/atractivos/<slug>.png is the English card; an unknown slug is 404",
    async () => {
      const slug = loaded.data.attractions[0].slug;
      const en = await ctx.app.request(`/en/og/atractivos/${slug}.png`);
      const es = await ctx.app.request(`/og/atractivos/${slug}.png`);
      assert.equal(en.status, 200);
      assert.notEqual(en.headers.get("etag"), es.headers.get("etag"));
      await en.body?.cancel();
      await es.body?.cancel();
      const missing = await ctx.app.request("/en/og/atractivos/no-existe.png");
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    },
  );
});
