import assert from "node:assert/strict";
import {
  type BadgeRule,
  BADGES,
  getBadgeDefinitions,
  getBadgeName,
  getBadgeRule,
  getBadgesEarned,
  getFunnelStamps,
} from "./badges.ts";

/** The badges `count` stamps reach among `total` attractions (no other rule reads more). */
function getBadgesReachedAt(count: number, total: number) {
  return getBadgesEarned({ count, total, visited: new Set() });
}

Deno.test("badges", async (t) => {
  await t.step(
    "the three milestones are Explorador at 5, Veterano at 10 and Leyenda at every attraction",
    () => {
      assert.deepEqual(getBadgeDefinitions(17), [
        { id: "explorador", name: "Explorador", icon: "🧭", stamps: 5 },
        { id: "veterano", name: "Veterano", icon: "🎖️", stamps: 10 },
        { id: "leyenda", name: "Leyenda", icon: "👑", stamps: 17 },
      ]);
    },
  );

  await t.step("each icon is a single emoji", () => {
    const segmenter = new Intl.Segmenter("es", { granularity: "grapheme" });
    for (const badge of BADGES) {
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
    assert.equal(getBadgeRule("veterano")?.stamps, 10);
    assert.equal(getBadgeRule("nadie"), undefined);
  });

  await t.step(
    "each name is one catalogue message per language, looked up by id",
    () => {
      assert.deepEqual(BADGES.map((badge) => getBadgeName("es", badge)), [
        "Explorador",
        "Veterano",
        "Leyenda",
      ]);
      assert.deepEqual(BADGES.map((badge) => getBadgeName("en", badge)), [
        "Explorer",
        "Veteran",
        "Legend",
      ]);
      // A badge gone from the catalogue keeps its stored name, else its id.
      assert.equal(getBadgeName("en", { id: "nadie", name: "Nadie" }), "Nadie");
      assert.equal(getBadgeName("en", { id: "nadie" }), "nadie");
    },
  );

  await t.step(
    "the funnel's stamps come from the table: a first stamp, then each badge's",
    () => {
      assert.deepEqual(getFunnelStamps(17), [1, 5, 10, 17]);
      const table: BadgeRule[] = [
        ...BADGES,
        {
          id: "quince",
          icon: "⭐",
          stamps: 15,
          rule: ({ count }) => count >= 15,
        },
        { id: "sin-cuenta", icon: "🌵", rule: () => false },
      ];
      assert.deepEqual(getFunnelStamps(17, table), [1, 5, 10, 15, 17]);
    },
  );

  await t.step(
    "a rule may read the attractions visited, not only the count",
    () => {
      const table: BadgeRule[] = [{
        id: "destilerias",
        icon: "🥃",
        rule: ({ visited }) => visited.has("a") && visited.has("b"),
      }];
      const ids = (visited: string[]) =>
        getBadgesEarned({
          count: visited.length,
          total: 17,
          visited: new Set(visited),
        }, table)
          .map((badge) => badge.id);
      assert.deepEqual(ids(["a"]), []);
      assert.deepEqual(ids(["a", "c", "b"]), ["destilerias"]);
    },
  );
});
