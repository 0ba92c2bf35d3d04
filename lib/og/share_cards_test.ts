import assert from "node:assert/strict";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { getPageCardVersion } from "./card_url.ts";
import type { ShareCard } from "./card_types.ts";
import {
  LATEST_CARD_TTL_MS,
  ShareCards,
  type ShareCardsOptions,
} from "./share_cards.ts";

const data = new DataStore(
  await loadTourismData(
    new URL("../../data/turismo.json", import.meta.url).pathname,
  ),
);

/**
 * A render pool that counts renders and answers `size` bytes per card, or
 * fails as told, after 20 ms (a worker takes that long; waiters join it). The real pool is tested in
 * pool_test.ts and through the app in tests/api/og_route_card_test.ts.
 */
function createCountingPool(size = 10) {
  const pool = {
    renders: 0,
    fail: undefined as Error | undefined,
    sizes: new Map<string, number>(),
    async render(card: ShareCard): Promise<Uint8Array> {
      pool.renders++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (pool.fail) throw pool.fail;
      return new Uint8Array(pool.sizes.get(card.name) ?? size);
    },
  };
  return pool;
}

async function setUp(
  names: string[],
  options: ShareCardsOptions = {},
  pool = createCountingPool(),
) {
  const kv = await Deno.openKv(":memory:");
  for (const [i, name] of names.entries()) {
    await saveTicket(kv, {
      shareCode: `codigo-${i}`,
      name,
      email: `v${i}@ejemplo.mx`,
      phone: null,
      wpId: i + 1,
      userId: null,
      createdAt: new Date().toISOString(),
    });
  }
  const cards = new ShareCards({ kv, data, renderPool: pool }, options);
  return { kv, cards, pool };
}

Deno.test("ShareCards", async (t) => {
  await t.step(
    "10 concurrent requests for one card render it once",
    async () => {
      const { kv, cards, pool } = await setUp(["Ana"]);
      const images = await Promise.all(
        Array.from({ length: 10 }, () => cards.get("codigo-0")),
      );
      assert.equal(pool.renders, 1);
      for (const image of images) assert.equal(image.png, images[0].png);
      // Each request reads its ticket first: on a busy machine the render
      // can end before the last ones ask, which then find it cached.
      const { hits, misses, coalesced } = cards.stats;
      assert.deepEqual({ misses, shared: hits + coalesced }, {
        misses: 1,
        shared: 9,
      });
      assert.equal((await cards.get("codigo-0")).png, images[0].png);
      assert.equal(pool.renders, 1);
      assert.equal(cards.stats.hits, hits + 1);
      kv.close();
    },
  );

  await t.step("different cards render independently", async () => {
    const { kv, cards, pool } = await setUp(["Ana", "Luis", "Eva"]);
    await Promise.all([0, 1, 2].map((i) => cards.get(`codigo-${i}`)));
    assert.equal(pool.renders, 3);
    kv.close();
  });

  await t.step(
    "the least recently used cards go first, by count and by bytes",
    async () => {
      const { kv, cards, pool } = await setUp(
        ["A", "B", "C", "D"],
        { maxCards: 3, maxBytes: 100 },
      );
      for (const i of [0, 1, 2]) await cards.get(`codigo-${i}`);
      await cards.get("codigo-0"); // A is now recent
      await cards.get("codigo-3"); // B goes
      assert.equal(pool.renders, 4);
      await cards.get("codigo-0");
      await cards.get("codigo-2");
      assert.equal(pool.renders, 4, "A and C are kept");
      await cards.get("codigo-1");
      assert.equal(pool.renders, 5, "B was dropped");
      kv.close();

      const bytes = await setUp(["A", "B", "C"], { maxBytes: 100 });
      bytes.pool.sizes.set("A", 40).set("B", 40).set("C", 50);
      for (const i of [0, 1, 2]) await bytes.cards.get(`codigo-${i}`);
      await bytes.cards.get("codigo-0");
      assert.equal(bytes.pool.renders, 4, "A went to make room for C");
      bytes.kv.close();
    },
  );

  await t.step(
    "a card larger than the budget is answered but not kept",
    async () => {
      const { kv, cards, pool } = await setUp(["Grande", "Chica"], {
        maxBytes: 20,
      });
      pool.sizes.set("Grande", 50).set("Chica", 5);
      await cards.get("codigo-1");
      const big = await cards.get("codigo-0");
      assert.equal(big.png?.length, 50);
      await cards.get("codigo-0");
      assert.equal(pool.renders, 3, "the big card renders each time");
      await cards.get("codigo-1");
      assert.equal(pool.renders, 3, "a too-big card does not flush the others");
      kv.close();
    },
  );

  await t.step(
    "a failed render is shared by its waiters and not kept",
    async () => {
      const { kv, cards, pool } = await setUp(["Ana"]);
      pool.fail = new Error("boom");
      const results = await Promise.allSettled(
        Array.from({ length: 3 }, () => cards.get("codigo-0")),
      );
      assert.equal(pool.renders, 1);
      for (const result of results) {
        assert.equal(result.status, "rejected");
        assert.equal((result as PromiseRejectedResult).reason.message, "boom");
      }
      pool.fail = undefined;
      assert.ok((await cards.get("codigo-0")).png);
      assert.equal(pool.renders, 2);
      kv.close();
    },
  );

  await t.step(
    "page cards: one render each, in the same bounded cache; 404 for an unknown slug",
    async () => {
      const { kv, cards, pool } = await setUp(["Ana"], { maxCards: 2 });
      const home = { kind: "home" } as const;
      const plaza = { kind: "attraction", slug: "plaza-principal" } as const;
      const images = await Promise.all(
        Array.from({ length: 5 }, () => cards.getPageCard(home)),
      );
      assert.equal(pool.renders, 1);
      assert.equal(new Set(images.map((image) => image.png)).size, 1);
      const v = getPageCardVersion(data.current().version);
      assert.ok(images.every((image) => image.v === v));
      assert.equal(cards.peekPageCard(home)?.png, images[0].png, "peeked");
      const other = await cards.getPageCard(plaza);
      assert.notEqual(other.etag, images[0].etag);
      assert.equal(pool.renders, 2);
      const matched = cards.peekPageCard(plaza, { ifNoneMatch: other.etag });
      assert.deepEqual(matched, { etag: other.etag, v }, "only the ETag");
      await cards.get("codigo-0"); // a route card takes the oldest slot
      assert.equal(cards.peekPageCard(home), undefined, "home went first");
      await assert.rejects(
        cards.getPageCard({ kind: "attraction", slug: "no-existe" }),
        NotFoundError,
      );
      assert.equal(pool.renders, 3);
      kv.close();
    },
  );

  await t.step("a pool that throws at once is a rejection too", async () => {
    const { kv, cards } = await setUp(["Ana"], {}, {
      ...createCountingPool(),
      render: () => {
        throw new Error("no pool");
      },
    });
    await assert.rejects(cards.get("codigo-0"), /no pool/);
    kv.close();
  });
});

