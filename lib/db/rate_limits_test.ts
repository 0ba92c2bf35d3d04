import assert from "node:assert/strict";
import { keys } from "./keys.ts";
import { openKv } from "./kv.ts";
import {
  evaluateRateLimit,
  hitRateLimit,
  peekRateLimit,
  type RateLimitOptions,
} from "./rate_limits.ts";

const T0 = Date.parse("2026-11-22T15:00:00Z");

function options(
  subject: string,
  overrides: Partial<RateLimitOptions> = {},
): RateLimitOptions {
  return {
    scope: "test",
    subject,
    limit: 20,
    windowMs: 60_000,
    now: T0,
    ...overrides,
  };
}

async function assertExactUnderConcurrency(kv: Deno.Kv) {
  const subject = crypto.randomUUID();
  const results = await Promise.all(
    Array.from({ length: 30 }, () => hitRateLimit(kv, options(subject))),
  );
  const allowed = results.filter((r) => r.allowed);
  assert.equal(allowed.length, 20);
  assert.deepEqual(
    allowed.map((r) => r.remaining).sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, i) => i),
  );
  for (const refused of results.filter((r) => !r.allowed)) {
    assert.deepEqual(refused, {
      allowed: false,
      retryAfterMs: 60_000,
      remaining: 0,
    });
  }
  const stored = await kv.get<number[]>(keys.rateLimit("test", subject));
  assert.equal(stored.value?.length, 20);
}

Deno.test("rate limits", async (t) => {
  await using kv = await openKv(":memory:");

  await t.step(
    "30 concurrent hits with a limit of 20 allow exactly 20 (in memory)",
    async () => {
      await assertExactUnderConcurrency(kv);
    },
  );

  await t.step(
    "30 concurrent hits with a limit of 20 allow exactly 20 (KV file, two connections)",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "rate_limits_" });
      try {
        await using first = await openKv(`${dir}/limits.kv`);
        await using second = await openKv(`${dir}/limits.kv`);
        await assertExactUnderConcurrency(first);
        // Two handles on one file behave like two instances sharing it.
        const subject = crypto.randomUUID();
        const results = await Promise.all(
          Array.from(
            { length: 30 },
            (_, i) => hitRateLimit(i % 2 ? first : second, options(subject)),
          ),
        );
        assert.equal(results.filter((r) => r.allowed).length, 20);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "the window slides: each hit frees its slot windowMs later",
    async () => {
      const subject = crypto.randomUUID();
      const at = (ms: number) => options(subject, { limit: 3, now: T0 + ms });
      assert.deepEqual(await hitRateLimit(kv, at(0)), {
        allowed: true,
        retryAfterMs: 0,
        remaining: 2,
      });
      assert.equal((await hitRateLimit(kv, at(10_000))).remaining, 1);
      assert.equal((await hitRateLimit(kv, at(20_000))).remaining, 0);
      assert.deepEqual(await hitRateLimit(kv, at(30_000)), {
        allowed: false,
        retryAfterMs: 30_000,
        remaining: 0,
      });
      assert.equal((await hitRateLimit(kv, at(59_999))).retryAfterMs, 1);
      // The first hit leaves at exactly 60 s: one slot, then full again.
      assert.deepEqual(await hitRateLimit(kv, at(60_000)), {
        allowed: true,
        retryAfterMs: 0,
        remaining: 0,
      });
      assert.deepEqual(await hitRateLimit(kv, at(60_000)), {
        allowed: false,
        retryAfterMs: 10_000,
        remaining: 0,
      });
      const stored = await kv.get<number[]>(keys.rateLimit("test", subject));
      assert.deepEqual(stored.value, [T0 + 10_000, T0 + 20_000, T0 + 60_000]);
    },
  );

  await t.step(
    "refused hits are not recorded, so waiting is enough",
    async () => {
      const subject = crypto.randomUUID();
      const at = (ms: number) => options(subject, { limit: 1, now: T0 + ms });
      assert.ok((await hitRateLimit(kv, at(0))).allowed);
      for (let ms = 1_000; ms < 60_000; ms += 1_000) {
        assert.equal((await hitRateLimit(kv, at(ms))).allowed, false);
      }
      assert.ok((await hitRateLimit(kv, at(60_000))).allowed);
    },
  );

  await t.step(
    "peek says what a hit would get, without recording one",
    async () => {
      const subject = crypto.randomUUID();
      const at = (ms: number) => options(subject, { limit: 2, now: T0 + ms });
      assert.deepEqual(await peekRateLimit(kv, at(0)), {
        allowed: true,
        retryAfterMs: 0,
        remaining: 2,
      });
      await hitRateLimit(kv, at(0));
      await hitRateLimit(kv, at(5_000));
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await peekRateLimit(kv, at(6_000)), {
          allowed: false,
          retryAfterMs: 54_000,
          remaining: 0,
        });
      }
      assert.deepEqual(await peekRateLimit(kv, at(60_000)), {
        allowed: true,
        retryAfterMs: 0,
        remaining: 1,
      });
      const stored = await kv.get<number[]>(keys.rateLimit("test", subject));
      assert.equal(stored.value?.length, 2);
    },
  );

  await t.step("scopes and subjects are counted apart", async () => {
    const subject = crypto.randomUUID();
    const one = options(subject, { limit: 1 });
    assert.ok((await hitRateLimit(kv, one)).allowed);
    assert.equal((await hitRateLimit(kv, one)).allowed, false);
    assert.ok((await hitRateLimit(kv, { ...one, scope: "other" })).allowed);
    assert.ok(
      (await hitRateLimit(kv, { ...one, subject: crypto.randomUUID() }))
        .allowed,
    );
  });

  await t.step(
    "a lowered limit counts the hits already stored, and junk values are ignored",
    () => {
      const stored = [T0 - 50_000, T0 - 40_000, T0 - 30_000, "x", null];
      const result = evaluateRateLimit(stored, {
        limit: 2,
        windowMs: 60_000,
        now: T0,
      });
      assert.deepEqual(result.result, {
        allowed: false,
        retryAfterMs: 20_000,
        remaining: 0,
      });
      assert.deepEqual(
        evaluateRateLimit({ not: "a list" }, {
          limit: 2,
          windowMs: 60_000,
          now: T0,
        }).result,
        { allowed: true, retryAfterMs: 0, remaining: 2 },
      );
    },
  );

  await t.step("nonsense limits are refused", async () => {
    for (
      const bad of [{ limit: 0 }, { limit: 1.5 }, { windowMs: 0 }, {
        windowMs: NaN,
      }]
    ) {
      await assert.rejects(
        hitRateLimit(kv, options("x", bad)),
        RangeError,
        JSON.stringify(bad),
      );
    }
  });
});
