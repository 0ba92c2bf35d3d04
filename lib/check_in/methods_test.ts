import assert from "node:assert/strict";
import { resolveCheckInRule } from "./methods.ts";
import {
  acceptsCode,
  acceptsPosition,
  CHECK_IN_METHODS,
  DEFAULT_CHECK_IN_RADIUS_M,
} from "./names.ts";

Deno.test("resolveCheckInRule: the admin's rule, else the data set's, else by code", async (t) => {
  await t.step("nothing set: by code within the default radius", () => {
    assert.deepEqual(resolveCheckInRule(null, undefined), {
      method: "code",
      radiusM: DEFAULT_CHECK_IN_RADIUS_M,
    });
  });
  await t.step("the data set's method, with its radius or the default", () => {
    assert.deepEqual(resolveCheckInRule(null, { method: "gps" }), {
      method: "gps",
      radiusM: DEFAULT_CHECK_IN_RADIUS_M,
    });
    assert.deepEqual(
      resolveCheckInRule(undefined, { method: "gps-or-code", radiusM: 400 }),
      { method: "gps-or-code", radiusM: 400 },
    );
  });
  await t.step("an admin's rule wins over the data set's", () => {
    assert.deepEqual(
      resolveCheckInRule({ method: "code", radiusM: 80 }, {
        method: "gps",
        radiusM: 400,
      }),
      { method: "code", radiusM: 80 },
    );
  });
});

Deno.test("acceptsCode and acceptsPosition: every method takes at least one", () => {
  const table = CHECK_IN_METHODS.map((method) => [
    method,
    acceptsCode(method),
    acceptsPosition(method),
  ]);
  assert.deepEqual(table, [
    ["code", true, false],
    ["gps", false, true],
    ["gps-or-code", true, true],
  ]);
});