Deno.test("ShareCards: the spec's URL (no `v`) is remembered briefly, dropped by this instance's writes", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  let clock = Date.parse("2026-11-23T12:00:00Z");
  const userId = crypto.randomUUID();
  await saveTicket(kv, {
    shareCode: "ruta-breve",
    name: "Breve",
    email: "b@ejemplo.mx",
    phone: null,
    wpId: 1,
    userId,
    createdAt: new Date(clock).toISOString(),
  });
  const pool = createCountingPool();
  const cards = new ShareCards({
    kv,
    data,
    renderPool: pool,
    now: () => new Date(clock),
  });
  const visit = (slug: string) =>
    recordVisit(kv, {
      userId,
      slug,
      now: new Date(clock),
      totalAttractions: 17,
    });
  const first = await cards.get("ruta-breve");

  await t.step(
    "another instance's visit shows after LATEST_CARD_TTL_MS, not before",
    async () => {
      await visit("plaza-principal");
      clock += LATEST_CARD_TTL_MS - 1;
      assert.equal((await cards.get("ruta-breve")).etag, first.etag, "memory");
      clock += 1;
      assert.notEqual((await cards.get("ruta-breve")).etag, first.etag);
    },
  );

  await t.step("a visit on this instance drops it at once", async () => {
    const before = await cards.get("RUTA-BREVE");
    await visit("museo-nacional-del-tequila");
    cards.invalidate({ kind: "visit", userId, slug: "museo" });
    assert.notEqual((await cards.get("ruta-breve")).etag, before.etag);
  });

  await t.step(
    "a read that a write overtook is answered but not kept",
    async () => {
      clock += LATEST_CARD_TTL_MS;
      const reading = cards.get("ruta-breve");
      cards.invalidate({ kind: "rating", userId, slug: "plaza-principal" });
      const read = await reading;
      // Another instance's visit: shown at once, since nothing was kept.
      await visit("mercado-municipal");
      assert.notEqual((await cards.get("ruta-breve")).etag, read.etag);
    },
  );
});
