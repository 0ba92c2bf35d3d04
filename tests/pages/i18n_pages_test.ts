/**
 * The public pages in every language, through the app in process: each page
 * answers in each language at its own address, says its language, links its
 * other-language versions (`hreflang`, the switcher) and its canonical
 * address, and an English page carries no Spanish sentence of the message
 * catalogue. The page cache keeps the languages apart and a write drops a
 * route page in every language.
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { saveTicket } from "@/lib/db/tickets.ts";
import { DEFAULT_LANG, getLangMeta, getLangs } from "@/lib/i18n/catalogue.ts";
import { localizePath } from "@/lib/i18n/paths.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  createTestContext,
  postAsUser,
  randomTicket,
  randomUserId,
  SHIPPED,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";
import { getReadableText, getSpanishFragments } from "../i18n_text.ts";

const BASE_URL = "https://turismo.example.mx";

await ensureBuild();

/**
 * Every public page, by its default-language path (`{route}`: a route with
 * visits). Extend it with each new public page.
 */
const PAGES = [
  "/",
  "/turismo/atractivos",
  "/turismo/atractivos?categoria=museo",
  ...SHIPPED.attractions.map((a) => `/turismo/atractivos/${a.slug}`),
  "/turismo/servicios",
  "/turismo/servicios?tipo=hotel",
  ...SHIPPED.providers.map((p) => `/turismo/servicios/${p.slug}`),
  "/turismo/informacion-practica",
  "/aviso-de-privacidad",
  "/ruta/{route}",
  "/mi-pasaporte",
  "/datos",
];

/** `path` (which may carry a query) in `lang`. */
function pathIn(lang: string, path: string): string {
  const [pathname, query] = path.split("?");
  return `${localizePath(lang, pathname)}${query ? `?${query}` : ""}`;
}

function parseHtml(html: string): Document {
  return new DOMParser().parseFromString(
    html,
    "text/html",
  ) as unknown as Document;
}

/** The app with a route of three visits; `fill` puts its code in `{route}`. */
async function createPagesContext(): Promise<{
  ctx: TestContext;
  fill: (path: string) => string;
  get: (path: string) => Promise<Response>;
}> {
  const ctx = await createTestContext({ env: { BASE_URL } });
  const userId = randomUserId();
  const ticket = await saveTicket(
    ctx.deps.kv,
    randomTicket({ userId, name: "Ana" }),
  );
  await verifyVisits(ctx, userId, 3);
  const fill = (path: string) => path.replace("{route}", ticket.shareCode);
  return {
    ctx,
    fill,
    get: async (path) => await ctx.app.request(fill(path)),
  };
}

