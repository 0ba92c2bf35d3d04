import assert from "node:assert/strict";
import { createShareCards } from "../lib/share_card.ts";
import {
  createTestContext,
  postAsUser,
  postJson,
  randomEmail,
  randomShareCode,
  randomUserId,
  type TestContext,
} from "./test_utils.ts";

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

Deno.test("GET /api/turismo/og/<code>", async (t) => {
  await using ctx = await createTestContext();
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
      const cards = createShareCards(ctx.deps);
      const images = await Promise.all(
        Array.from({ length: 8 }, () => cards.get(fresh)),
      );
      assert.equal(new Set(images.map((image) => image.etag)).size, 1);
      assert.ok(images.every((image) => image.png === images[0].png));
      const stats = cards.cache.stats;
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
