/**
 * The back-dating rule's cases (`effectiveTimesMs`, lib/check_in/rules.ts),
 * here where docs/SECURITY.md names them; they move beside the rule, to
 * lib/check_in/rules_test.ts, when that table names the new path.
 */
import assert from "node:assert/strict";
import { effectiveTimesMs } from "@/lib/check_in/rules.ts";

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
