import assert from "node:assert/strict";
import { deleteRouteCard } from "@/lib/db/card_images.ts";
import { openKv } from "@/lib/db/kv.ts";
import { ShareCards } from "@/lib/og/share_cards.ts";
import {
  createTestContext,
  getLinkedCard,
  postAsUser,
  postJson,
  randomEmail,
  randomShareCode,
  randomUserId,
  type TestContext,
} from "../test_utils.ts";

const GUIDE_CODES = ["PLZ4KA", "SNTG7A", "PMR3XW", "MNT8Q2", "MRC5DT"];

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual(
    [...bytes.slice(0, 8)],
    [137, 80, 78, 71, 13, 10, 26, 10],
    "PNG signature",
  );
  assert.equal(new TextDecoder().decode(bytes.slice(12, 16)), "IHDR");
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function createTicket(ctx: TestContext, name: string, userId?: string) {
  const shareCode = randomShareCode();
  const body = { name, email: randomEmail(), shareCode };
  const res = userId
    ? await postAsUser(ctx, "/api/turismo/ticket", userId, body)
    : await postJson(ctx, "/api/turismo/ticket", body);
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  return shareCode;
}

/** A KV whose reads are counted. */
function countReads(kv: Deno.Kv) {
  const reads = { count: 0 };
  const proxy = new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      if (name === "get" || name === "getMany" || name === "list") {
        return (...args: unknown[]) => {
          reads.count++;
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { kv: proxy, reads };
}

Deno.test("GET /api/turismo/og/<code>", async (t) => {
  const spy = countReads(await openKv(":memory:"));
  await using ctx = await createTestContext({ kv: spy.kv });
  const userId = randomUserId();
  const code = await createTicket(ctx, "María José Ñúñez", userId);
  let firstPng: Uint8Array;
  let firstEtag: string;

  await t.step(
    "answers a 1200x630 PNG with the exact cache headers",
    async () => {
      const res = await ctx.app.request(`/api/turismo/og/${code}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-type"), "image/png");
      assert.equal(
        res.headers.get("cache-control"),
        "public, max-age=86400, s-maxage=86400",
      );
      firstEtag = res.headers.get("etag")!;
      assert.match(firstEtag, /^"[0-9a-f]{32}"$/);
      firstPng = new Uint8Array(await res.arrayBuffer());
      assert.deepEqual(pngSize(firstPng), { width: 1200, height: 630 });
    },
  );

  await t.step(
    "If-None-Match with the ETag is a 304 with no body",
    async () => {
      const res = await ctx.app.request(`/api/turismo/og/${code}`, {
        headers: { "if-none-match": firstEtag },
      });
      assert.equal(res.status, 304);
      assert.equal(res.headers.get("etag"), firstEtag);
      assert.equal(
        res.headers.get("cache-control"),
        "public, max-age=86400, s-maxage=86400",
      );
      assert.equal(await res.text(), "");
    },
  );

  await t.step("a new visit makes a different image and ETag", async () => {
    const verify = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: GUIDE_CODES[0],
      userId,
    });
    assert.equal(verify.status, 200);
    await verify.body?.cancel();
    const res = await ctx.app.request(`/api/turismo/og/${code}`, {
      headers: { "if-none-match": firstEtag },
    });
    assert.equal(res.status, 200);
    assert.notEqual(res.headers.get("etag"), firstEtag);
    const png = new Uint8Array(await res.arrayBuffer());
    assert.notDeepEqual(png, firstPng);
    assert.deepEqual(pngSize(png), { width: 1200, height: 630 });
  });

  let linked: string;
  let linkedEtag: string;
  let linkedPng: Uint8Array;

  await t.step(
    "the card URL a page links is answered from memory: no KV read, no render",
    async () => {
      linked = await getLinkedCard(ctx, code);
      assert.equal(linked, `/api/turismo/og/${code}?v=1-0`);
      const first = await ctx.app.request(linked);
      assert.equal(first.status, 200);
      linkedEtag = first.headers.get("etag")!;
      linkedPng = new Uint8Array(await first.arrayBuffer());
      const before = spy.reads.count;
      const renders = ctx.deps.shareCards.stats.misses;
      const again = await ctx.app.request(linked);
      assert.equal(again.status, 200);
      assert.equal(again.headers.get("content-type"), "image/png");
      assert.equal(
        again.headers.get("cache-control"),
        "public, max-age=86400, s-maxage=86400",
      );
      assert.equal(again.headers.get("etag"), linkedEtag);
      assert.deepEqual(new Uint8Array(await again.arrayBuffer()), linkedPng);
      const notModified = await ctx.app.request(linked, {
        headers: { "if-none-match": linkedEtag },
      });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers.get("etag"), linkedEtag);
      assert.equal(await notModified.text(), "");
      // Remembered by this instance (a rename or an erasure anywhere drops
      // it, tests/operations/route_changes_test.ts): no KV read at all.
      assert.equal(spy.reads.count - before, 0, "no KV read per answer");
      assert.equal(ctx.deps.shareCards.stats.misses, renders, "no render");
    },
  );

  await t.step(
    "a new visit links a new version, which answers the new card",
    async () => {
      const verify = await postAsUser(
        ctx,
        "/api/turismo/verify-visit",
        userId,
        { code: GUIDE_CODES[1], userId },
      );
      assert.equal(verify.status, 200);
      await verify.body?.cancel();
      const next = await getLinkedCard(ctx, code);
      assert.equal(next, `/api/turismo/og/${code}?v=2-0`);
      const res = await ctx.app.request(next);
      assert.equal(res.status, 200);
      assert.notEqual(res.headers.get("etag"), linkedEtag);
      assert.notDeepEqual(new Uint8Array(await res.arrayBuffer()), linkedPng);
      // The old URL answers the current card too: nothing outdated is served.
      const old = await ctx.app.request(linked);
      assert.equal(old.headers.get("etag"), res.headers.get("etag"));
      await old.body?.cancel();
    },
  );

  await t.step(
    "a made-up version answers the current card and is never stored",
    async () => {
      const current = await ctx.app.request(`/api/turismo/og/${code}?v=2-0`);
      const currentEtag = current.headers.get("etag");
      await current.body?.cancel();
      for (const v of ["9-3", "1-0x", "<script>"]) {
        for (let i = 0; i < 2; i++) {
          const before = spy.reads.count;
          const res = await ctx.app.request(
            `/api/turismo/og/${code}?v=${encodeURIComponent(v)}`,
          );
          assert.equal(res.status, 200, v);
          assert.equal(res.headers.get("etag"), currentEtag, v);
          await res.body?.cancel();
          assert.ok(spy.reads.count > before, `${v} read KV (${i + 1})`);
        }
      }
    },
  );

  await t.step(
    "a version that was current for another code does not answer this one",
    async () => {
      const other = await createTicket(ctx, "Otra Persona");
      const res = await ctx.app.request(`/api/turismo/og/${other}?v=2-0`);
      assert.equal(res.status, 200);
      assert.notEqual(res.headers.get("etag"), linkedEtag);
      await res.body?.cancel();
      const unknown = await ctx.app.request(
        `/api/turismo/og/no-existe-1?v=2-0`,
      );
      assert.equal(unknown.status, 404);
      await unknown.body?.cancel();
    },
  );

  await t.step("an unknown or malformed code is a JSON 404", async () => {
    for (const unknown of ["no-existe-123", "x", "%3Csvg%3E"]) {
      const res = await ctx.app.request(`/api/turismo/og/${unknown}`);
      assert.equal(res.status, 404, unknown);
      assert.match(res.headers.get("content-type")!, /application\/json/);
      assert.deepEqual(Object.keys(await res.json()).sort(), [
        "details",
        "error",
      ]);
    }
  });

  await t.step(
    "concurrent first requests for one card render it once",
    async () => {
      const fresh = await createTicket(ctx, "Concurrencia");
      // The card drawn for the ticket's creation is not there yet for a
      // second service (another instance) on the same KV.
      await ctx.deps.shareCards.settled();
      await deleteRouteCard(ctx.deps.kv, fresh);
      const cards = new ShareCards(ctx.deps);
      const images = await Promise.all(
        Array.from({ length: 8 }, () => cards.get(fresh)),
      );
      assert.equal(new Set(images.map((image) => image.etag)).size, 1);
      assert.ok(images.every((image) => image.png === images[0].png));
      const stats = cards.stats;
      assert.equal(stats.misses, 1, "one render");
      assert.equal(
        stats.coalesced + stats.hits,
        7,
        "the others joined it or hit the cache",
      );
    },
  );

  await t.step(
    "hostile names that the ticket endpoint accepts all render inside the card",
    async () => {
      const names = [
        "W".repeat(120),
        "Ж".repeat(120),
        "🎉🎉🎉👑",
        "<svg onload=alert(1)>",
        "Ana\u0000\u0007\u001b[31m",
        "مرحبا بكم في مدينتنا",
        "山田太郎さんの旅",
      ];
      for (const name of names) {
        const hostile = await createTicket(ctx, name);
        const res = await ctx.app.request(`/api/turismo/og/${hostile}`);
        assert.equal(res.status, 200, name);
        assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
          width: 1200,
          height: 630,
        });
      }
    },
  );
});
