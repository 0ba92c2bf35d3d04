import assert from "node:assert/strict";
import { SlidingWindowLimiter } from "./sliding_window.ts";

const WINDOW = 60_000;

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

/** A limit of 25 a minute on `clock`. */
function createLimiter(
  clock: ReturnType<typeof createClock>,
  maxSubjects?: number,
) {
  return new SlidingWindowLimiter({
    limit: 25,
    windowMs: WINDOW,
    now: clock.now,
    maxSubjects,
  });
}

function hitMany(limiter: SlidingWindowLimiter, subject: string, n: number) {
  let allowed = 0;
  for (let i = 0; i < n; i++) if (limiter.hit(subject).allowed) allowed++;
  return allowed;
}

Deno.test("SlidingWindowLimiter", async (t) => {
  await t.step(
    "a hit with a lower limit stops there, and the limiter's own limit holds the rest",
    () => {
      const clock = createClock();
      const limiter = createLimiter(clock);
      let allowed = 0;
      for (let i = 0; i < 20; i++) if (limiter.hit("a", 10).allowed) allowed++;
      assert.equal(allowed, 10);
      const refused = limiter.hit("a", 10);
      assert.equal(refused.allowed, false);
      assert.ok(refused.retryAfterMs >= 1 && refused.retryAfterMs <= WINDOW);
      assert.equal(limiter.estimate("a"), 10);
      assert.equal(hitMany(limiter, "a", 20), 15);
      assert.equal(limiter.hit("a", 10).allowed, false);
    },
  );

  await t.step(
    "it allows exactly the limit, and refusals are not counted",
    () => {
      const clock = createClock();
      const limiter = createLimiter(clock);
      assert.equal(hitMany(limiter, "a", 40), 25);
      const refused = limiter.hit("a");
      assert.equal(refused.allowed, false);
      assert.ok(refused.retryAfterMs >= 1 && refused.retryAfterMs <= WINDOW);
      assert.equal(limiter.estimate("a"), 25);
      assert.equal(hitMany(limiter, "b", 3), 3, "another subject");
    },
  );

  await t.step(
    "the previous window counts in proportion to what is left of it",
    () => {
      const clock = createClock();
      const limiter = createLimiter(clock);
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

  await t.step("a flood of one-off addresses stays bounded in memory", () => {
    const limiter = createLimiter(createClock(), 100);
    for (let i = 0; i < 1_000; i++) {
      assert.equal(limiter.hit(`10.0.${i >> 8}.${i & 255}`).allowed, true);
    }
    assert.ok(limiter.size <= 100, `${limiter.size} subjects kept`);
    assert.ok(limiter.size >= 50, `${limiter.size} subjects kept`);
  });

  await t.step(
    "a subject hit lately is kept while one-off addresses pass",
    () => {
      const limiter = createLimiter(createClock(), 100);
      assert.equal(hitMany(limiter, "busy", 25), 25);
      for (let i = 0; i < 1_000; i++) {
        limiter.hit(`10.1.${i >> 8}.${i & 255}`);
        // Still refused: its count survives the flood because it keeps coming.
        if (i % 20 === 0) assert.equal(limiter.hit("busy").allowed, false);
      }
      assert.equal(limiter.estimate("busy"), 25);
    },
  );

  await t.step(
    "thousands of addresses each keep their own count",
    () => {
      const limiter = createLimiter(createClock());
      const addresses = Array.from(
        { length: 20_000 },
        (_, i) =>
          i % 2 ? `2001:db8::${i.toString(16)}` : `10.2.${i >> 8}.${i & 255}`,
      );
      for (const address of addresses) limiter.hit(address);
      for (const address of addresses.slice(0, 5_000)) limiter.hit(address);
      assert.equal(limiter.size, 20_000);
      addresses.forEach((address, i) =>
        assert.equal(limiter.estimate(address), i < 5_000 ? 2 : 1, address)
      );
      assert.equal(limiter.estimate("10.3.0.1"), 0, "an address never seen");
    },
  );

  await t.step("limits that cannot work are refused", () => {
    const now = () => 0;
    assert.throws(
      () => new SlidingWindowLimiter({ limit: 0, windowMs: WINDOW, now }),
      RangeError,
    );
    assert.throws(
      () => new SlidingWindowLimiter({ limit: 5, windowMs: 0, now }),
      RangeError,
    );
  });
});
