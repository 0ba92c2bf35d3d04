/**
 * The services, practical information, privacy notice, passport (and its
 * data pages) and open data pages in English, through the app in process:
 * English headings and sentences, links to English pages, numbers and
 * dates in the English locale, and data texts without English shown in
 * Spanish and marked (`lang="es"`, `untranslated`, "(in Spanish)"). The
 * pages' Spanish is checked by their own tests; tests/pages/i18n_pages_test.ts
 * checks every public page for Spanish catalogue sentences, and the pages
 * here that need a passport are checked for them below.
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import {
  getCatalogues,
  getLangs,
  t as translate,
} from "@/lib/i18n/catalogue.ts";
import {
  getRecordText,
  PERSONAL_RECORDS,
} from "@/lib/personal_data/retention.ts";
import { findSpanishSentences } from "../i18n_text.ts";
import {
  assertJson,
  createTestContext,
  mutateShipped,
  NAMED_HOSTS_ENV,
  postAsUser,
  postJson,
  SHIPPED,
  type TestContext,
  ticketBody,
  verifyVisits,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";
/** Noon in Tequila (UTC-6) on Sunday 22 November 2026. */
const NOON = new Date("2026-11-22T18:00:00Z");

function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(
    html,
    "text/html",
  ) as unknown as Document;
}

