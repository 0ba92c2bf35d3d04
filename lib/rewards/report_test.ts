import assert from "node:assert/strict";
import { getRequiredStamps, isLowStock } from "./report.ts";
import type { Prize } from "@/lib/prizes/types.ts";

Deno.test("rewards report: low stock is under a tenth of the units", () => {
  const prize = { stockTotal: 40 } as Prize;
  assert.equal(isLowStock(prize, 4), false);
  assert.equal(isLowStock(prize, 3), true);
  assert.equal(isLowStock(prize, 0), true);
});

Deno.test("rewards report: the stamps a prize comes down to, where a counter holds them", () => {
  assert.equal(getRequiredStamps({ kind: "stamps", count: 5 }, 17), 5);
  assert.equal(
    getRequiredStamps({ kind: "badge", badgeId: "veterano" }, 17),
    10,
  );
  assert.equal(
    getRequiredStamps({ kind: "badge", badgeId: "leyenda" }, 17),
    17,
  );
  assert.equal(
    getRequiredStamps({ kind: "route", routeSlug: "centro" }, 17),
    null,
  );
  assert.equal(
    getRequiredStamps({ kind: "attractions", slugs: ["a"] }, 17),
    null,
  );
});
