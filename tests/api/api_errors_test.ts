/**
 * The API's error answers as a cache and a reader see them: no cache keeps
 * a 404 of something that may exist a second later, a cache that keys by
 * URL alone is told the words follow `Accept-Language`, and the English
 * words read as English.
 */
import assert from "node:assert/strict";
import {
  assertJson,
  createTestContext,
  postJson,
  randomShareCode,
  ticketBody,
} from "../test_utils.ts";

const EN = { "accept-language": "en-US,en;q=0.9" };

Deno.test("API error headers and words", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "an unknown share code's card is a 404 no cache keeps, until the ticket exists",
    async () => {
      const code = randomShareCode();
      const res = await ctx.app.request(`/api/turismo/og/${code}`);
      await assertJson(res, 404);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.match(res.headers.get("vary") ?? "", /\bAccept-Language\b/);
      const ticket = await postJson(
        ctx,
        "/api/turismo/ticket",
        ticketBody({ shareCode: code }),
      );
      await assertJson(ticket, 200);
      const card = await ctx.app.request(`/api/turismo/og/${code}`);
      assert.equal(card.status, 200);
      assert.equal(
        card.headers.get("cache-control"),
        "public, max-age=86400, s-maxage=86400",
      );
      await card.body?.cancel();
    },
  );

  await t.step(
    "an unknown API path is a no-store 404 that varies by language, in natural English",
    async () => {
      const es = await ctx.app.request("/api/turismo/nada");
      assert.deepEqual(await assertJson(es, 404), {
        error: "No encontrado",
        details: "No existe GET /api/turismo/nada",
      });
      const en = await ctx.app.request("/api/turismo/nada", { headers: EN });
      assert.deepEqual(await assertJson(en, 404), {
        error: "Not found",
        details: "This API has no GET /api/turismo/nada",
      });
      for (const res of [es, en]) {
        assert.equal(res.headers.get("cache-control"), "no-store");
        assert.match(res.headers.get("vary") ?? "", /\bAccept-Language\b/);
      }
    },
  );

  await t.step(
    "a validation error varies by language and is not stored",
    async () => {
      const res = await postJson(
        ctx,
        "/api/turismo/ticket",
        ticketBody({ email: "" }),
        EN,
      );
      const body = await assertJson(res, 400);
      assert.equal(body.field, "email");
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.match(res.headers.get("vary") ?? "", /\bAccept-Language\b/);
    },
  );
});
