import assert from "node:assert/strict";
import { getAttractionStats, getVisit } from "@/lib/db/visits.ts";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  postJson,
  randomUserId,
  type TestContext,
} from "../test_utils.ts";

const RATE = "/api/turismo/rate-visit";
const VERIFY = "/api/turismo/verify-visit";

/** A new user with a verified visit of `slug` (by its guide code). */
async function createVisitor(ctx: TestContext, code: string) {
  const userId = randomUserId();
  const res = await postAsUser(ctx, VERIFY, userId, { code, userId });
  const body = await assertJson(res, 200);
  return { userId, slug: body.atractivo as string };
}

function rate(ctx: TestContext, userId: string, body: Record<string, unknown>) {
  return postAsUser(ctx, RATE, userId, { userId, ...body });
}

Deno.test("POST /api/turismo/rate-visit", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "a rating and notes of a verified visit answer 200 and are stored",
    async () => {
      const { userId, slug } = await createVisitor(ctx, "PLZ4KA");
      const res = await rate(ctx, userId, {
        atractivoSlug: slug,
        rating: 4,
        notes: "  Muy bonita la plaza de noche.  ",
      });
      const body = await assertJson(res, 200);
      assert.deepEqual(body, {
        success: true,
        rating: 4,
        notes: "Muy bonita la plaza de noche.",
      });
      const route = await getTouristRoute(kv, userId, ctx.deps.data.current());
      assert.equal(route.visits[0].rating, 4);
      assert.equal(route.visits[0].notes, "Muy bonita la plaza de noche.");
      assert.deepEqual(await getAttractionStats(kv, slug), {
        visitCount: 1,
        ratingCount: 1,
        ratingSum: 4,
        averageRating: 4,
      });
    },
  );

  await t.step(
    "rating again replaces the earlier rating without counting it twice, and null removes it",
    async () => {
      const { userId, slug } = await createVisitor(ctx, "SNTG7A");
      const other = await createVisitor(ctx, "SNTG7A");
      await assertJson(
        await rate(ctx, other.userId, { atractivoSlug: slug, rating: 5 }),
        200,
      );
      await assertJson(
        await rate(ctx, userId, { atractivoSlug: slug, rating: 2, notes: "x" }),
        200,
      );
      assert.deepEqual(await getAttractionStats(kv, slug), {
        visitCount: 2,
        ratingCount: 2,
        ratingSum: 7,
        averageRating: 3.5,
      });
      const again = await assertJson(
        await rate(ctx, userId, { atractivoSlug: slug, rating: 3 }),
        200,
      );
      assert.deepEqual(again, { success: true, rating: 3, notes: null });
      assert.deepEqual(await getAttractionStats(kv, slug), {
        visitCount: 2,
        ratingCount: 2,
        ratingSum: 8,
        averageRating: 4,
      });
      const cleared = await assertJson(
        await rate(ctx, userId, { atractivoSlug: slug, rating: null }),
        200,
      );
      assert.equal(cleared.rating, null);
      assert.deepEqual(await getAttractionStats(kv, slug), {
        visitCount: 2,
        ratingCount: 1,
        ratingSum: 5,
        averageRating: 5,
      });
      assert.equal((await getVisit(kv, userId, slug))?.rating, null);
    },
  );

  await t.step(
    "a rating outside 1..5, fractional or not a number is saved as null",
    async () => {
      const { userId, slug } = await createVisitor(ctx, "PMR3XW");
      const invalid: unknown[] = ["5", 2.5, 0, 6, -1, true, {}, [4], ""];
      for (const rating of invalid) {
        // A valid rating first, so that null is a change that must reach the aggregates.
        await assertJson(
          await rate(ctx, userId, { atractivoSlug: slug, rating: 5 }),
          200,
        );
        const res = await rate(ctx, userId, {
          atractivoSlug: slug,
          rating,
          notes: "ok",
        });
        const body = await assertJson(res, 200);
        assert.deepEqual(
          body,
          { success: true, rating: null, notes: "ok" },
          String(rating),
        );
        assert.equal((await getVisit(kv, userId, slug))?.rating, null);
        const stats = await getAttractionStats(kv, slug);
        assert.equal(stats.ratingCount, 0);
        assert.equal(stats.ratingSum, 0);
      }
      const omitted = await assertJson(
        await rate(ctx, userId, { atractivoSlug: slug }),
        200,
      );
      assert.deepEqual(omitted, { success: true, rating: null, notes: null });
      for (const rating of [1, 5]) {
        const body = await assertJson(
          await rate(ctx, userId, { atractivoSlug: slug, rating }),
          200,
        );
        assert.equal(body.rating, rating);
      }
    },
  );

  await t.step(
    "notes are trimmed, empty notes are null and long notes are cut at 1,000 characters",
    async () => {
      const { userId, slug } = await createVisitor(ctx, "MNT8Q2");
      const cases: [unknown, string | null][] = [
        ["   ", null],
        ["", null],
        [null, null],
        ["\n Sabroso \t", "Sabroso"],
        // Invisible and reordering characters never reach a page.
        ["\u202Eeton\u202C y \u200Bcalma\u0000", "eton y calma"],
        ["a".repeat(1_500), "a".repeat(1_000)],
        // 999 letters then emoji: the cut keeps whole characters.
        ["b".repeat(999) + "🌵🌵🌵", "b".repeat(999) + "🌵"],
      ];
      for (const [notes, saved] of cases) {
        const res = await rate(ctx, userId, { atractivoSlug: slug, notes });
        const body = await assertJson(res, 200);
        assert.equal(body.notes, saved);
        assert.equal((await getVisit(kv, userId, slug))?.notes, saved);
      }
    },
  );

  await t.step(
    "rating an attraction the user has not verified answers 404 and stores nothing",
    async () => {
      const userId = randomUserId();
      const before = await getAttractionStats(kv, "casa-de-la-cultura");
      const res = await rate(ctx, userId, {
        atractivoSlug: "casa-de-la-cultura",
        rating: 5,
      });
      const body = await assertJson(res, 404);
      assert.deepEqual(Object.keys(body).sort(), ["details", "error"]);
      assert.match(body.details, /verificado/);
      assert.equal(await getVisit(kv, userId, "casa-de-la-cultura"), null);
      assert.deepEqual(
        await getAttractionStats(kv, "casa-de-la-cultura"),
        before,
      );
    },
  );

  await t.step("an unknown slug answers 404", async () => {
    const { userId } = await createVisitor(ctx, "MRC5DT");
    const res = await rate(ctx, userId, {
      atractivoSlug: "no-existe",
      rating: 3,
    });
    const body = await assertJson(res, 404);
    assert.equal(body.error, "No encontrado");
    assert.match(body.details, /no-existe/);
  });

  await t.step(
    "concurrent ratings keep the attraction's aggregates exact",
    async () => {
      const visitors = await Promise.all(
        Array.from({ length: 10 }, () => createVisitor(ctx, "CLV9RP")),
      );
      const slug = visitors[0].slug;
      // Every visitor rates three times at once: 30 concurrent replacements.
      const ratings = visitors.flatMap((v, i) =>
        [1, 2, 3].map((n) => ({ userId: v.userId, rating: ((i + n) % 5) + 1 }))
      );
      const responses = await Promise.all(
        ratings.map(({ userId, rating }) =>
          rate(ctx, userId, { atractivoSlug: slug, rating })
        ),
      );
      assert.ok(responses.every((res) => res.status === 200));
      await Promise.all(responses.map((res) => res.body?.cancel()));
      const saved = await Promise.all(
        visitors.map((v) => getVisit(kv, v.userId, slug)),
      );
      const stats = await getAttractionStats(kv, slug);
      assert.equal(stats.visitCount, 10);
      assert.equal(stats.ratingCount, 10);
      assert.equal(
        stats.ratingSum,
        saved.reduce((sum, visit) => sum + visit!.rating!, 0),
      );
    },
  );

  await t.step(
    "without a token, or with a bad one, answers 401 with WWW-Authenticate",
    async () => {
      const userId = randomUserId();
      const payload = { userId, atractivoSlug: "plaza-principal", rating: 5 };
      const cases: Record<string, string>[] = [{}, {
        authorization: "Bearer nope",
      }];
      for (const headers of cases) {
        const res = await postJson(ctx, RATE, payload, headers);
        const body = await assertJson(res, 401);
        assert.equal(body.error, "No autorizado");
        assert.match(res.headers.get("www-authenticate")!, /^Bearer /);
      }
    },
  );

  await t.step(
    "a missing or wrong-typed field answers 400 naming it",
    async () => {
      const { userId, slug } = await createVisitor(ctx, "CSC2UL");
      const cases: [Record<string, unknown>, string][] = [
        [{ atractivoSlug: slug }, "userId"],
        [{ userId: "no-uuid", atractivoSlug: slug }, "userId"],
        [{ userId }, "atractivoSlug"],
        [{ userId, atractivoSlug: 7 }, "atractivoSlug"],
        [{ userId, atractivoSlug: slug, notes: 3 }, "notes"],
        [{ userId, atractivoSlug: slug, notes: ["a"] }, "notes"],
        [{ userId, atractivoSlug: slug, notes: { text: "a" } }, "notes"],
      ];
      for (const [payload, field] of cases) {
        const res = await postAsUser(ctx, RATE, userId, {
          rating: 5,
          ...payload,
        });
        const body = await assertJson(res, 400);
        assert.equal(body.field, field, JSON.stringify(payload));
        // A Spanish sentence (each one: tests/api/validation_messages_test.ts).
        assert.match(body.details, /^[A-ZÁÉÍÓÚ].*\.$/);
      }
      assert.equal((await getVisit(kv, userId, slug))?.rating, null);
    },
  );

  await t.step(
    "a userId other than the token's answers 403 and writes nothing",
    async () => {
      const victim = await createVisitor(ctx, "RJN6KE");
      const before = await getAttractionStats(kv, victim.slug);
      const res = await postAsUser(ctx, RATE, randomUserId(), {
        userId: victim.userId,
        atractivoSlug: victim.slug,
        rating: 1,
        notes: "hackeado",
      });
      const body = await assertJson(res, 403);
      assert.equal(body.error, "Prohibido");
      const visit = await getVisit(kv, victim.userId, victim.slug);
      assert.equal(visit?.rating, null);
      assert.equal(visit?.notes, null);
      assert.deepEqual(await getAttractionStats(kv, victim.slug), before);
    },
  );

  await t.step(
    "openapi.json lists the path with bearer security and rating as number|null",
    async () => {
      const doc = await (await ctx.app.request("/openapi.json")).json();
      const post = doc.paths["/api/turismo/rate-visit"].post;
      assert.deepEqual(post.security, [{ bearerAuth: [] }]);
      const request = doc.components.schemas.RateVisitRequest;
      assert.deepEqual(request.properties.rating.type, ["number", "null"]);
      assert.deepEqual(request.required.sort(), ["atractivoSlug", "userId"]);
    },
  );
});
