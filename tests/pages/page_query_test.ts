/**
 * A visitor's query never reaches another visitor: every public GET route
 * of the route table (both languages, every attraction, provider and
 * filter) is asked for with a guide code from a poster and tracking tags,
 * then plainly, alone and at once; no byte of any answer, headers included,
 * carries them, and no page ever shows a real guide code (the check-in
 * island reads `?codigo=` in the browser).
 */
import assert from "node:assert/strict";
import { saveTicket } from "@/lib/db/tickets.ts";
import { ATTRACTION_CATEGORIES } from "@/lib/data/attraction_categories.ts";
import { LazyRoutes } from "@/lib/http/lazy_routes.ts";
import { getLangs } from "@/lib/i18n/catalogue.ts";
import { getLangPrefix } from "@/lib/i18n/paths.ts";
import { PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import { replaceGuideCode } from "@/lib/passport/guide_codes.ts";
import { PROVIDER_TYPES } from "@/lib/services/order.ts";
import {
  createTestContext,
  randomTicket,
  randomUserId,
  SHIPPED,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";

/** What a visitor's link carries that no one else may see. */
const SECRETS = {
  codigo: "SECRET123",
  utm_source: "LEAKSOURCE",
  utm_campaign: "LEAKCAMPAIGN",
  fbclid: "LEAKFBCLID",
  x: "LEAKOTHER",
  // Parameters pages read, with values they do not know.
  categoria: "LEAKCATEGORY",
  tipo: "LEAKTYPE",
};

const [PLAZA] = SHIPPED.attractions;

/** A query of a visitor's own: a poster's code (the real one, when given), tracking tags, junk. */
function visitorQuery(guideCode?: string): string {
  const query = new URLSearchParams();
  if (guideCode) query.append("codigo", guideCode.toLowerCase());
  for (const [name, value] of Object.entries(SECRETS)) {
    query.append(name, value);
  }
  query.append("codigo", `%2F${SECRETS.codigo}`);
  return query.toString();
}

/** Every public GET route's pages, in every language, from the route table. */
async function listPublicPages(
  ctx: TestContext,
  shareCode: string,
): Promise<{ path: string; slug?: string }[]> {
  const routes = await LazyRoutes.of(ctx.app)!.listRoutes();
  const prefixes = getLangs().map(getLangPrefix).filter(Boolean);
  const pages: { path: string; slug?: string }[] = [];
  for (const { method, path } of routes) {
    if (method !== "GET") continue;
    const prefix = prefixes.find((p) => path === p || path.startsWith(`${p}/`));
    const bare = prefix ? path.slice(prefix.length) || "/" : path;
    if (/^\/(api|panel|auth|static|healthz|openapi\.json)(\/|$)/.test(bare)) {
      continue;
    }
    const at = (page: string) => `${prefix ?? ""}${page}`;
    switch (bare) {
      case "/turismo/atractivos/:slug":
        for (const { slug } of SHIPPED.attractions) {
          pages.push({ path: at(`/turismo/atractivos/${slug}`), slug });
        }
        pages.push({ path: at("/turismo/atractivos/no-existe") });
        break;
      case "/turismo/servicios/:slug":
        for (const { slug } of SHIPPED.providers) {
          pages.push({ path: at(`/turismo/servicios/${slug}`) });
        }
        break;
      case "/ruta/:code":
        pages.push({ path: at(`/ruta/${shareCode}`) });
        break;
      case "/og/atractivos/:file":
        pages.push({ path: at(`/og/atractivos/${PLAZA.slug}.png`) });
        break;
      case "/fotos/:file":
        // No photo in the shipped library: the 404 page, which must not
        // echo the query either.
        pages.push({ path: at(`/fotos/${"0".repeat(16)}-480.webp`) });
        break;
      case "/turismo/eventos/:file":
        for (const { slug } of SHIPPED.events) {
          pages.push({ path: at(`/turismo/eventos/${slug}.ics`) });
        }
        break;
      case "/icons/:file":
        pages.push({ path: at("/icons/maskable-192.png") });
        pages.push({ path: at("/icons/no-existe.png") });
        break;
      case "/mi-pasaporte/borrado/:id":
        pages.push({ path: at(`/mi-pasaporte/borrado/${randomUserId()}`) });
        break;
      case "/turismo/atractivos":
        pages.push({ path: at(bare) });
        for (const category of ATTRACTION_CATEGORIES) {
          pages.push({ path: at(`${bare}?categoria=${category}`) });
        }
        break;
      case "/turismo/servicios":
        pages.push({ path: at(bare) });
        for (const type of PROVIDER_TYPES) {
          pages.push({ path: at(`${bare}?tipo=${type}`) });
        }
        break;
      default:
        assert.ok(
          !bare.includes(":") && !bare.includes("*"),
          `${path}: teach this test the route's parameters`,
        );
        // `/en` itself (a redirect to `/en/`) as it is.
        pages.push({ path: path === prefix ? path : at(bare) });
    }
  }
  return pages;
}

/** The answer's headers and body as one text, to look for any byte of a secret. */
async function readAll(res: Response): Promise<string> {
  const body = new TextDecoder().decode(await res.arrayBuffer());
  return `${
    [...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")
  }\n\n${body}`;
}

function assertNone(text: string, needles: string[], where: string) {
  const lower = text.toLowerCase();
  for (const needle of needles) {
    assert.ok(
      !lower.includes(needle.toLowerCase()),
      `${where} carries ${needle}`,
    );
  }
}

Deno.test("a visitor's query never reaches a page, cached or not", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  const cache = ctx.deps.pageCache!;
  const userId = randomUserId();
  const { shareCode } = await saveTicket(
    ctx.deps.kv,
    randomTicket({ userId }),
  );
  await verifyVisits(ctx, userId, 2);
  // A replaced code: the new one current, the old one in its grace period.
  const replaced = await replaceGuideCode(ctx.deps, {
    slug: PLAZA.slug,
    graceDays: 7,
    staff: {
      id: "ana@municipio.gob.mx",
      email: "ana@municipio.gob.mx",
      role: "admin",
    },
  });
  const guideCodes = [
    ...SHIPPED.attractions.map((a) => a.guideCode),
    replaced.code,
  ];
  const codeOf = (slug?: string) =>
    slug === PLAZA.slug
      ? replaced.code
      : SHIPPED.attractions.find((a) => a.slug === slug)?.guideCode;
  const pages = await listPublicPages(ctx, shareCode);
  const kept = new Set<string>();

  await t.step(
    "no answer to a query, nor the page served after it from memory, carries it or a guide code",
    async () => {
      for (const { path, slug } of pages) {
        const withQuery = `${path}${path.includes("?") ? "&" : "?"}${
          visitorQuery(codeOf(slug))
        }`;
        // Everything expired: the visitor's request renders the page, a
        // plain one at the same time shares that render, the next is served
        // from memory.
        ctx.clock.advance(PAGE_TTL_MS);
        const [visitor, together] = await Promise.all([
          ctx.app.request(withQuery),
          ctx.app.request(path),
        ]);
        const hits = cache.stats.hits;
        const { replays } = ctx.deps.replayedAnswers.stats;
        const after = await ctx.app.request(path);
        // From the page cache, or replayed whole before the router.
        if (
          cache.stats.hits > hits ||
          ctx.deps.replayedAnswers.stats.replays > replays
        ) kept.add(path);
        for (
          const [res, name] of [
            [visitor, withQuery],
            [together, `${path} (at once)`],
            [after, `${path} (after)`],
          ] as const
        ) {
          assert.ok(res.status < 500, `${name}: ${res.status}`);
          const text = await readAll(res);
          assertNone(text, Object.values(SECRETS), name);
          assertNone(text, guideCodes, name);
        }
      }
    },
  );

  await t.step(
    "every kind of public page the cache keeps was checked, in each language",
    () => {
      for (const prefix of getLangs().map(getLangPrefix)) {
        for (
          const page of [
            "/",
            "/turismo/atractivos",
            "/turismo/atractivos?categoria=museo",
            `/turismo/atractivos/${PLAZA.slug}`,
            "/turismo/servicios",
            "/turismo/servicios?tipo=hotel",
            `/turismo/servicios/${SHIPPED.providers[0].slug}`,
            "/turismo/informacion-practica",
            "/aviso-de-privacidad",
            "/datos",
            `/ruta/${shareCode}`,
          ]
        ) {
          const path = page === "/" && prefix
            ? `${prefix}/`
            : `${prefix}${page}`;
          assert.ok(kept.has(path), `${path} is served from memory`);
        }
      }
    },
  );

  await t.step(
    "the language switcher keeps the filter a page shows, and only it",
    async () => {
      for (
        const [from, to] of [
          [
            "/turismo/atractivos?categoria=museo",
            "/en/turismo/atractivos?categoria=museo",
          ],
          ["/en/turismo/servicios?tipo=hotel", "/turismo/servicios?tipo=hotel"],
          [
            `/turismo/atractivos/${PLAZA.slug}`,
            `/en/turismo/atractivos/${PLAZA.slug}`,
          ],
        ]
      ) {
        const res = await ctx.app.request(
          `${from}${from.includes("?") ? "&" : "?"}${
            visitorQuery(PLAZA.guideCode)
          }`,
        );
        const html = await res.text();
        const link = /<nav class="lang-switch"[^]*?<a href="([^"]*)"/.exec(
          html,
        );
        assert.equal(link?.[1].replaceAll("&amp;", "&"), to);
      }
    },
  );

  await t.step(
    "a visitor's own location is kept by the switcher but never cached",
    async () => {
      const near = "/turismo/servicios?cerca=20.87654,-103.81234";
      const res = await ctx.app.request(`${near}&${visitorQuery()}`);
      assert.equal(res.headers.get("cache-control"), "private, no-store");
      const html = await res.text();
      assertNone(html, Object.values(SECRETS), near);
      assert.match(
        html,
        /href="\/en\/turismo\/servicios\?cerca=20\.87654%2C-103\.81234"/,
      );
      const plain = await ctx.app.request("/turismo/servicios");
      assert.doesNotMatch(await plain.text(), /20\.87654/);
    },
  );
});