/** GETs an English page: its status, that it is HTML in English, and its document. */
async function getEnglish(
  ctx: TestContext,
  path: string,
  { status = 200, headers = {} }: {
    status?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<{ res: Response; html: string; doc: Document }> {
  const res = await ctx.app.request(path, { headers });
  assert.equal(res.status, status, path);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html><html lang="en-US">/, path);
  return { res, html, doc: parseHtml(html) };
}

/** The text of the first element `selector` finds, spaces collapsed. */
function textOf(doc: Document | Element, selector: string): string {
  const element = doc.querySelector(selector);
  assert.ok(element, `the page has ${selector}`);
  return (element.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** Every `href` of the links under `selector`. */
function hrefsIn(doc: Document, selector: string): string[] {
  return [...doc.querySelectorAll(`${selector} a[href]`)].map((a) =>
    a.getAttribute("href")!
  );
}

/** A context whose data set is the shipped one changed by `change`. */
async function createChangedContext(
  change: Parameters<typeof mutateShipped>[0],
) {
  return await createTestContext({
    data: new DataStore(await parseTourismData(mutateShipped(change))),
  });
}

Deno.test("GET /en/turismo/servicios", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOON });

  await t.step(
    "answers in English: title, groups, filters and how the order is made",
    async () => {
      const { doc, html } = await getEnglish(ctx, "/en/turismo/servicios");
      assert.equal(
        textOf(doc, "h1"),
        "Hotels, restaurants and guides in Tequila",
      );
      assert.equal(textOf(doc, "#grupo-hotel"), "Where to stay");
      assert.equal(textOf(doc, "#grupo-restaurante"), "Where to eat");
      assert.equal(textOf(doc, "#grupo-guia"), "Tour guides");
      assert.equal(
        textOf(doc, ".services-order__rule"),
        "The order changes every day so everyone gets the same visibility; share your location to sort by distance.",
      );
      assert.ok(
        html.includes(
          '<a href="/en/turismo/servicios?tipo=hotel">Places to stay (4)</a>',
        ),
      );
      assert.ok(
        html.includes(
          '<a href="/en/turismo/servicios" aria-current="page">All (11)</a>',
        ),
      );
      assert.equal(
        doc.querySelector('link[rel="canonical"]')?.getAttribute("href"),
        "http://localhost/en/turismo/servicios",
      );
      // The location button speaks English before it hydrates too.
      assert.match(textOf(doc, ".near-me"), /^Use my location/);
    },
  );

  await t.step(
    "every card links the English provider and attraction pages; kinds and prices in English",
    async () => {
      const { doc } = await getEnglish(ctx, "/en/turismo/servicios");
      const cards = [...doc.querySelectorAll("article.provider")];
      assert.equal(cards.length, SHIPPED.providers.length);
      for (const card of cards) {
        const slug = card.id.replace("prestador-", "");
        const provider = SHIPPED.providers.find((p) => p.slug === slug)!;
        assert.equal(
          card.querySelector(".provider__name a")?.getAttribute("href"),
          `/en/turismo/servicios/${slug}`,
        );
        const nearby = [...card.querySelectorAll(".provider__nearby a")];
        assert.ok(nearby.length > 0);
        for (const a of nearby) {
          assert.match(a.getAttribute("href")!, /^\/en\/turismo\/atractivos\//);
        }
        const price = { "$": "Budget", "$$": "Mid-range", "$$$": "High-end" }[
          provider.priceRange
        ];
        assert.ok(
          card.textContent!.includes(`${provider.priceRange} · ${price}`),
          provider.slug,
        );
        assert.equal(
          textOf(card, ".chip"),
          { hotel: "Lodging", restaurante: "Restaurant", guia: "Tour guide" }[
            provider.type
          ],
        );
        assert.equal(
          textOf(card, ".provider__description"),
          provider.i18n!.en!.description,
        );
      }
    },
  );

  await t.step(
    "?cerca= sorts by distance and says so in English, with a way back to the English list",
    async () => {
      const { doc } = await getEnglish(
        ctx,
        "/en/turismo/servicios?cerca=20.8845,-103.839",
      );
      assert.match(
        textOf(doc, ".services-order__rule"),
        /^Sorted by distance from your location \(as the crow flies; the road may be longer\)\. Remove my location$/,
      );
      assert.deepEqual(hrefsIn(doc, ".services-order__rule"), [
        "/en/turismo/servicios",
      ]);
      assert.match(
        textOf(doc, ".provider__distance"),
        /^(\d+ m|[\d.]+ km) from you, as the crow flies$/,
      );
    },
  );

  await t.step(
    "a provider's text without English shows in Spanish, marked as Spanish",
    async () => {
      await using changed = await createChangedContext((data) => {
        delete data.providers[0].i18n.en.description;
      });
      const provider = SHIPPED.providers[0];
      const { doc } = await getEnglish(changed, "/en/turismo/servicios");
      const description = doc.querySelector(
        `#prestador-${provider.slug} .provider__description`,
      )!;
      const marked = description.querySelector('span.untranslated[lang="es"]');
      assert.equal(marked?.textContent, provider.description);
      assert.equal(
        textOf(description, ".untranslated-note"),
        translate("en", "common.untranslated"),
      );
      // Its schedule is translated: not marked.
      assert.equal(
        doc.querySelectorAll(`#prestador-${provider.slug} .untranslated`)
          .length,
        1,
      );
    },
  );
});

Deno.test("GET /en/turismo/servicios/:slug", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOON });

  await t.step(
    "a restaurant's page in English: breadcrumbs to English pages, contact, what to try, before you go",
    async () => {
      const { doc } = await getEnglish(
        ctx,
        "/en/turismo/servicios/fonda-dona-chayo",
      );
      assert.deepEqual(hrefsIn(doc, ".breadcrumbs"), [
        "/en/",
        "/en/turismo/servicios",
        "/en/turismo/servicios?tipo=restaurante",
      ]);
      assert.deepEqual(
        [...doc.querySelectorAll(".breadcrumbs li")].map((li) =>
          li.textContent
        ),
        ["Home", "Services", "Restaurants", "Fonda Doña Chayo"],
      );
      assert.equal(textOf(doc, "#contacto-title"), "Details and contact");
      assert.equal(textOf(doc, "#probar-title"), "What to try here");
      assert.equal(textOf(doc, "#antes-title"), "Before you go");
      assert.equal(textOf(doc, "#cerca-title"), "Nearby attractions");
      assert.match(
        textOf(doc, ".grid .card__extra"),
        /^(\d+ m|[\d.]+ km) away as the crow flies$/,
      );
      for (const href of hrefsIn(doc, ".grid")) {
        assert.match(href, /^\/en\/turismo\/atractivos\//);
      }
    },
  );

  await t.step(
    "a guide's packages in English, with the English price and unit",
    async () => {
      const pkg = SHIPPED.packages.find((p) => p.per === "grupo")!;
      const { doc } = await getEnglish(
        ctx,
        `/en/turismo/servicios/${pkg.provider}`,
      );
      const item = textOf(doc, "#paquetes-title + ul li");
      assert.ok(
        item.startsWith(`${pkg.i18n!.en!.name} (MX$5,400 per group): `),
        item,
      );
    },
  );

  await t.step("an unknown provider is the English 404 page", async () => {
    const { doc } = await getEnglish(ctx, "/en/turismo/servicios/no-existe", {
      status: 404,
    });
    assert.equal(textOf(doc, "h1"), translate("en", "errors.title404"));
  });
});