Deno.test("every public page in every language", async (t) => {
  const { ctx, fill, get } = await createPagesContext();
  await using _ = ctx;

  for (const page of PAGES.map(fill)) {
    for (const lang of getLangs()) {
      const path = pathIn(lang, page);
      await t.step(
        `${path} speaks ${lang} and links its other languages`,
        async () => {
          const res = await get(path);
          assert.equal(res.status, 200, path);
          const html = await res.text();
          const doc = parseHtml(html);
          const meta = getLangMeta(lang);
          assert.equal(
            doc.documentElement.getAttribute("lang"),
            meta.intlLocale,
          );
          const resolved = (p: string) => `${BASE_URL}${p}`;

          // Canonical and og:url in this language, when the page has one:
          // the page's path in this language (a query it keeps, kept).
          const canonicalOf = (page: Document) =>
            page.querySelector('link[rel="canonical"]')?.getAttribute("href");
          const canonical = canonicalOf(doc);
          if (canonical) {
            const url = new URL(canonical);
            assert.equal(
              `${url.origin}${url.pathname}`,
              resolved(pathIn(lang, page.split("?")[0])),
            );
            assert.equal(
              doc.querySelector('meta[property="og:url"]')?.getAttribute(
                "content",
              ),
              canonical,
            );
          }

          // hreflang: every language (itself included), each the canonical
          // address of that language's page (else its path), and x-default,
          // the Spanish one.
          const alternates = new Map(
            [...doc.querySelectorAll('link[rel="alternate"][hreflang]')].map((
              link,
            ) => [link.getAttribute("hreflang"), link.getAttribute("href")]),
          );
          for (const other of getLangs()) {
            const otherPage = parseHtml(
              await (await get(pathIn(other, page))).text(),
            );
            assert.equal(
              alternates.get(other),
              canonicalOf(otherPage) ??
                resolved(pathIn(other, page.split("?")[0])),
              `${path}: hreflang ${other}`,
            );
          }
          assert.equal(
            alternates.get("x-default"),
            alternates.get(DEFAULT_LANG),
            `${path}: x-default`,
          );

          // og:locale, and the others as alternates.
          assert.equal(
            doc.querySelector('meta[property="og:locale"]')?.getAttribute(
              "content",
            ),
            meta.ogLocale,
          );
          assert.deepEqual(
            [...doc.querySelectorAll('meta[property="og:locale:alternate"]')]
              .map((tag) => tag.getAttribute("content")),
            getLangs().filter((other) => other !== lang).map((other) =>
              getLangMeta(other).ogLocale
            ),
          );

          // The switcher: the same page (query kept) in each other language.
          for (const other of getLangs().filter((other) => other !== lang)) {
            const link = doc.querySelector(
              `nav.lang-switch a[hreflang="${other}"]`,
            );
            assert.ok(link, `${path}: a switcher link to ${other}`);
            assert.equal(link.getAttribute("href"), pathIn(other, page));
            assert.equal(link.getAttribute("lang"), other);
            assert.equal(link.textContent, getLangMeta(other).name);
          }
        },
      );
    }
  }

  await t.step(
    "the not-found page speaks the language of its path, with no alternates",
    async () => {
      for (const lang of getLangs()) {
        const res = await get(pathIn(lang, "/turismo/atractivos/no-existe"));
        assert.equal(res.status, 404);
        const doc = parseHtml(await res.text());
        assert.equal(
          doc.documentElement.getAttribute("lang"),
          getLangMeta(lang).intlLocale,
        );
        assert.equal(
          doc.querySelectorAll('link[rel="alternate"]').length,
          0,
        );
        assert.equal(
          doc.querySelector(".error-page a.button")?.getAttribute("href"),
          localizePath(lang, "/"),
        );
      }
      const english = await (await get("/en/no-existe")).text();
      assert.match(english, /<h1 id="error-title">We couldn't find this page/);
      assert.match(english, /<title>Page not found · /);
    },
  );

  await t.step(
    "/en leads to /en/; the API and the staff console keep one address",
    async () => {
      const res = await get("/en");
      assert.equal(res.status, 301);
      assert.equal(res.headers.get("location"), "/en/");
      for (const path of ["/en/healthz", "/en/panel", "/en/auth/personal"]) {
        assert.equal((await get(path)).status, 404, path);
      }
      const api = await get("/en/api/turismo/og/abc");
      assert.equal(api.status, 404);
      assert.equal(api.headers.get("content-type"), "text/html; charset=UTF-8");
    },
  );

  await t.step(
    "an English page links English pages: menu, footer, cards and breadcrumbs",
    async () => {
      const doc = parseHtml(
        await (await get("/en/turismo/atractivos/plaza-principal")).text(),
      );
      const hrefs = [...doc.querySelectorAll("a[href^='/']")]
        .filter((a) => !a.closest("nav.lang-switch"))
        .map((a) => a.getAttribute("href")!);
      assert.ok(hrefs.length > 20, `${hrefs.length} links`);
      const spanish = hrefs.filter((href) =>
        !href.startsWith("/en/") && !href.startsWith("/og/") &&
        !href.startsWith("/static/")
      );
      assert.deepEqual(spanish, []);
    },
  );

  await t.step(
    "a data text missing in English shows in Spanish, marked with lang and a note",
    async () => {
      // A copy of the data set whose first attraction lost its English summary.
      const data = structuredClone(ctx.deps.data.current());
      const first = data.data.attractions[0] as { i18n?: { en?: object } };
      const { summary: _, ...rest } = first.i18n?.en as Record<string, unknown>;
      first.i18n = { ...first.i18n, en: rest };
      const { DataStore } = await import("@/lib/data/data_store.ts");
      await using other = await createTestContext({
        data: new DataStore({ ...data, version: `${data.version}-x` }, {
          onWarning: () => {},
        }),
      });
      const html = await (await other.app.request(
        `/en/turismo/atractivos/${SHIPPED.attractions[0].slug}`,
      )).text();
      const lead = parseHtml(html).querySelector(".page-head .lead")!;
      const marked = lead.querySelector('span.untranslated[lang="es"]');
      assert.equal(marked?.textContent, SHIPPED.attractions[0].summary);
      assert.equal(
        lead.querySelector(".untranslated-note")?.textContent,
        "(in Spanish)",
      );
    },
  );
});

Deno.test("no Spanish on an English page", async (t) => {
  const { ctx, get } = await createPagesContext();
  await using _ = ctx;
  const fragments = getSpanishFragments();

  await t.step("the check knows the Spanish catalogue's sentences", () => {
    assert.ok(fragments.length > 100, `${fragments.length} fragments`);
    const text = getReadableText(
      "<html><body><p>Saltar al contenido</p></body></html>",
    );
    assert.ok(
      fragments.some(({ fragment }) => text.includes(fragment)),
      "a Spanish page's sentence is found",
    );
  });

  const english = [
    ...PAGES.map((page) => pathIn("en", page)),
    "/en/turismo/atractivos/no-existe",
  ];
  for (const path of english) {
    await t.step(path, async () => {
      const res = await get(path);
      const text = getReadableText(await res.text());
      const found = fragments.filter(({ fragment }) => text.includes(fragment))
        .map(({ key, fragment }) => `${key}: "${fragment}"`);
      assert.deepEqual(found, [], `${path}:\n${found.join("\n")}`);
    });
  }
});

Deno.test("the page cache keeps languages apart; a visit drops a route page in every language", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  const userId = randomUserId();
  const { shareCode } = await saveTicket(ctx.deps.kv, randomTicket({ userId }));
  const paths = getLangs().map((lang) =>
    localizePath(lang, `/ruta/${shareCode}`)
  );
  const read = async (path: string) =>
    await (await ctx.app.request(path)).text();

  await t.step("each language's page is cached on its own", async () => {
    const [spanish, english] = await Promise.all(paths.map(read));
    assert.match(spanish, /<html lang="es-MX">/);
    assert.match(english, /<html lang="en-US">/);
    assert.match(spanish, /0 de 17 atractivos visitados/);
    assert.match(english, /0 of 17 attractions visited/);
    // Served again from memory, still in its language.
    assert.match(await read(paths[1]), /<html lang="en-US">/);
    assert.match(await read(paths[0]), /<html lang="es-MX">/);
  });

  await t.step("a verified visit shows at once in both languages", async () => {
    const res = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: SHIPPED.attractions[0].guideCode,
      userId,
    });
    assert.equal(res.status, 200);
    assert.match(await read(paths[0]), /1 de 17 atractivos visitados/);
    assert.match(await read(paths[1]), /1 of 17 attractions visited/);
  });
});
