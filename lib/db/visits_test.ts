import assert from "node:assert/strict";
import { openKv } from "./kv.ts";
import { hitRateLimit } from "./rate_limits.ts";
import { keys } from "./keys.ts";
import {
  getAttractionStats,
  getUserStats,
  getVisit,
  listBadges,
  rateVisit,
  recordVisit,
  type StoredUserStats,
} from "./visits.ts";
import {
  addErasedUserTo,
  isUserErased,
  UserErasedError,
} from "./erased_users.ts";

const NOW = new Date("2026-11-22T15:00:00Z");
const LIMIT = { scope: "guide_codes", limit: 10, windowMs: 600_000 };

Deno.test("visits store", async (t) => {
  await using kv = await openKv(":memory:");

  await t.step(
    "wrong codes recorded while a right one is in flight make it answer rate_limited",
    async () => {
      const userId = crypto.randomUUID();
      const rateLimit = { ...LIMIT, subject: userId };
      // A KV whose first read lets ten failures land before the commit.
      let interleaved = false;
      const racing = new Proxy(kv, {
        get(target, property) {
          if (property === "getMany") {
            return async (...args: Parameters<Deno.Kv["getMany"]>) => {
              const entries = await target.getMany(...args);
              if (!interleaved) {
                interleaved = true;
                for (let i = 0; i < 10; i++) {
                  await hitRateLimit(target, { ...rateLimit, now: NOW });
                }
              }
              return entries;
            };
          }
          const value = Reflect.get(target, property);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const result = await recordVisit(racing, {
        userId,
        slug: "plaza-principal",
        now: NOW,
        totalAttractions: 17,
        rateLimits: [rateLimit],
      });
      assert.ok(interleaved);
      assert.deepEqual(result, {
        status: "rate_limited",
        retryAfterMs: 600_000,
      });
      assert.equal(await getVisit(kv, userId, "plaza-principal"), null);
      assert.equal((await getUserStats(kv, userId)).visitCount, 0);
    },
  );

  await t.step(
    "without a limit in the way, the visit is recorded once",
    async () => {
      const userId = crypto.randomUUID();
      const options = {
        userId,
        slug: "plaza-principal",
        now: NOW,
        totalAttractions: 17,
        rateLimits: [{ ...LIMIT, subject: userId }],
      };
      const first = await recordVisit(kv, options);
      assert.equal(first.status, "created");
      const second = await recordVisit(kv, options);
      assert.equal(second.status, "duplicate");
      assert.equal(
        second.status === "duplicate" && second.visit.visitId,
        first.status === "created" && first.visit.visitId,
      );
    },
  );
});

Deno.test("an attraction's visit count", async (t) => {
  await using kv = await openKv(":memory:");
  const record = (userId: string, slug: string) =>
    recordVisit(kv, { userId, slug, now: NOW, totalAttractions: 17 });

  await t.step(
    "40 tourists verifying one attraction at once are 40 visits",
    async () => {
      const results = await Promise.all(
        Array.from({ length: 40 }, () => record(crypto.randomUUID(), "museo")),
      );
      assert.ok(results.every((r) => r.status === "created"));
      assert.equal((await getAttractionStats(kv, "museo")).visitCount, 40);
    },
  );

  await t.step(
    "a count stored by an earlier version is kept and added to",
    async () => {
      await kv.set(keys.attractionStats("mercado"), {
        visitCount: 7,
        ratingCount: 2,
        ratingSum: 9,
      });
      await record(crypto.randomUUID(), "mercado");
      assert.deepEqual(await getAttractionStats(kv, "mercado"), {
        visitCount: 8,
        ratingCount: 2,
        ratingSum: 9,
        averageRating: 4.5,
      });
    },
  );
});

Deno.test("counters of an earlier version (no list of badges) unlock nothing twice", async () => {
  await using kv = await openKv(":memory:");
  const userId = crypto.randomUUID();
  const slugs = Array.from({ length: 10 }, (_, i) => `atractivo-${i + 1}`);
  for (const slug of slugs.slice(0, 5)) {
    await recordVisit(kv, { userId, slug, now: NOW, totalAttractions: 17 });
  }
  // As an earlier version stored them: the counts, not the badge ids.
  await kv.set(keys.userStats(userId), { visitCount: 5, badgeCount: 1 });
  for (const [i, slug] of slugs.slice(5).entries()) {
    const result = await recordVisit(kv, {
      userId,
      slug,
      now: NOW,
      totalAttractions: 17,
    });
    assert.equal(
      result.status === "created" && result.badge?.id,
      i === 4 ? "veterano" : undefined,
      slug,
    );
  }
  assert.deepEqual(await getUserStats(kv, userId), {
    visitCount: 10,
    badgeCount: 2,
  });
  assert.deepEqual((await listBadges(kv, userId)).map((b) => b.id), [
    "explorador",
    "veterano",
  ]);
});

/** A KV whose first `getMany` lets `userId`'s erasure land (its tombstone) before the read's commit. */
function erasedAfterFirstRead(kv: Deno.Kv, userId: string) {
  const state = { interleaved: false };
  const racing = new Proxy(kv, {
    get(target, property) {
      if (property === "getMany") {
        return async (...args: Parameters<Deno.Kv["getMany"]>) => {
          const entries = await target.getMany(...args);
          if (!state.interleaved) {
            state.interleaved = true;
            const operation = target.atomic();
            await addErasedUserTo(operation, userId);
            await operation.commit();
          }
          return entries;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { racing, state };
}

Deno.test("a write racing its user's erasure writes nothing: the tombstone is checked in the atomic", async (t) => {
  await using kv = await openKv(":memory:");

  await t.step("a verification", async () => {
    const userId = crypto.randomUUID();
    const { racing, state } = erasedAfterFirstRead(kv, userId);
    await assert.rejects(
      recordVisit(racing, {
        userId,
        slug: "plaza-principal",
        now: NOW,
        totalAttractions: 17,
      }),
      UserErasedError,
    );
    assert.ok(state.interleaved);
    assert.equal(await getVisit(kv, userId, "plaza-principal"), null);
    const left = await Array.fromAsync(kv.list({ prefix: [] }));
    assert.deepEqual(
      left.filter((entry) => JSON.stringify(entry.key).includes(userId)),
      [],
    );
  });

  await t.step("a rating", async () => {
    const userId = crypto.randomUUID();
    await recordVisit(kv, {
      userId,
      slug: "plaza-principal",
      now: NOW,
      totalAttractions: 17,
    });
    const { racing, state } = erasedAfterFirstRead(kv, userId);
    await assert.rejects(
      rateVisit(racing, {
        userId,
        slug: "plaza-principal",
        rating: 5,
        notes: "Volveré",
        now: NOW,
      }),
      UserErasedError,
    );
    assert.ok(state.interleaved);
    const visit = await getVisit(kv, userId, "plaza-principal");
    assert.equal(visit?.rating, null);
    assert.equal(visit?.notes, null);
  });

  await t.step(
    "once erased, a user id's writes are refused at the read",
    async () => {
      const userId = crypto.randomUUID();
      const operation = kv.atomic();
      await addErasedUserTo(operation, userId);
      await operation.commit();
      assert.equal(await isUserErased(kv, userId), true);
      assert.equal(await isUserErased(kv, crypto.randomUUID()), false);
      await assert.rejects(
        recordVisit(kv, {
          userId,
          slug: "plaza-principal",
          now: NOW,
          totalAttractions: 17,
        }),
        UserErasedError,
      );
      // The tombstone names no one: the hash of the id, nothing else.
      const stored = await Array.fromAsync(
        kv.list({ prefix: ["erased_users"] }),
      );
      assert.ok(
        stored.every((entry) =>
          !JSON.stringify(entry).includes(userId) && entry.value === true
        ),
      );
    },
  );
});

/** A KV that counts its `list` calls. */
function countingLists(kv: Deno.Kv) {
  const counts = { lists: 0 };
  const counting = new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property === "list") {
        return (...args: Parameters<Deno.Kv["list"]>) => {
          counts.lists++;
          return target.list(...args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counting, counts };
}

Deno.test("a verification reads the passport's visits from its counters, not a list", async (t) => {
  await using kv = await openKv(":memory:");
  const slugs = Array.from({ length: 10 }, (_, i) => `atractivo-${i + 1}`);

  await t.step("ten visits list no visits, and badges come once", async () => {
    const userId = crypto.randomUUID();
    const { kv: counting, counts } = countingLists(kv);
    const badges: string[] = [];
    for (const slug of slugs) {
      const result = await recordVisit(counting, {
        userId,
        slug,
        now: NOW,
        totalAttractions: 17,
      });
      assert.equal(result.status, "created");
      if (result.status === "created" && result.badge) {
        badges.push(result.badge.id);
      }
    }
    assert.equal(counts.lists, 0);
    assert.deepEqual(badges, ["explorador", "veterano"]);
    const stored = (await kv.get<StoredUserStats>(keys.userStats(userId)))
      .value!;
    assert.deepEqual(stored.visited?.map(([slug]) => slug), slugs);
    assert.deepEqual(stored.visited?.map(([, , , seq]) => seq), [
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
    ]);
  });

  await t.step(
    "counters without the visits (an earlier version's, a merge's) list them once, then write them",
    async () => {
      const userId = crypto.randomUUID();
      for (const slug of slugs.slice(0, 5)) {
        await recordVisit(kv, { userId, slug, now: NOW, totalAttractions: 17 });
      }
      await kv.set(keys.userStats(userId), {
        visitCount: 5,
        badgeCount: 1,
        badges: ["explorador"],
      });
      const { kv: counting, counts } = countingLists(kv);
      const badges: string[] = [];
      for (const slug of slugs.slice(5)) {
        const result = await recordVisit(counting, {
          userId,
          slug,
          now: NOW,
          totalAttractions: 17,
        });
        if (result.status === "created" && result.badge) {
          badges.push(result.badge.id);
        }
      }
      assert.equal(counts.lists, 1);
      assert.deepEqual(badges, ["veterano"]);
      const stored = (await kv.get<StoredUserStats>(keys.userStats(userId)))
        .value!;
      assert.deepEqual(stored.visited?.map(([slug]) => slug), slugs);
    },
  );
});
