import assert from "node:assert/strict";
import { BoundedMap } from "@/lib/cache/bounded_map.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import {
  deleteRouteCard,
  PART_BYTES,
  readPageCard,
  readRouteCard,
  storeRouteCard,
} from "@/lib/db/card_images.ts";
import { keys } from "@/lib/db/keys.ts";
import { renameTicket, saveTicket } from "@/lib/db/tickets.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { getErasedShareCodeKey } from "@/lib/db/tickets.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { getBuiltPageCardName, pageCardCacheKey } from "./card_key.ts";
import type { AnyCard } from "./card_types.ts";
import { getPageCard } from "./page_cards.ts";
import {
  MAX_ROUTE_IMAGE_BYTES,
  ShareCards,
  type ShareCardsOptions,
} from "./share_cards.ts";

const data = new DataStore(
  await loadTourismData(
    new URL("../../data/turismo.json", import.meta.url).pathname,
  ),
);

/**
 * A render pool that counts renders and answers a PNG-sized array whose
 * bytes say which card it drew (its name or title), after 20 ms (a worker
 * takes that long; waiters join it), or fails as told. The real pool is
 * tested in pool_test.ts and through the app in tests/api/.
 */
function createCountingPool(size = 1_000) {
  const pool = {
    renders: 0,
    fail: undefined as Error | undefined,
    size,
    drawn: [] as string[],
    async render(card: AnyCard): Promise<Uint8Array> {
      pool.renders++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (pool.fail) throw pool.fail;
      const label = "name" in card
        ? `${card.name}:${card.visitCount}`
        : card.title;
      pool.drawn.push(label);
      const png = new Uint8Array(pool.size);
      for (let i = 0; i < png.length; i++) png[i] = (i * 7 + 3) % 251;
      png.set(new TextEncoder().encode(label).subarray(0, pool.size));
      return png;
    },
  };
  return pool;
}

type CountingPool = ReturnType<typeof createCountingPool>;

async function setUp(
  names: string[],
  { userIds = [] as (string | null)[] } = {},
) {
  const kv = await Deno.openKv(":memory:");
  for (const [i, name] of names.entries()) {
    await saveTicket(kv, {
      shareCode: `codigo-${i}`,
      name,
      email: `v${i}@ejemplo.mx`,
      phone: null,
      wpId: i + 1,
      userId: userIds[i] ?? null,
      createdAt: new Date().toISOString(),
    });
  }
  return kv;
}

/** One instance of the service's share cards on `kv`, with its own counting pool. */
function instance(
  kv: Deno.Kv,
  options: ShareCardsOptions = {},
  pool: CountingPool = createCountingPool(),
) {
  // Every request checked against KV (what an answer remembered in memory
  // is checked against: "answered from memory" below).
  const cards = new ShareCards({ kv, data, renderPool: pool }, {
    cooldownMs: 200,
    rememberMs: 0,
    ...options,
  });
  return { cards, pool };
}

async function countParts(kv: Deno.Kv, code: string): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix: keys.routeCardParts(code) })))
    .length;
}

Deno.test("ShareCards: a request draws a missing card once and stores it for every instance", async (t) => {
  await using kv = await setUp(["Ana", "Luis"]);
  const a = instance(kv);
  const b = instance(kv);

  await t.step("10 concurrent requests render it once", async () => {
    const images = await Promise.all(
      Array.from({ length: 10 }, () => a.cards.get("codigo-0")),
    );
    assert.equal(a.pool.renders, 1);
    for (const image of images) assert.deepEqual(image.png, images[0].png);
    const { hits, misses, coalesced } = a.cards.stats;
    // Each request reads KV first: on a busy machine the render can end
    // before the last ones ask, which then find it stored.
    assert.deepEqual({ misses, shared: hits + coalesced }, {
      misses: 1,
      shared: 9,
    });
  });

  await t.step(
    "another instance serves it as stored, with no render",
    async () => {
      const fromA = await a.cards.get("codigo-0");
      const fromB = await b.cards.get("CODIGO-0");
      assert.equal(b.pool.renders, 0);
      assert.equal(fromB.etag, fromA.etag);
      assert.deepEqual(fromB.png, fromA.png);
      assert.equal(b.cards.stats.hits, 1);
    },
  );

  await t.step("an If-None-Match that names it needs no PNG", async () => {
    const { etag } = await b.cards.get("codigo-0");
    assert.deepEqual(await b.cards.get("codigo-0", { ifNoneMatch: etag }), {
      etag,
    });
    assert.equal(b.pool.renders, 0);
  });

  await t.step(
    "an unknown or malformed code is a 404, nothing drawn",
    async () => {
      for (const code of ["no-existe-1", "x", "<svg>"]) {
        await assert.rejects(a.cards.get(code), NotFoundError);
      }
      assert.equal(a.pool.renders, 1);
    },
  );

  await t.step(
    "a failed render stores nothing; the next request draws again",
    async () => {
      a.pool.fail = new Error("no pool");
      await assert.rejects(a.cards.get("codigo-1"), /no pool/);
      assert.equal((await readRouteCard(kv, "codigo-1")).storedKey, null);
      a.pool.fail = undefined;
      assert.ok((await a.cards.get("codigo-1")).png);
      assert.notEqual((await readRouteCard(kv, "codigo-1")).storedKey, null);
    },
  );
});

