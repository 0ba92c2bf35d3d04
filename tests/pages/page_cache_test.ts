/**
 * The pages' micro-cache through the app: a page is served again from memory
 * within its TTL, rendered again after it, dropped at once by a write on this
 * instance, and never used for signed-in visitors. A write "on another
 * instance" is a library call on the same KV that this app does not see.
 */
import assert from "node:assert/strict";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { saveTicket } from "@/lib/db/tickets.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { verifyVisit } from "@/lib/check_in/verify_visit.ts";
import { PAGE_TTL_MS, ROUTE_PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import {
  createTestContext,
  getPage,
  postAsUser,
  randomShareCode,
  randomTicket,
  randomUserId,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const ATTRACTIONS = SHIPPED.attractions;

/** A visit recorded by "another instance": this app's cache does not hear of it. */
async function visitElsewhere(ctx: TestContext, userId: string, slug: string) {
  const result = await recordVisit(ctx.deps.kv, {
    userId,
    slug,
    now: ctx.deps.now(),
    totalAttractions: ATTRACTIONS.length,
  });
  assert.equal(result.status, "created");
}

async function createRoute(ctx: TestContext) {
  const userId = randomUserId();
  const { shareCode } = await saveTicket(ctx.deps.kv, randomTicket({ userId }));
  return { userId, path: `/ruta/${shareCode}` };
}

function visitedCount(html: string): number {
  const match = /(\d+) de 17 atractivos visitados/.exec(html);
  assert.ok(match, "visit count shown");
  return Number(match[1]);
}

function headerList(res: Response): [string, string][] {
  return [...res.headers].sort(([a], [b]) => a.localeCompare(b));
}

/** Midnight of 1 April 2026 in Tequila (UTC-6): March's figures are published from then. */
const MONTH_END = Date.parse("2026-04-01T06:00:00Z");

Deno.test("pages served from the micro-cache", async (t) => {
  // The first page is rendered in March, its TTL ends at April's first
  // instant (an attraction page, which shows the days' hours from today,
  // expires at the municipality's midnight anyway).
  await using ctx = await createTestContext({
    cachePages: true,
    clockStart: new Date(MONTH_END - PAGE_TTL_MS),
  });
  const cache = ctx.deps.pageCache!;
  const [plaza, second] = ATTRACTIONS;
  const attractionPath = `/turismo/atractivos/${plaza.slug}`;

  await t.step(
    "an attraction page is served from memory within its TTL, with the headers of a rendered one",
    async () => {
      const first = await getPage(ctx, attractionPath);
      assert.doesNotMatch(first.html, /visita verificada/);
      for (let i = 0; i < 5; i++) {
        await visitElsewhere(ctx, randomUserId(), plaza.slug);
      }
      ctx.clock.advance(PAGE_TTL_MS - 1);
      const cached = await getPage(ctx, attractionPath);
      assert.equal(cached.html, first.html);
      assert.deepEqual(headerList(cached.res), headerList(first.res));
      // The same page rendered for a request that bypasses the cache.
      const rendered = await ctx.app.request(attractionPath, {
        headers: { authorization: "Bearer x" },
      });
      await rendered.body?.cancel();
      assert.deepEqual(headerList(cached.res), headerList(rendered));
      assert.ok(cached.res.headers.get("content-security-policy"));
      assert.equal(cached.res.headers.get("cache-control"), "no-cache");
    },
  );

  await t.step("after its TTL the page is rendered again", async () => {
    ctx.clock.advance(1);
    const { html } = await getPage(ctx, attractionPath);
    assert.match(html, /5 visitas verificadas en marzo de 2026/);
  });

  await t.step(
    "a route page from another instance's write shows after its 2 s TTL",
    async () => {
      const { userId, path } = await createRoute(ctx);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0);
      await visitElsewhere(ctx, userId, plaza.slug);
      ctx.clock.advance(ROUTE_PAGE_TTL_MS - 1);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0);
      ctx.clock.advance(1);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 1);
    },
  );

  await t.step(
    "a verify-visit on this instance shows on the route page at once, and on no attraction page before its month is over",
    async () => {
      const { userId, path } = await createRoute(ctx);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0);
      const before = (await getPage(ctx, `/turismo/atractivos/${second.slug}`))
        .html;
      assert.doesNotMatch(before, /visita verificada/);
      const res = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
        code: second.guideCode,
        userId,
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
      assert.equal(visitedCount((await getPage(ctx, path)).html), 1);
      const after = (await getPage(ctx, `/turismo/atractivos/${second.slug}`))
        .html;
      assert.doesNotMatch(after, /visita verificada/);
    },
  );

  await t.step(
    "a write through the domain operations themselves, not a route, drops the pages too",
    async () => {
      const { userId, path } = await createRoute(ctx);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0);
      // Any write path that records a visit reports it: invalidation is not
      // a line each route has to remember.
      await verifyVisit(ctx.deps, { userId, code: ATTRACTIONS[2].guideCode });
      assert.equal(visitedCount((await getPage(ctx, path)).html), 1);
    },
  );

  await t.step("a rate-visit on this instance shows at once", async () => {
    const { userId, path } = await createRoute(ctx);
    const verify = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: plaza.guideCode,
      userId,
    });
    assert.equal(verify.status, 200);
    await verify.body?.cancel();
    assert.match((await getPage(ctx, path)).html, /Sin calificar/);
    const rate = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
      userId,
      atractivoSlug: plaza.slug,
      rating: 5,
    });
    assert.equal(rate.status, 200);
    await rate.body?.cancel();
    assert.match(
      (await getPage(ctx, path)).html,
      /Calificación de Ana Lucía Pérez: 5 de 5/,
    );
  });

  await t.step(
    "a passport's cookie is served from memory too; bearer requests get a fresh page",
    async () => {
      const { userId, path } = await createRoute(ctx);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0);
      await visitElsewhere(ctx, userId, plaza.slug);
      assert.equal(visitedCount((await getPage(ctx, path)).html), 0, "cached");
      const withCookie = await getPage(ctx, path, 200, {
        cookie: "session=abc",
      });
      assert.equal(visitedCount(withCookie.html), 0, "the same cached page");
      const bearer = await getPage(ctx, path, 200, {
        authorization: "Bearer x",
      });
      assert.equal(visitedCount(bearer.html), 1, "rendered afresh");
    },
  );

  await t.step(
    "a cached page is answered brotli- or gzip-compressed as accepted",
    async () => {
      const plain = await getPage(ctx, "/");
      assert.equal(plain.res.headers.get("vary"), "Accept-Encoding");
      for (
        const [accept, encoding] of [
          ["gzip, deflate, br, zstd", "br"],
          ["gzip;q=1, br;q=0", "gzip"],
        ] as const
      ) {
        const res = await ctx.app.request("/", {
          headers: { "accept-encoding": accept },
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-encoding"), encoding);
        assert.equal(res.headers.get("vary"), "Accept-Encoding");
        const bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(bytes.byteLength < plain.html.length / 3, encoding);
        const html = new TextDecoder().decode(
          encoding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes),
        );
        assert.equal(html, plain.html);
      }
      const stats = ctx.deps.pageCache!.stats;
      assert.ok(stats.hits >= 2, "served from memory, compressed once");
    },
  );

  await t.step("a page that was not found is not cached", async () => {
    const shareCode = randomShareCode();
    const missing = await ctx.app.request(`/ruta/${shareCode}`);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
    await saveTicket(
      ctx.deps.kv,
      randomTicket({ shareCode, name: "Recién Llegada" }),
    );
    const { html } = await getPage(ctx, `/ruta/${shareCode}`);
    assert.match(html, /Recién Llegada/);
  });

  await t.step(
    "concurrent first requests render a page once, and unknown queries share it",
    async () => {
      ctx.clock.advance(PAGE_TTL_MS);
      const { misses, entries } = cache.stats;
      const responses = await Promise.all(
        Array.from(
          { length: 10 },
          (_, i) =>
            ctx.app.request(`/turismo/atractivos?categoria=museo&x=${i}`),
        ),
      );
      const bodies = await Promise.all(responses.map((res) => res.text()));
      assert.ok(responses.every((res) => res.status === 200));
      assert.equal(new Set(bodies).size, 1);
      assert.equal(cache.stats.misses, misses + 1);
      assert.ok(cache.stats.entries <= entries + 1);
      const all = await getPage(ctx, "/turismo/atractivos");
      assert.notEqual(all.html, bodies[0], "another category, another page");
    },
  );
});
