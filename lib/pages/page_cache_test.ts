import assert from "node:assert/strict";
import { PageCache } from "./page_cache.ts";

function html(text: string, status = 200): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "text/html; charset=UTF-8", "x-page": text },
  });
}

/** A page cache on a clock the test sets: `at(ms)` before each call. */
function createCache(options: { maxEntries?: number; maxBytes?: number } = {}) {
  // Like the app's clock: an epoch, not zero.
  const epoch = 1_790_000_000_000;
  let now = epoch;
  const cache = new PageCache({ ...options, now: () => now });
  return Object.assign(cache, {
    at(ms: number) {
      now = epoch + ms;
      return cache;
    },
  });
}

Deno.test("PageCache", async (t) => {
  await t.step(
    "a page is kept for its TTL and rendered again after",
    async () => {
      const cache = createCache();
      let renders = 0;
      const render = () => html(`v${++renders}`);
      const first = await cache.at(0).get("/", { ttlMs: 1_000 }, render);
      assert.equal(await first.text(), "v1");
      const hit = await cache.at(999).get("/", { ttlMs: 1_000 }, render);
      assert.equal(await hit.text(), "v1");
      assert.equal(hit.headers.get("x-page"), "v1");
      assert.equal(hit.headers.get("content-type"), "text/html; charset=UTF-8");
      const fresh = await cache.at(1_000).get("/", { ttlMs: 1_000 }, render);
      assert.equal(await fresh.text(), "v2");
      assert.equal(renders, 2);
    },
  );

  await t.step("each answer has headers of its own", async () => {
    const cache = createCache();
    const a = await cache.at(0).get("/", { ttlMs: 1_000 }, () => html("x"));
    a.headers.set("x-added", "1");
    const b = await cache.at(1).get("/", { ttlMs: 1_000 }, () => html("y"));
    assert.equal(b.headers.get("x-added"), null);
    assert.equal(await b.text(), "x");
  });

  await t.step("only 200 responses are kept", async () => {
    const cache = createCache();
    const missing = await cache.at(0).get(
      "/a",
      { ttlMs: 1_000 },
      () => html("no", 404),
    );
    assert.equal(missing.status, 404);
    const found = await cache.at(1).get(
      "/a",
      { ttlMs: 1_000 },
      () => html("yes"),
    );
    assert.equal(found.status, 200);
    assert.equal(await found.text(), "yes");
    assert.equal(cache.stats.entries, 1);
  });

  await t.step("concurrent misses of one key share one render", async () => {
    const cache = createCache();
    let renders = 0;
    const pages = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          cache.at(0).get("/", { ttlMs: 1_000 }, async () => {
            renders++;
            await new Promise((resolve) => setTimeout(resolve, 5));
            return html("once");
          }),
      ),
    );
    assert.equal(renders, 1);
    for (const page of pages) assert.equal(await page.text(), "once");
  });

  await t.step(
    "a render that throws is not kept and its waiters see the error",
    async () => {
      const cache = createCache();
      const results = await Promise.allSettled(
        Array.from(
          { length: 3 },
          () =>
            cache.at(0).get("/", { ttlMs: 1_000 }, () => {
              throw new Error("boom");
            }),
        ),
      );
      assert.ok(results.every((r) => r.status === "rejected"));
      const ok = await cache.at(0).get("/", { ttlMs: 1_000 }, () => html("ok"));
      assert.equal(await ok.text(), "ok");
    },
  );

  await t.step("invalidating a tag drops its pages and no other", async () => {
    const cache = createCache();
    const options = { ttlMs: 10_000 };
    await cache.get("/ruta/a", options, (tag) => {
      tag("user:1");
      return html("a1");
    });
    await cache.get("/ruta/b", options, (tag) => {
      tag("user:2");
      return html("b1");
    });
    cache.invalidate(["user:1"]);
    const a = await cache.get("/ruta/a", options, () => html("a2"));
    const b = await cache.get("/ruta/b", options, () => html("b2"));
    assert.equal(await a.text(), "a2");
    assert.equal(await b.text(), "b1");
  });

  await t.step(
    "a render that a write invalidates while it runs is answered but not kept",
    async () => {
      const cache = createCache();
      const options = { ttlMs: 10_000 };
      const page = await cache.get("/ruta/a", options, async (tag) => {
        tag("user:1");
        await Promise.resolve(); // the data is read here...
        cache.invalidate(["user:1"]); // ...and a write finishes meanwhile
        return html("old");
      });
      assert.equal(await page.text(), "old");
      const next = await cache.get("/ruta/a", options, () => html("new"));
      assert.equal(await next.text(), "new");
    },
  );

  await t.step(
    "the least recently used pages go first, by count and by bytes",
    async () => {
      const cache = createCache({ maxEntries: 2, maxBytes: 10 });
      const options = { ttlMs: 10_000 };
      await cache.get("/1", options, () => html("aaa"));
      await cache.get("/2", options, () => html("bbb"));
      await cache.get("/1", options, () => html("x")); // /1 is now recent
      await cache.get("/3", options, () => html("ccc"));
      assert.equal(cache.stats.entries, 2);
      const two = await cache.get("/2", options, () => html("BBB"));
      assert.equal(await two.text(), "BBB", "/2 was dropped");
      await cache.get("/4", options, () => html("dddddddd"));
      assert.ok(cache.stats.bytes <= 10, `${cache.stats.bytes} bytes`);
      const big = await cache.get("/5", options, () => html("x".repeat(11)));
      assert.equal(big.status, 200);
      assert.ok(cache.stats.bytes <= 10, "too big to keep");
    },
  );
});