Deno.test("ShareCards: a card over a KV value's 64 KiB is stored in parts", async () => {
  await using kv = await setUp(["Ana"]);
  const big = createCountingPool(2 * PART_BYTES + 5_000);
  const a = instance(kv, {}, big);
  const drawn = await a.cards.get("codigo-0");
  assert.equal(drawn.png!.byteLength, 2 * PART_BYTES + 5_000);
  assert.equal(await countParts(kv, "codigo-0"), 3, "three parts");
  const b = instance(kv);
  const read = await b.cards.get("codigo-0");
  assert.equal(b.pool.renders, 0);
  assert.deepEqual(read.png, drawn.png);

  // A new name: the new card replaces the old one's parts, it leaves none.
  const ticket = await renameTicket(kv, "codigo-0", "Ana María");
  assert.ok(ticket);
  big.size = PART_BYTES + 10;
  const renamed = await a.cards.get("codigo-0");
  assert.notEqual(renamed.etag, drawn.etag);
  assert.equal(await countParts(kv, "codigo-0"), 2, "the old parts gone");
  assert.deepEqual((await b.cards.get("codigo-0")).png, renamed.png);
  assert.equal(b.pool.renders, 0);
});

Deno.test("ShareCards: a stored card is served only while it shows what the route shows", async (t) => {
  const userId = crypto.randomUUID();
  await using kv = await setUp(["Ana"], { userIds: [userId] });
  const a = instance(kv);
  const b = instance(kv);
  const first = await a.cards.get("codigo-0");

  await t.step(
    "a rename on one instance: the other never serves the old name",
    async () => {
      await renameTicket(kv, "codigo-0", "Ana Lucía");
      const image = await b.cards.get("codigo-0");
      assert.notEqual(image.etag, first.etag);
      assert.equal(b.pool.drawn.at(-1), "Ana Lucía:0");
      assert.deepEqual((await a.cards.get("codigo-0")).png, image.png);
      assert.equal(a.pool.renders, 1, "A serves what B stored");
    },
  );

  await t.step(
    "a visit recorded anywhere: the next request shows it",
    async () => {
      const before = await a.cards.get("codigo-0");
      await recordVisit(kv, {
        userId,
        slug: "plaza-principal",
        now: new Date(),
        totalAttractions: 17,
      });
      const after = await b.cards.get("codigo-0");
      assert.notEqual(after.etag, before.etag);
      assert.equal(b.pool.drawn.at(-1), "Ana Lucía:1");
    },
  );

  await t.step(
    "a card stored for a state that changed since is never served",
    async () => {
      const current = (await readRouteCard(kv, "codigo-0")).storedKey;
      await storeRouteCard(kv, "codigo-0", {
        renderKey: "og:a-name-since-changed",
        png: new Uint8Array(10),
      });
      const image = await b.cards.get("codigo-0");
      assert.equal(image.png!.byteLength, 1_000, "drawn again");
      assert.equal((await readRouteCard(kv, "codigo-0")).storedKey, current);
    },
  );

  await t.step(
    "an erasure: 404 at once, the card deleted, none stored again",
    async () => {
      await a.cards.get("codigo-0");
      await kv.set(await getErasedShareCodeKey("codigo-0"), { at: 1 });
      await assert.rejects(b.cards.get("codigo-0"), NotFoundError);
      const stored = await storeRouteCard(kv, "codigo-0", {
        renderKey: "og:late",
        png: new Uint8Array(10),
      });
      assert.equal(stored, false, "a render that ends after the tombstone");
      await deleteRouteCard(kv, "codigo-0");
      assert.equal((await kv.get(keys.routeCard("codigo-0"))).value, null);
      assert.equal(await countParts(kv, "codigo-0"), 0);
    },
  );
});