Deno.test("GET /en/turismo/informacion-practica", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "answers in English: sections, getting here, food with English links",
    async () => {
      const { doc } = await getEnglish(ctx, "/en/turismo/informacion-practica");
      assert.equal(
        textOf(doc, "h1"),
        "Practical information for visiting Tequila",
      );
      assert.deepEqual(
        [...doc.querySelectorAll(".info-toc a")].map((a) => a.textContent),
        [
          "Weather and what to pack",
          "Getting here",
          "Suggested routes",
          "Upcoming events",
          "Tour packages",
          "What to eat",
          "History and customs",
          "Emergency numbers",
        ],
      );
      assert.equal(
        textOf(doc, ".tips"),
        `Best time to visit: ${SHIPPED.weather.i18n!.en!.bestSeason}`,
      );
      const first = SHIPPED.directions[0];
      assert.match(
        textOf(doc, ".info-list h3"),
        new RegExp(`^From ${first.i18n?.en?.fromCity ?? first.fromCity} `),
      );
      assert.match(
        textOf(doc, "#como-llegar .info-list p"),
        /^By car: /,
      );
      assert.match(textOf(doc, ".season__temp"), /^\d+ to \d+ °C /);
      assert.deepEqual(hrefsIn(doc, ".info-list__where").slice(0, 1), [
        "/en/turismo/servicios/fonda-dona-chayo",
      ]);
      assert.ok(
        hrefsIn(doc, "#comida").includes(
          "/en/turismo/servicios?tipo=restaurante",
        ),
      );
      assert.equal(textOf(doc, "#emergencias-title"), "Emergency numbers");
    },
  );

  await t.step(
    "a packing list without English shows in Spanish, marked as Spanish once",
    async () => {
      await using changed = await createChangedContext((data) => {
        delete data.weather.i18n.en.packing;
      });
      const { doc } = await getEnglish(
        changed,
        "/en/turismo/informacion-practica",
      );
      const list = doc.querySelector("ul.checklist")!;
      assert.equal(list.getAttribute("lang"), "es");
      assert.match(list.getAttribute("class")!, /\buntranslated\b/);
      assert.equal(
        textOf(list, "li"),
        SHIPPED.weather.packing[0],
      );
      assert.equal(
        textOf(doc, "#clima h3:not(.season__months)"),
        `What to pack ${translate("en", "common.untranslated")}`,
      );
    },
  );
});

