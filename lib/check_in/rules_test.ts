import assert from "node:assert/strict";
import { REFUSAL_REASONS } from "./names.ts";
import {
  type CheckInCase,
  effectiveTimesMs,
  getGuideCodeLimits,
  GUIDE_CODE_ADDRESS_LIMIT,
  GUIDE_CODE_LIMIT,
  judgeCheckIn,
  judgeClaimedTime,
  MAX_ACCURACY_M,
  MAX_SPEED_KMH,
  refusalError,
} from "./rules.ts";

const PLAZA = { lat: 20.8823, lng: -103.8365 };
/** About 800 m north of the plaza. */
const NORTH = { lat: 20.8823 + 800 / 111_195, lng: -103.8365 };
/** A place about 60 km away. */
const FAR = { lat: 20.6767, lng: -103.3475 };
const AT = new Date("2026-11-27T20:00:00Z");

function judge(overrides: Partial<CheckInCase> = {}) {
  return judgeCheckIn({
    slug: "plaza",
    location: PLAZA,
    rule: { method: "gps-or-code", radiusM: 150 },
    method: "gps",
    position: { ...PLAZA, accuracy: 20 },
    claimedAt: AT,
    receivedAt: AT,
    otherVisits: [],
    locationOf: (slug) => slug === "lejos" ? FAR : PLAZA,
    ...overrides,
  });
}

Deno.test("judgeCheckIn: the method, the position and the speed, as reason names", async (t) => {
  await t.step(
    "a code where the rule takes one is accepted; by position only, refused",
    () => {
      assert.equal(
        judge({ method: "code", rule: { method: "code", radiusM: 150 } }),
        null,
      );
      assert.deepEqual(
        judge({ method: "code", rule: { method: "gps", radiusM: 150 } }),
        { reason: "code_not_accepted" },
      );
    },
  );

  await t.step("a position where the rule takes codes only is refused", () => {
    assert.deepEqual(judge({ rule: { method: "code", radiusM: 150 } }), {
      reason: "position_not_accepted",
    });
  });

  await t.step(
    "a position without accuracy, or worse than 1000 m, is refused",
    () => {
      assert.deepEqual(judge({ position: PLAZA }), {
        reason: "accuracy_missing",
      });
      assert.deepEqual(judge({ position: { ...PLAZA, accuracy: 1001 } }), {
        reason: "accuracy_too_poor",
        maxAccuracyM: MAX_ACCURACY_M,
      });
    },
  );

  await t.step(
    "outside the radius: the distance, rounded, and the radius",
    () => {
      const refusal = judge({ position: { ...NORTH, accuracy: 20 } });
      assert.equal(refusal?.reason, "outside_radius");
      assert.equal(refusal?.radiusM, 150);
      assert.ok(
        Math.abs((refusal?.distanceM ?? 0) - 800) <= 2,
        `${refusal?.distanceM}`,
      );
    },
  );

  await t.step(
    "the accuracy counts in the tourist's favour up to 100 m",
    () => {
      const edge = { lat: 20.8823 + 240 / 111_195, lng: -103.8365 };
      assert.equal(judge({ position: { ...edge, accuracy: 100 } }), null);
      assert.equal(judge({ position: { ...edge, accuracy: 900 } }), null);
      assert.equal(
        judge({ position: { ...edge, accuracy: 50 } })?.reason,
        "outside_radius",
      );
    },
  );

  await t.step(
    "a stamp 60 km away ten minutes before is too fast; three hours before, not",
    () => {
      const other = (minutesAgo: number) => [{
        slug: "lejos",
        visitedAt: new Date(AT.getTime() - minutesAgo * 60_000).toISOString(),
        seq: 1,
      }];
      assert.deepEqual(judge({ otherVisits: other(10) }), {
        reason: "too_fast",
        maxSpeedKmh: MAX_SPEED_KMH,
      });
      assert.equal(judge({ otherVisits: other(180) }), null);
      // The same attraction again says nothing of speed.
      assert.equal(
        judge({ otherVisits: [{ ...other(0)[0], slug: "plaza" }] }),
        null,
      );
    },
  );
});

