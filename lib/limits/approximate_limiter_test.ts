import assert from "node:assert/strict";
import { ApproximateRateLimiter, getShareStep } from "./approximate_limiter.ts";
import { getRateLimitTotals } from "@/lib/db/rate_limits.ts";

const WINDOW = 60_000;
const SCOPE = "test";

/** A clock at 1 s into a window, moved by hand. */
function createClock() {
  let now = Math.floor(Date.now() / WINDOW) * WINDOW + 1_000;
  return {
    now: () => now,
    set(ms: number) {
      now = ms;
    },
    advance(ms: number) {
      now += ms;
    },
    get bucket() {
      return Math.floor(now / WINDOW);
    },
  };
}

function createLimiter(
  kv: Deno.Kv,
  clock: ReturnType<typeof createClock>,
  options: { limit?: number; maxSubjects?: number } = {},
) {
  return new ApproximateRateLimiter({
    kv,
    scope: SCOPE,
    limit: options.limit ?? 25,
    windowMs: WINDOW,
    now: clock.now,
    // Flushed by hand in these tests; the timer would only repeat it.
    flushIntervalMs: 60_000,
    maxSubjects: options.maxSubjects,
  });
}

function hitMany(limiter: ApproximateRateLimiter, subject: string, n: number) {
  let allowed = 0;
  for (let i = 0; i < n; i++) if (limiter.hit(subject).allowed) allowed++;
  return allowed;
}

/** Every instance's stored hits of `subject` in the clock's window and the one before. */
async function storedTotal(
  kv: Deno.Kv,
  subject: string,
  bucket: number,
): Promise<number> {
  const totals = await getRateLimitTotals(kv, {
    scope: SCOPE,
    subject,
    fromBucket: bucket - 1,
    toBucket: bucket,
  });
  return [...totals.values()].reduce((sum, { total }) => sum + total, 0);
}