Deno.test("GET /en/aviso-de-privacidad", async (t) => {
  await using ctx = await createTestContext();
  const { doc, html } = await getEnglish(ctx, "/en/aviso-de-privacidad");

  await t.step(
    "the English notice says the Spanish one is the binding version and links it",
    async () => {
      assert.equal(textOf(doc, "h1"), "Privacy notice");
      assert.match(
        textOf(doc, ".privacy-translation"),
        /Only the Spanish version is legally binding: read it here\.$/,
      );
      const link = doc.querySelector(".privacy-translation a")!;
      assert.equal(link.getAttribute("href"), "/aviso-de-privacidad");
      assert.equal(link.getAttribute("hreflang"), "es");
      const spanish = await (await ctx.app.request("/aviso-de-privacidad"))
        .text();
      assert.ok(!spanish.includes("privacy-translation"));
      assert.match(
        textOf(doc, ".privacy-updated"),
        /^Last updated: November 25, 2026$/,
      );
    },
  );

  await t.step(
    "the retention table: every record in English, periods from the same table",
    () => {
      const rows = [...doc.querySelectorAll('tr[id^="registro-"]')];
      assert.equal(rows.length, PERSONAL_RECORDS.length);
      for (const record of PERSONAL_RECORDS) {
        assert.equal(
          textOf(doc, `#registro-${record.id} th`),
          getRecordText("en", record, "name"),
        );
      }
      assert.equal(
        textOf(doc, "#registro-passport .retention-rules li"),
        "Guest passport: 24 months without use",
      );
      assert.match(
        textOf(doc, "#registro-audit"),
        /365 days after it is created/,
      );
      assert.match(
        textOf(doc, "#registro-staff_session"),
        /176 hours \(about 7 days\) after the last activity/,
      );
      assert.equal(
        textOf(doc, "caption"),
        "Records with personal data and how long they are kept",
      );
    },
  );

  await t.step(
    "every record's name, contents and purpose are in each language's own catalogue, translated",
    () => {
      for (const record of PERSONAL_RECORDS) {
        for (const part of ["name", "holds", "purpose"] as const) {
          const key = `page_privacy.record_${record.id}_${part}`;
          const spanish = getRecordText("es", record, part);
          for (const lang of getLangs()) {
            assert.ok(
              getCatalogues().get(lang)!.messages.has(key),
              `${lang}: ${key}`,
            );
            if (lang !== "es") {
              assert.notEqual(getRecordText(lang, record, part), spanish);
            }
          }
        }
      }
    },
  );

  await t.step(
    "the rights lead to the English passport page; the data set's English contact",
    () => {
      for (const href of hrefsIn(doc, ".privacy-rights")) {
        assert.equal(href, "/en/mi-pasaporte#datos-titulo");
      }
      const unit = SHIPPED.privacy.i18n!.en!.transparencyUnit!;
      assert.equal(textOf(doc, "#responsable h3"), unit.name);
      assert.match(html, /<strong>Office hours:<\/strong> Monday–Friday/);
      assert.match(
        textOf(doc, "#destinos"),
        /To the language model provider: your messages to the assistant/,
      );
    },
  );

  await t.step(
    "with OPENAI_BASE_URL and WordPress the English notice names their hosts",
    async () => {
      await using named = await createTestContext({ env: NAMED_HOSTS_ENV });
      const { doc: namedDoc } = await getEnglish(
        named,
        "/en/aviso-de-privacidad",
      );
      const where = textOf(namedDoc, "#destinos");
      assert.ok(
        where.includes("To the language model provider (modelos.ejemplo.mx)"),
      );
      assert.ok(where.includes("(WordPress, at cms.tequila.ejemplo.mx)"));
    },
  );
});

/** A guest passport as a browser opens it, with visits and a ticket. */
async function openGuestWithTicket(ctx: TestContext) {
  const res = await postJson(ctx, "/api/session-token", { guest: true }, {
    origin: ORIGIN,
  });
  const { userId } = await assertJson(res, 200);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  await verifyVisits(ctx, userId, 2);
  const ticket = await postAsUser(
    ctx,
    "/api/turismo/ticket",
    userId,
    ticketBody({ name: "Jane Doe" }),
  );
  assert.equal(ticket.status, 200, await ticket.text());
  return { cookie, userId: userId as string };
}

