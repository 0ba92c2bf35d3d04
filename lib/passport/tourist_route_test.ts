import assert from "node:assert/strict";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { openKv } from "@/lib/db/kv.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { loadShippedData } from "@/tests/test_utils.ts";
import { getAttractionStats, getTouristRoute } from "./tourist_route.ts";

const T0 = Date.parse("2026-11-22T15:00:00Z");

/** The shipped data set without some attractions, as after a live reload. */
function withoutAttractions(loaded: LoadedData, slugs: string[]): LoadedData {
  const kept = loaded.data.attractions.filter((a) => !slugs.includes(a.slug));
  return {
    ...loaded,
    data: { ...loaded.data, attractions: kept },
    attractionsBySlug: new Map(kept.map((a) => [a.slug, a])),
    totalAttractions: kept.length,
  };
}

Deno.test("tourist route", async (t) => {
  await using kv = await openKv(":memory:");
  const loaded = await loadShippedData();
  const slugs = loaded.data.attractions.map((a) => a.slug);
  const visit = (userId: string, slug: string, ms: number) =>
    recordVisit(kv, {
      userId,
      slug,
      now: new Date(T0 + ms),
      totalAttractions: loaded.totalAttractions,
    });

  await t.step("a user without visits has an empty route at 0%", async () => {
    const userId = crypto.randomUUID();
    assert.deepEqual(await getTouristRoute(kv, userId, loaded), {
      userId,
      visits: [],
      badges: [],
      visitCount: 0,
      totalAttractions: 17,
      completionPercent: 0,
    });
  });

  await t.step(
    "visits are listed oldest first with names, ratings and notes; completion rounds down",
    async () => {
      const userId = crypto.randomUUID();
      // Recorded out of order, two in the same instant.
      await visit(userId, slugs[5], 2_000);
      await visit(userId, slugs[9], 1_000);
      await visit(userId, slugs[2], 2_000);
      await rateVisit(kv, {
        userId,
        slug: slugs[9],
        rating: 5,
        notes: "Vale la pena",
        now: new Date(T0 + 3_000),
      });
      const route = await getTouristRoute(kv, userId, loaded);
      assert.deepEqual(route.visits.map((v) => v.slug), [
        slugs[9],
        slugs[5],
        slugs[2],
      ]);
      assert.deepEqual(route.visits[0], {
        visitId: route.visits[0].visitId,
        slug: slugs[9],
        name: loaded.attractionsBySlug.get(slugs[9])!.name,
        visitedAt: new Date(T0 + 1_000).toISOString(),
        rating: 5,
        notes: "Vale la pena",
      });
      assert.equal(route.visitCount, 3);
      assert.equal(route.completionPercent, 17); // 3/17 = 17.6%
    },
  );

  await t.step(
    "16 of 17 is 94%, never rounded up to 100%",
    async () => {
      const userId = crypto.randomUUID();
      for (const [i, slug] of slugs.slice(0, 16).entries()) {
        await visit(userId, slug, i);
      }
      const route = await getTouristRoute(kv, userId, loaded);
      assert.equal(route.completionPercent, 94);
      assert.deepEqual(route.badges.map((b) => b.id), [
        "explorador",
        "veterano",
      ]);
    },
  );

  await t.step(
    "a visit of an attraction removed from the data set is skipped, not an error",
    async () => {
      const userId = crypto.randomUUID();
      await visit(userId, slugs[0], 0);
      await visit(userId, slugs[1], 1);
      const reloaded = withoutAttractions(loaded, [slugs[0]]);
      const route = await getTouristRoute(kv, userId, reloaded);
      assert.deepEqual(route.visits.map((v) => v.slug), [slugs[1]]);
      assert.equal(route.visitCount, 1);
      assert.equal(route.totalAttractions, 16);
      assert.equal(route.completionPercent, 6);
    },
  );

  await t.step(
    "after a reload lowers the total, the next verification unlocks Leyenda once",
    async () => {
      const userId = crypto.randomUUID();
      const reloaded = withoutAttractions(loaded, slugs.slice(12));
      for (const [i, slug] of slugs.slice(0, 11).entries()) {
        await visit(userId, slug, i);
      }
      // 11 visits, total now 12: the 12th reaches it.
      const twelfth = await recordVisit(kv, {
        userId,
        slug: slugs[11],
        now: new Date(T0 + 20_000),
        totalAttractions: reloaded.totalAttractions,
      });
      assert.equal(twelfth.status, "created");
      assert.deepEqual(twelfth.status === "created" && twelfth.badge, {
        id: "leyenda",
        name: "Leyenda",
        icon: "👑",
      });
      // Back to 17: a 13th visit unlocks nothing again.
      const thirteenth = await visit(userId, slugs[12], 30_000);
      assert.equal(thirteenth.status === "created" && thirteenth.badge, null);
      const route = await getTouristRoute(kv, userId, reloaded);
      assert.deepEqual(route.badges.map((b) => b.id), [
        "explorador",
        "veterano",
        "leyenda",
      ]);
      assert.equal(route.completionPercent, 100);
    },
  );

  await t.step(
    "a reload that drops the total below a user's count unlocks every badge passed, showing the top one",
    async () => {
      const userId = crypto.randomUUID();
      for (const [i, slug] of slugs.slice(0, 9).entries()) {
        await visit(userId, slug, i);
      }
      // 9 visits (Explorador held); with 8 attractions the 10th passes both.
      const result = await recordVisit(kv, {
        userId,
        slug: slugs[9],
        now: new Date(T0 + 10_000),
        totalAttractions: 8,
      });
      assert.ok(result.status === "created");
      assert.deepEqual(result.unlocked.map((b) => b.id), [
        "veterano",
        "leyenda",
      ]);
      assert.equal(result.badge?.id, "leyenda");
      const route = await getTouristRoute(kv, userId, loaded);
      assert.deepEqual(route.badges.map((b) => b.id), [
        "explorador",
        "veterano",
        "leyenda",
      ]);
    },
  );

  await t.step(
    "attraction stats are zeros until visited, and average the ratings",
    async () => {
      assert.deepEqual(await getAttractionStats(kv, "no-visitada"), {
        visitCount: 0,
        ratingCount: 0,
        ratingSum: 0,
        averageRating: null,
      });
      const slug = slugs[16];
      const before = await getAttractionStats(kv, slug);
      const users = [crypto.randomUUID(), crypto.randomUUID()];
      for (const [i, userId] of users.entries()) {
        await visit(userId, slug, i);
        await rateVisit(kv, {
          userId,
          slug,
          rating: i + 4,
          notes: null,
          now: new Date(T0),
        });
      }
      const after = await getAttractionStats(kv, slug);
      assert.equal(after.visitCount, before.visitCount + 2);
      assert.equal(after.ratingCount, before.ratingCount + 2);
      assert.equal(after.ratingSum, before.ratingSum + 9);
    },
  );
});