Deno.test("ShareCards: drawn when the route changes, coalesced per route", async (t) => {
  const userId = crypto.randomUUID();
  await using kv = await setUp(["Eva"], { userIds: [userId] });
  const a = instance(kv, { cooldownMs: 300 });
  const b = instance(kv);

  await t.step(
    "a new ticket's card is drawn and stored before anyone asks",
    async () => {
      a.cards.changed({ kind: "ticket", shareCode: "CODIGO-0", userId });
      await a.cards.settled();
      assert.equal(a.pool.renders, 1);
      await b.cards.get("codigo-0");
      assert.equal(b.pool.renders, 0, "served as stored");
    },
  );

  await t.step(
    "100 writes in a burst draw a handful of times, the last state last",
    async () => {
      const slugs = [...data.current().attractionsBySlug.keys()];
      const before = a.pool.renders;
      for (let i = 0; i < 100; i++) {
        const slug = slugs[i % slugs.length];
        if (i < slugs.length) {
          await recordVisit(kv, {
            userId,
            slug,
            now: new Date(),
            totalAttractions: slugs.length,
          });
          a.cards.changed({ kind: "visit", userId, slug });
        } else {
          a.cards.changed({ kind: "rating", userId, slug });
        }
      }
      await a.cards.settled();
      const renders = a.pool.renders - before;
      assert.ok(renders >= 1 && renders <= 3, `${renders} renders`);
      assert.equal(a.pool.drawn.at(-1), `Eva:${slugs.length}`);
      await b.cards.get("codigo-0");
      assert.equal(b.pool.renders, 0, "the stored card is the latest");
    },
  );

  await t.step(
    "a write that does not change the card draws nothing",
    async () => {
      const before = a.pool.renders;
      const [slug] = data.current().attractionsBySlug.keys();
      await rateVisit(kv, {
        userId,
        slug,
        rating: 4,
        notes: "Bonito",
        now: new Date(),
      });
      a.cards.changed({ kind: "rating", userId, slug });
      await a.cards.settled();
      assert.equal(a.pool.renders, before);
    },
  );

  await t.step("after close, writes draw nothing", async () => {
    a.cards.close();
    await renameTicket(kv, "codigo-0", "Eva Luna");
    const before = a.pool.renders;
    a.cards.changed({ kind: "ticket", shareCode: "codigo-0", userId });
    await a.cards.settled();
    assert.equal(a.pool.renders, before);
  });
});

Deno.test("ShareCards: page cards come from the build, else are drawn once and stored", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  const buildDir = await Deno.makeTempDir();
  try {
    const home = getPageCard(data.current(), { kind: "home" })!;
    const built = new Uint8Array([1, 2, 3, 4]);
    const name = getBuiltPageCardName(await pageCardCacheKey(home));
    await Deno.mkdir(`${buildDir}/og`);
    await Deno.writeFile(`${buildDir}/${name}`, built);
    const a = instance(kv, { buildDir });

    await t.step("a card the build drew: its file, no render", async () => {
      const image = await a.cards.getPageCard({ kind: "home" });
      assert.deepEqual(image.png, built);
      assert.equal(a.pool.renders, 0);
      assert.deepEqual(a.cards.peekPageCard({ kind: "home" })?.png, built);
    });

    await t.step(
      "one it did not draw: drawn once, stored for every instance",
      async () => {
        const id = { kind: "home" as const, lang: "en" };
        const images = await Promise.all(
          Array.from({ length: 5 }, () => a.cards.getPageCard(id)),
        );
        assert.equal(a.pool.renders, 1);
        assert.ok(images.every((image) => image.etag === images[0].etag));
        const stored = await readPageCard(kv, "en", "/og/inicio.png");
        assert.deepEqual(stored?.png, images[0].png);
        const b = instance(kv, { buildDir });
        assert.deepEqual((await b.cards.getPageCard(id)).png, images[0].png);
        assert.equal(b.pool.renders, 0);
      },
    );

    await t.step("an attraction the data set lacks is a 404", async () => {
      await assert.rejects(
        a.cards.getPageCard({ kind: "attraction", slug: "no-existe" }),
        NotFoundError,
      );
    });
  } finally {
    await Deno.remove(buildDir, { recursive: true });
  }
});

