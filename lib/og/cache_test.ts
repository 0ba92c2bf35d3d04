import assert from "node:assert/strict";
import { RenderCache } from "./cache.ts";

function bytes(n: number, fill = 1): Uint8Array {
  return new Uint8Array(n).fill(fill);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

Deno.test("10 concurrent calls for one key render once", async () => {
  const cache = new RenderCache();
  let renders = 0;
  const gate = deferred<void>();
  const render = async () => {
    renders++;
    await gate.promise;
    return bytes(10);
  };
  const calls = Array.from(
    { length: 10 },
    () => cache.getOrRender("k", render),
  );
  assert.equal(cache.stats.inFlight, 1);
  gate.resolve();
  const results = await Promise.all(calls);
  assert.equal(renders, 1);
  for (const r of results) assert.equal(r, results[0]);
  assert.deepEqual(
    { ...cache.stats },
    {
      hits: 0,
      misses: 1,
      coalesced: 9,
      evictions: 0,
      errors: 0,
      entries: 1,
      bytes: 10,
      inFlight: 0,
    },
  );
  // Later calls are hits.
  assert.equal(await cache.getOrRender("k", render), results[0]);
  assert.equal(renders, 1);
  assert.equal(cache.stats.hits, 1);
});

Deno.test("different keys render independently", async () => {
  const cache = new RenderCache();
  let renders = 0;
  await Promise.all(
    ["a", "b", "a", "c", "b"].map((k) =>
      cache.getOrRender(k, () => {
        renders++;
        return Promise.resolve(bytes(1));
      })
    ),
  );
  assert.equal(renders, 3);
  assert.equal(cache.stats.entries, 3);
});

Deno.test("evicts least recently used entries by count", async () => {
  const cache = new RenderCache({ maxEntries: 3 });
  const put = (k: string) =>
    cache.getOrRender(k, () => Promise.resolve(bytes(1)));
  await put("a");
  await put("b");
  await put("c");
  await put("a"); // touch: "b" is now the oldest
  await put("d");
  assert.equal(cache.stats.entries, 3);
  assert.equal(cache.stats.evictions, 1);
  assert.equal(cache.peek("b"), undefined);
  assert.ok(cache.peek("a"));
  assert.ok(cache.peek("c"));
  assert.ok(cache.peek("d"));
});

Deno.test("evicts by total bytes", async () => {
  const cache = new RenderCache({ maxEntries: 100, maxBytes: 100 });
  const put = (k: string, n: number) =>
    cache.getOrRender(k, () => Promise.resolve(bytes(n)));
  await put("a", 40);
  await put("b", 40);
  assert.equal(cache.stats.bytes, 80);
  await put("c", 40); // 120 > 100: "a" goes
  assert.equal(cache.stats.bytes, 80);
  assert.equal(cache.stats.entries, 2);
  assert.equal(cache.peek("a"), undefined);
  await put("d", 90); // needs both "b" and "c" gone
  assert.equal(cache.stats.entries, 1);
  assert.equal(cache.stats.bytes, 90);
  assert.equal(cache.stats.evictions, 3);
  assert.ok(cache.peek("d"));
});

Deno.test("values larger than maxBytes are returned but not cached", async () => {
  const cache = new RenderCache({ maxBytes: 10 });
  await cache.getOrRender("small", () => Promise.resolve(bytes(5)));
  const big = await cache.getOrRender("big", () => Promise.resolve(bytes(50)));
  assert.equal(big.length, 50);
  assert.equal(cache.peek("big"), undefined);
  assert.ok(cache.peek("small"), "a too-big value must not flush the cache");
  assert.equal(cache.stats.bytes, 5);
});

Deno.test("failed renders are shared by waiters and not cached", async () => {
  const cache = new RenderCache();
  let renders = 0;
  const gate = deferred<Uint8Array>();
  const failing = () => {
    renders++;
    return gate.promise;
  };
  const calls = Array.from(
    { length: 5 },
    () => cache.getOrRender("k", failing),
  );
  gate.reject(new Error("boom"));
  const results = await Promise.allSettled(calls);
  assert.equal(renders, 1);
  for (const r of results) {
    assert.equal(r.status, "rejected");
    assert.equal((r as PromiseRejectedResult).reason.message, "boom");
  }
  assert.equal(cache.stats.errors, 1);
  assert.equal(cache.stats.entries, 0);
  assert.equal(cache.stats.inFlight, 0);
  // The next call retries.
  const ok = await cache.getOrRender("k", () => {
    renders++;
    return Promise.resolve(bytes(3));
  });
  assert.equal(ok.length, 3);
  assert.equal(renders, 2);
});

Deno.test("a render function that throws synchronously is handled", async () => {
  const cache = new RenderCache();
  await assert.rejects(
    cache.getOrRender("k", () => {
      throw new Error("sync");
    }),
    /sync/,
  );
  assert.equal(cache.stats.inFlight, 0);
});

Deno.test("delete and clear", async () => {
  const cache = new RenderCache();
  await cache.getOrRender("a", () => Promise.resolve(bytes(4)));
  await cache.getOrRender("b", () => Promise.resolve(bytes(6)));
  assert.equal(cache.delete("a"), true);
  assert.equal(cache.delete("a"), false);
  assert.equal(cache.stats.bytes, 6);
  cache.clear();
  assert.equal(cache.stats.entries, 0);
  assert.equal(cache.stats.bytes, 0);
});

Deno.test("rejects invalid limits", () => {
  assert.throws(() => new RenderCache({ maxEntries: 0 }), RangeError);
  assert.throws(() => new RenderCache({ maxBytes: 0 }), RangeError);
  assert.throws(() => new RenderCache({ maxEntries: 1.5 }), RangeError);
});