Deno.test("judgeClaimedTime: at most 72 hours old and 5 minutes ahead", () => {
  const hours = (h: number) => new Date(AT.getTime() + h * 3_600_000);
  assert.equal(judgeClaimedTime(hours(-71.9), AT), null);
  assert.deepEqual(judgeClaimedTime(hours(-72.1), AT), {
    reason: "claimed_too_old",
    hours: 72,
  });
  assert.equal(judgeClaimedTime(new Date(AT.getTime() + 4 * 60_000), AT), null);
  assert.deepEqual(
    judgeClaimedTime(new Date(AT.getTime() + 6 * 60_000), AT),
    { reason: "claimed_in_future", minutes: 5 },
  );
});

Deno.test("getGuideCodeLimits: the user's, and the address's when it is known", () => {
  assert.deepEqual(getGuideCodeLimits({ userId: "u" }), [
    { ...GUIDE_CODE_LIMIT, subject: "u" },
  ]);
  assert.deepEqual(getGuideCodeLimits({ userId: "u", clientIp: "unknown" }), [
    { ...GUIDE_CODE_LIMIT, subject: "u" },
  ]);
  assert.deepEqual(getGuideCodeLimits({ userId: "u", clientIp: "10.0.0.1" }), [
    { ...GUIDE_CODE_LIMIT, subject: "u" },
    { ...GUIDE_CODE_ADDRESS_LIMIT, subject: "10.0.0.1" },
  ]);
});

Deno.test("refusalError: a 422 with the reason and its facts, worded from REFUSAL_WORDS", () => {
  for (const reason of REFUSAL_REASONS) {
    const error = refusalError({
      reason,
      radiusM: 150,
      distanceM: 800,
      hours: 72,
      minutes: 5,
      maxAccuracyM: MAX_ACCURACY_M,
      maxSpeedKmh: MAX_SPEED_KMH,
    });
    assert.ok(!/[{}]/.test(error.details), error.details);
    assert.equal(error.status, 422);
    assert.equal(error.options.body?.reason, reason);
    assert.equal(error.options.body?.radiusM, 150);
  }
});

const H = 3_600_000;
const NOW = Date.parse("2026-11-27T20:00:00Z");

Deno.test("effectiveTimesMs", async (t) => {
  await t.step("a queue sent oldest first keeps its claimed times", () => {
    const day = [9, 7, 5, 3].map((ago, i) => ({
      claimedMs: NOW - ago * H,
      receivedMs: NOW + i * 26,
    }));
    assert.deepEqual(
      effectiveTimesMs(day),
      day.map((checkIn) => checkIn.claimedMs),
    );
  });

  await t.step(
    "a claim before a check-in received earlier counts from that check-in's arrival",
    () => {
      const live = { claimedMs: NOW, receivedMs: NOW };
      const backDated = [71, 60, 36].map((ago, i) => ({
        claimedMs: NOW + 13 * 60_000 - ago * H,
        receivedMs: NOW + 13 * 60_000 + i * 26,
      }));
      assert.deepEqual(effectiveTimesMs([live, ...backDated]), [
        NOW,
        NOW,
        NOW,
        NOW,
      ]);
    },
  );

  await t.step(
    "out of order, each is held to the latest arrival of a later claim",
    () => {
      const times = effectiveTimesMs([
        { claimedMs: NOW - 3 * H, receivedMs: NOW },
        { claimedMs: NOW - 9 * H, receivedMs: NOW + 26 },
        { claimedMs: NOW - 7 * H, receivedMs: NOW + 52 },
        { claimedMs: NOW - 2 * H, receivedMs: NOW + 78 },
      ]);
      // The third claims to precede only the first (the second claims earlier).
      assert.deepEqual(times, [NOW - 3 * H, NOW, NOW, NOW - 2 * H]);
    },
  );
});