Deno.test("ShareCards: a route card's URL answered from memory until a change drops it", async (t) => {
  const userId = crypto.randomUUID();
  await using kv = await setUp(["Ana"], { userIds: [userId] });
  const a = instance(kv, { rememberMs: 60_000 });
  const first = await a.cards.get("codigo-0");
  const linkedV = (await readRouteCard(kv, "codigo-0")).head!.stamps!.v!;

  await t.step(
    "the spec's URL and the linked one are answered again without KV",
    async () => {
      await a.cards.get("codigo-0", { v: linkedV });
      // A change made behind its back (another instance's, not watched here).
      await renameTicket(kv, "codigo-0", "Ana Lucía");
      assert.deepEqual(await a.cards.get("CODIGO-0"), first);
      assert.deepEqual(await a.cards.get("codigo-0", { v: linkedV }), first);
      assert.deepEqual(
        await a.cards.get("codigo-0", { ifNoneMatch: first.etag }),
        { etag: first.etag },
      );
    },
  );

  await t.step(
    "forgetRoutes (a rename or an erasure anywhere) drops them",
    async () => {
      a.cards.forgetRoutes();
      const renamed = await a.cards.get("codigo-0");
      assert.notEqual(renamed.etag, first.etag);
      assert.equal(a.pool.drawn.at(-1), "Ana Lucía:0");
    },
  );

  await t.step("this instance's write of the user drops them", async () => {
    const before = await a.cards.get("codigo-0");
    await recordVisit(kv, {
      userId,
      slug: "plaza-principal",
      now: new Date(),
      totalAttractions: 17,
    });
    assert.deepEqual(await a.cards.get("codigo-0"), before, "not told yet");
    a.cards.changed({ kind: "visit", userId, slug: "plaza-principal" });
    const after = await a.cards.get("codigo-0");
    assert.notEqual(after.etag, before.etag);
    await a.cards.settled();
  });

  await t.step("a made-up version is not remembered", async () => {
    const current = await a.cards.get("codigo-0");
    await renameTicket(kv, "codigo-0", "Ana María");
    const madeUp = await a.cards.get("codigo-0", { v: "9-9" });
    assert.notEqual(madeUp.etag, current.etag, "read from KV");
  });

  await t.step("an erasure is a 404 once dropped", async () => {
    await kv.set(await getErasedShareCodeKey("codigo-0"), { at: 1 });
    a.cards.changed({
      kind: "erasure",
      userId,
      shareCodes: ["codigo-0"],
      slugs: [],
    });
    await assert.rejects(a.cards.get("codigo-0"), NotFoundError);
  });
  a.cards.close();
  await a.cards.settled();
});

Deno.test("the cards kept in memory are bounded by bytes, not only by count", () => {
  const kept = new BoundedMap<Uint8Array>(
    128,
    MAX_ROUTE_IMAGE_BYTES,
    (png) => png.buffer.byteLength,
  );
  // Cards with fallback fonts and emoji weigh several times a plain one.
  const big = () => new Uint8Array(512 * 1024);
  for (let i = 0; i < 40; i++) kept.set(`card-${i}`, big());
  assert.ok(kept.bytes <= MAX_ROUTE_IMAGE_BYTES, `${kept.bytes} bytes`);
  assert.equal(kept.size, 12);
  // The oldest went first; the newest is kept, and a replaced one counts once.
  assert.equal(kept.get("card-27"), undefined);
  assert.ok(kept.get("card-39"));
  kept.set("card-39", big());
  assert.equal(kept.bytes, 12 * 512 * 1024);
  kept.delete("card-39");
  assert.equal(kept.bytes, 11 * 512 * 1024);
  // A PNG larger than the whole bound is not kept at all.
  kept.set("huge", new Uint8Array(MAX_ROUTE_IMAGE_BYTES + 1));
  assert.equal(kept.get("huge"), undefined);
  assert.equal(kept.size, 11);
});
