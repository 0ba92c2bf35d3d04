import assert from "node:assert/strict";
import { openKv } from "./kv.ts";
import { hitRateLimit } from "./rate_limits.ts";
import { getUserStats, getVisit, recordVisit } from "./visits.ts";

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