Deno.test("GET /en/mi-pasaporte", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "a first visitor's passport in English, its islands with English messages",
    async () => {
      const { doc } = await getEnglish(ctx, "/en/mi-pasaporte");
      assert.equal(textOf(doc, "h1"), "My passport");
      assert.match(
        textOf(doc, ".lead"),
        /^Check in at every attraction you visit with the code on its sign/,
      );
      assert.equal(textOf(doc, "#boleto-titulo"), "My ticket to share");
      const props = ["Passport", "TicketForm"].map((name) =>
        JSON.parse(
          doc.querySelector(`[data-island="${name}"] script`)!.textContent!,
        )
      );
      for (const island of props) {
        assert.equal(island.lang, "en");
        assert.equal(island.locale, "en-US");
      }
    },
  );

  await t.step(
    "a guest with a ticket: visits named and dated in English, data controls posting to English addresses",
    async () => {
      const guest = await openGuestWithTicket(ctx);
      const { doc, html } = await getEnglish(ctx, "/en/mi-pasaporte", {
        headers: { cookie: guest.cookie },
      });
      assert.equal(textOf(doc, "#datos-titulo"), "Your data");
      assert.equal(
        doc.querySelector(".data-controls a[download]")?.getAttribute("href"),
        "/en/mi-pasaporte/datos.json",
      );
      assert.equal(
        doc.querySelector(".data-controls form")?.getAttribute("action"),
        "/en/mi-pasaporte/nombre",
      );
      assert.ok(
        hrefsIn(doc, ".data-controls").includes("/en/mi-pasaporte/borrar"),
      );
      const passport = JSON.parse(
        doc.querySelector('[data-island="Passport"] script')!.textContent!,
      );
      const first = SHIPPED.attractions[0];
      const visit = passport.visits.find((v: { slug: string }) =>
        v.slug === first.slug
      );
      assert.equal(visit.name, first.i18n?.en?.name ?? first.name);
      assert.match(visit.visitedLabel, /^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
      assert.deepEqual(findSpanishSentences(html), []);
      // The same check finds the Spanish page's sentences.
      const spanish = await ctx.app.request("/mi-pasaporte", {
        headers: { cookie: guest.cookie },
      });
      assert.ok(findSpanishSentences(await spanish.text()).length > 5);
    },
  );

  await t.step(
    "changing the name from the English page comes back to it with an English notice",
    async () => {
      const guest = await openGuestWithTicket(ctx);
      const res = await ctx.app.request("/en/mi-pasaporte/nombre", {
        method: "POST",
        headers: {
          cookie: guest.cookie,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ name: "Jane Q. Doe" }),
      });
      assert.equal(res.status, 303);
      assert.equal(
        res.headers.get("location"),
        "/en/mi-pasaporte?aviso=nombre",
      );
      const { doc } = await getEnglish(ctx, "/en/mi-pasaporte?aviso=nombre", {
        headers: { cookie: guest.cookie },
      });
      assert.equal(
        textOf(doc, ".notice--ok"),
        "Done: your route and your card now show “Jane Q. Doe”.",
      );
    },
  );

  await t.step(
    "a bad name, a stranger and another site get English message pages",
    async () => {
      const guest = await openGuestWithTicket(ctx);
      const post = (headers: Record<string, string>, name = "") =>
        ctx.app.request("/en/mi-pasaporte/nombre", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...headers,
          },
          body: new URLSearchParams({ name }),
        });
      const cases = [
        [
          await post({ cookie: guest.cookie, origin: ORIGIN }),
          400,
          "Check the name",
        ],
        [await post({ origin: ORIGIN }, "Jane"), 401, "You're not signed in"],
        [
          await post({ cookie: guest.cookie, origin: "https://evil.example" }),
          403,
          "Request refused",
        ],
      ] as const;
      for (const [res, status, title] of cases) {
        assert.equal(res.status, status);
        const html = await res.text();
        assert.match(html, /<html lang="en-US">/);
        const doc = parseHtml(html);
        assert.equal(textOf(doc, "h1").replaceAll("’", "'"), title);
        // The refusal is the cross-site check's page, with a way back.
        const links = status === 403 ? ".error-page" : ".passport-page";
        assert.ok(hrefsIn(doc, links).includes("/en/mi-pasaporte"));
      }
      const json = await ctx.app.request("/en/mi-pasaporte/datos.json");
      const body = await assertJson(json, 401);
      assert.equal(body.error, "You're not signed in");
    },
  );
});

