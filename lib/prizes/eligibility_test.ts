import assert from "node:assert/strict";
import { getPrizeProgress } from "./eligibility.ts";

const DATA = {
  attractionCount: 17,
  routes: new Map([["centro", ["plaza", "museo", "templo"]]]),
};
const passport = (visited: string[], badges: string[] = []) => ({
  visited: new Set(visited),
  badges: new Set(badges),
});

Deno.test("eligibility: how far a passport is from each kind of prize", () => {
  const four = passport(["plaza", "museo", "mirador", "cascada"]);
  assert.deepEqual(
    getPrizeProgress({ kind: "stamps", count: 5 }, four, DATA),
    { unlocked: false, have: 4, need: 5 },
  );
  assert.deepEqual(
    getPrizeProgress({ kind: "route", routeSlug: "centro" }, four, DATA),
    { unlocked: false, have: 2, need: 3 },
  );
  assert.deepEqual(
    getPrizeProgress(
      { kind: "attractions", slugs: ["plaza", "museo"] },
      four,
      DATA,
    ),
    { unlocked: true, have: 2, need: 2 },
  );
  // A badge: held, or the stamps toward its milestone (Explorador at 5).
  assert.deepEqual(
    getPrizeProgress({ kind: "badge", badgeId: "explorador" }, four, DATA),
    { unlocked: false, have: 4, need: 5 },
  );
  assert.equal(
    getPrizeProgress(
      { kind: "badge", badgeId: "explorador" },
      passport(["a", "b", "c", "d", "e"], ["explorador"]),
      DATA,
    ).unlocked,
    true,
  );
  // Leyenda follows the data set's total.
  assert.equal(
    getPrizeProgress({ kind: "badge", badgeId: "leyenda" }, four, DATA).need,
    17,
  );
});

Deno.test("eligibility: a route or badge the data no longer has unlocks nothing", () => {
  const many = passport(["plaza", "museo", "templo", "a", "b", "c"]);
  assert.equal(
    getPrizeProgress({ kind: "route", routeSlug: "gone" }, many, DATA).unlocked,
    false,
  );
  assert.equal(
    getPrizeProgress({ kind: "badge", badgeId: "gone" }, many, DATA).unlocked,
    false,
  );
  assert.equal(
    getPrizeProgress({ kind: "attractions", slugs: [] }, many, DATA).unlocked,
    false,
  );
});