/** A KV whose reads and commits are counted, and whose next commits can be made to fail. */
function spyKv(kv: Deno.Kv) {
  const calls = { list: 0, getMany: 0, get: 0, commit: 0, failNext: 0 };
  const proxy = new Proxy(kv, {
    get(target, name) {
      if (name === "list" || name === "getMany" || name === "get") {
        return (...args: unknown[]) => {
          calls[name]++;
          // deno-lint-ignore no-explicit-any
          return (target as any)[name](...args);
        };
      }
      if (name === "atomic") {
        return () => {
          const operation = target.atomic();
          const commit = operation.commit.bind(operation);
          operation.commit = () => {
            calls.commit++;
            if (calls.failNext > 0) {
              calls.failNext--;
              return Promise.resolve({ ok: false as const });
            }
            return commit();
          };
          return operation;
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: proxy, calls };
}

Deno.test("ApproximateRateLimiter", async (t) => {
  await t.step(
    "one instance allows exactly the limit and stores what it allowed",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using limiter = createLimiter(kv, clock);
      assert.equal(hitMany(limiter, "a", 40), 25);
      const refused = limiter.hit("a");
      assert.equal(refused.allowed, false);
      assert.ok(refused.retryAfterMs >= 1 && refused.retryAfterMs <= WINDOW);
      assert.equal(limiter.estimate("a"), 25);
      assert.equal(await storedTotal(kv, "a", clock.bucket), 0, "not yet");
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 25);
      assert.equal(hitMany(limiter, "b", 3), 3, "another subject");
    },
  );

  await t.step(
    "the previous window counts in proportion to what is left of it",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using limiter = createLimiter(kv, clock);
      assert.equal(hitMany(limiter, "a", 25), 25);
      // 60 % into the next window: 40 % of the 25 still counts (10).
      clock.set((clock.bucket + 1) * WINDOW + 0.6 * WINDOW);
      assert.equal(limiter.estimate("a"), 10);
      assert.equal(hitMany(limiter, "a", 30), 15);
      // One more fits once the estimate is 24: 25 × (1 - f) + 15 = 24 at f = 0.64.
      const { retryAfterMs } = limiter.hit("a");
      assert.ok(Math.abs(retryAfterMs - 0.04 * WINDOW) <= 1, `${retryAfterMs}`);
      clock.advance(retryAfterMs);
      assert.equal(limiter.hit("a").allowed, true);
      // Two windows later nothing counts.
      clock.advance(2 * WINDOW);
      assert.equal(limiter.estimate("a"), 0);
      assert.equal(hitMany(limiter, "a", 30), 25);
    },
  );

  await t.step(
    "two instances overshoot by at most what the other allowed in two flush intervals, then agree",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using a = createLimiter(kv, clock, { limit: 100 });
      await using b = createLimiter(kv, clock, { limit: 100 });
      // Each flush interval: 5 hits at each instance, then A flushes, then B.
      // A reads B's hits of two intervals ago; B reads A's of the last one.
      let allowed = 0;
      let intervals = 0;
      while (true) {
        const now = hitMany(a, "ip", 5) + hitMany(b, "ip", 5);
        allowed += now;
        await a.flush();
        await b.flush();
        intervals++;
        if (now === 0) break;
        assert.ok(intervals < 30, "blocked eventually");
      }
      assert.ok(allowed >= 100, `allowed ${allowed}: at least the limit`);
      // The limit + what the other allowed in two intervals + N × (δ - 1).
      const slack = 2 * 5 + 2 * (getShareStep(100) - 1);
      assert.ok(allowed <= 100 + slack, `allowed ${allowed}: bounded slack`);
      assert.equal(await storedTotal(kv, "ip", clock.bucket), allowed);
      assert.equal(a.estimate("ip"), allowed, "A knows every hit");
      assert.equal(b.estimate("ip"), allowed, "B knows every hit");
      assert.equal(a.hit("ip").allowed, false);
      assert.equal(b.hit("ip").allowed, false);
    },
  );

  await t.step(
    "an instance that has not read another's hits yet allows within its own view",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using a = createLimiter(kv, clock);
      await using b = createLimiter(kv, clock);
      assert.equal(hitMany(a, "ip", 20), 20);
      await a.flush();
      // B has never read "ip": its first hits are decided on its own count.
      assert.equal(hitMany(b, "ip", 10), 10);
      await b.flush();
      assert.equal(b.estimate("ip"), 30, "B read A's 20 back");
      assert.equal(b.hit("ip").allowed, false);
      await a.flush();
      assert.equal(a.estimate("ip"), 30, "A read B's 10 back");
      assert.equal(a.hit("ip").allowed, false);
    },
  );

  await t.step(
    "a flood of one-off addresses stays bounded in memory and costs no KV work",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const spy = spyKv(kv);
      const clock = createClock();
      await using limiter = createLimiter(spy.kv, clock, { maxSubjects: 100 });
      for (let i = 0; i < 1_000; i++) {
        assert.equal(limiter.hit(`10.0.${i >> 8}.${i & 255}`).allowed, true);
      }
      assert.ok(limiter.stats.subjects <= 110, `${limiter.stats.subjects}`);
      await limiter.flush();
      assert.equal(spy.calls.list + spy.calls.getMany + spy.calls.get, 0);
      assert.equal(spy.calls.commit, 0);
      // A second hit of one of them shares both.
      limiter.hit("10.0.3.231");
      await limiter.flush();
      assert.equal(await storedTotal(kv, "10.0.3.231", clock.bucket), 2);
      assert.equal(spy.calls.commit, 1);
    },
  );

  await t.step(
    "far from the limit counts go to KV in steps of a fiftieth of it; past half of it, at every flush",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using limiter = createLimiter(kv, clock, { limit: 300 });
      hitMany(limiter, "a", 5);
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 0, "5 < 6");
      hitMany(limiter, "a", 1);
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 6);
      hitMany(limiter, "a", 143);
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 149);
      hitMany(limiter, "a", 1); // 150: half the limit
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 150);
      hitMany(limiter, "a", 1);
      await limiter.flush();
      assert.equal(await storedTotal(kv, "a", clock.bucket), 151);
      hitMany(limiter, "b", 3);
      await limiter.close();
      assert.equal(await storedTotal(kv, "b", clock.bucket), 3, "on close");
    },
  );

  await t.step(
    "close writes the hits a periodic flush held back as too few to share",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      const limiter = createLimiter(kv, clock, { limit: 300 });
      hitMany(limiter, "c", 3);
      await limiter.flush();
      assert.equal(await storedTotal(kv, "c", clock.bucket), 0, "3 < 6");
      await limiter.close();
      assert.equal(await storedTotal(kv, "c", clock.bucket), 3, "on close");
    },
  );

  await t.step(
    "a forgotten subject's earlier hits still count once it is read back",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      await using limiter = createLimiter(kv, clock, { maxSubjects: 2 });
      assert.equal(hitMany(limiter, "a", 20), 20);
      await limiter.flush();
      hitMany(limiter, "b", 1);
      hitMany(limiter, "c", 1); // "a" is forgotten
      assert.equal(limiter.estimate("a"), 0);
      assert.equal(hitMany(limiter, "a", 2), 2);
      await limiter.flush();
      assert.equal(limiter.estimate("a"), 22);
      assert.equal(hitMany(limiter, "a", 10), 3);
    },
  );

  await t.step("a commit that fails is written at the next flush", async () => {
    using kv = await Deno.openKv(":memory:");
    const spy = spyKv(kv);
    const clock = createClock();
    await using limiter = createLimiter(spy.kv, clock);
    hitMany(limiter, "a", 7);
    spy.calls.failNext = 1;
    await limiter.flush();
    assert.equal(await storedTotal(kv, "a", clock.bucket), 0);
    hitMany(limiter, "a", 2);
    await limiter.flush();
    assert.equal(await storedTotal(kv, "a", clock.bucket), 9);
    assert.equal(spy.calls.commit, 2, "one commit per flush");
  });

  await t.step(
    "the flush timer runs only while there is work and stops on close",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const clock = createClock();
      const limiter = new ApproximateRateLimiter({
        kv,
        scope: SCOPE,
        limit: 25,
        windowMs: WINDOW,
        now: clock.now,
        flushIntervalMs: 10,
      });
      assert.equal(limiter.stats.scheduled, false);
      hitMany(limiter, "a", 3);
      assert.equal(limiter.stats.scheduled, true);
      // It flushes by itself, then reads back for a few rounds, then stops.
      const deadline = Date.now() + 2_000;
      while (limiter.stats.scheduled && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(limiter.stats.scheduled, false);
      assert.equal(await storedTotal(kv, "a", clock.bucket), 3);
      hitMany(limiter, "a", 1);
      assert.equal(limiter.stats.scheduled, true);
      await limiter.close();
      assert.equal(limiter.stats.scheduled, false);
      assert.equal(await storedTotal(kv, "a", clock.bucket), 4, "last flush");
      hitMany(limiter, "a", 1);
      assert.equal(limiter.stats.scheduled, false, "no timer after close");
    },
  );
});