Deno.test("GET and POST /en/mi-pasaporte/borrar", async (t) => {
  await using ctx = await createTestContext();
  const guest = await openGuestWithTicket(ctx);

  await t.step(
    "the confirmation page is English and posts to the English address",
    async () => {
      const { doc, html } = await getEnglish(ctx, "/en/mi-pasaporte/borrar", {
        headers: { cookie: guest.cookie },
      });
      assert.equal(textOf(doc, "h1"), "Delete my passport and my data");
      assert.equal(
        doc.querySelector("form")?.getAttribute("action"),
        "/en/mi-pasaporte/borrar",
      );
      assert.match(
        textOf(doc, ".passport-page"),
        /This can't be undone\. If you want to keep a copy, download your data first\./,
      );
      assert.deepEqual(hrefsIn(doc, ".passport-page"), [
        "/en/mi-pasaporte/datos.json",
        "/en/mi-pasaporte",
      ]);
      assert.deepEqual(findSpanishSentences(html), []);
    },
  );

  await t.step(
    "erasing from the English page leads to the English status page",
    async () => {
      const res = await ctx.app.request("/en/mi-pasaporte/borrar", {
        method: "POST",
        headers: { cookie: guest.cookie, origin: ORIGIN },
      });
      assert.equal(res.status, 303);
      const location = res.headers.get("location")!;
      assert.match(location, /^\/en\/mi-pasaporte\/borrado\/[0-9a-f-]{36}$/);
      const { doc, html } = await getEnglish(ctx, location);
      assert.match(
        textOf(doc, "h1"),
        /^(Done: we deleted your data|Deletion in progress)$/,
      );
      assert.deepEqual(findSpanishSentences(html), []);
      // Signed out now: the confirmation page sends back to the English passport.
      const again = await ctx.app.request("/en/mi-pasaporte/borrar", {
        headers: { cookie: guest.cookie },
      });
      assert.equal(again.status, 303);
      assert.equal(again.headers.get("location"), "/en/mi-pasaporte");
    },
  );
});

Deno.test("GET /en/datos", async (t) => {
  await using ctx = await createTestContext();
  const { doc, html } = await getEnglish(ctx, "/en/datos");

  await t.step(
    "an English page around the Spanish files: the same file links, the licence in English",
    () => {
      assert.equal(textOf(doc, "h1"), "Open tourism data for Tequila");
      for (
        const file of [
          "visitas-diarias.csv",
          "calificaciones-mensuales.csv",
          "datapackage.json",
        ]
      ) {
        assert.ok(html.includes(`href="/datos/${file}"`), file);
      }
      assert.match(
        html,
        /License: <a href="https:\/\/creativecommons.org\/licenses\/by\/4.0\/">Creative Commons Attribution 4.0 International<\/a> \(CC-BY-4.0\)/,
      );
      assert.match(html, /lower than 5, the cell is left blank/);
    },
  );

  await t.step(
    "says the files are in Spanish and what each column means",
    async () => {
      assert.match(
        textOf(doc, "h2 + p"),
        /^The files are published in Spanish/,
      );
      const columns = [...doc.querySelectorAll(".data-columns dt code")].map((
        c,
      ) => c.textContent);
      assert.deepEqual(columns, [
        "fecha",
        "mes",
        "atractivo",
        "nombre",
        "visitas",
        "calificaciones",
        "promedio",
      ]);
      // Every column the files really have is explained.
      const csv = await (await ctx.app.request("/datos/visitas-diarias.csv"))
        .text();
      for (const column of csv.split("\n")[0].trim().split(",")) {
        assert.ok(columns.includes(column), column);
      }
    },
  );
});
