import assert from "node:assert/strict";
import {
  BADGE_DEFINITIONS,
  getBadgeDefinition,
  getBadgeDefinitions,
  getBadgesReachedAt,
} from "./badges.ts";

Deno.test("badges", async (t) => {
  await t.step(
    "the three milestones are Explorador at 5, Veterano at 10 and Leyenda at every attraction",
    () => {
      assert.deepEqual(getBadgeDefinitions(17), [
        { id: "explorador", name: "Explorador", icon: "🧭", threshold: 5 },
        { id: "veterano", name: "Veterano", icon: "🎖️", threshold: 10 },
        { id: "leyenda", name: "Leyenda", icon: "👑", threshold: 17 },
      ]);
    },
  );

  await t.step("each icon is a single emoji", () => {
    const segmenter = new Intl.Segmenter("es", { granularity: "grapheme" });
    for (const badge of BADGE_DEFINITIONS) {
      assert.equal([...segmenter.segment(badge.icon)].length, 1, badge.id);
      assert.match(badge.icon, /\p{Extended_Pictographic}/u, badge.id);
    }
  });

  await t.step("a count below 5 reaches no badge", () => {
    for (const count of [0, 1, 4]) {
      assert.deepEqual(getBadgesReachedAt(count, 17), []);
    }
  });

  await t.step(
    "each milestone is reached at its count and stays reached",
    () => {
      const ids = (count: number) =>
        getBadgesReachedAt(count, 17).map((badge) => badge.id);
      assert.deepEqual(ids(5), ["explorador"]);
      assert.deepEqual(ids(9), ["explorador"]);
      assert.deepEqual(ids(10), ["explorador", "veterano"]);
      assert.deepEqual(ids(16), ["explorador", "veterano"]);
      assert.deepEqual(ids(17), ["explorador", "veterano", "leyenda"]);
      assert.deepEqual(ids(18), ["explorador", "veterano", "leyenda"]);
    },
  );

  await t.step("Leyenda follows the data set's total when it changes", () => {
    const ids = (count: number, total: number) =>
      getBadgesReachedAt(count, total).map((badge) => badge.id);
    assert.deepEqual(ids(17, 20), ["explorador", "veterano"]);
    assert.deepEqual(ids(20, 20), ["explorador", "veterano", "leyenda"]);
    // With fewer than 10 attractions, Leyenda comes before Veterano.
    assert.deepEqual(ids(8, 8), ["explorador", "leyenda"]);
    assert.deepEqual(ids(10, 8), ["explorador", "veterano", "leyenda"]);
    assert.deepEqual(getBadgeDefinitions(8).map((badge) => badge.id), [
      "explorador",
      "leyenda",
      "veterano",
    ]);
    // An empty data set never hands out Leyenda for nothing.
    assert.deepEqual(ids(0, 0), []);
  });

  await t.step("a badge is found by id, and an unknown id is undefined", () => {
    assert.equal(getBadgeDefinition("veterano")?.threshold, 10);
    assert.equal(getBadgeDefinition("nadie"), undefined);
  });
});
