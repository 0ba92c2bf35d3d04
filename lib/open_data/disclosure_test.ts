import assert from "node:assert/strict";
import {
  getClosedPeriods,
  MIN_PEOPLE,
  publishCount,
  publishRating,
  publishTotal,
} from "./disclosure.ts";

Deno.test("publishTotal: a total stands only if its blanks cannot be given back", () => {
  assert.equal(publishTotal([6, 2]), null, "one blank is the remainder");
  assert.equal(publishTotal([6, 1, 1, 1, 1, 1]), null, "five blanks of one");
  assert.equal(publishTotal([6, 4, 4]), null, "two blanks of four");
  assert.equal(publishTotal([6, 2, 2]), null, "a remainder of 4 people");
  assert.equal(publishTotal([5, 2, 3]), 10);
  assert.equal(publishTotal([5, 6]), 11);
  assert.equal(publishTotal([2, 2]), null, "under 5 in all");
  assert.equal(publishTotal([]), null);
});

Deno.test("publishCount and publishRating: nothing from fewer than MIN_PEOPLE", () => {
  assert.equal(MIN_PEOPLE, 5);
  assert.equal(publishCount(4), null);
  assert.equal(publishCount(5), 5);
  assert.equal(publishRating({ count: 4, sum: 20 }), null);
  assert.deepEqual(publishRating({ count: 5, sum: 21 }), {
    count: 5,
    average: 4.2,
  });
});

Deno.test("getClosedPeriods: yesterday and last month, in the municipality's time zone", () => {
  const tz = "America/Mexico_City"; // UTC-6 all year
  // 1 March 2026, 05:59 UTC is still 28 February in Mexico City.
  assert.deepEqual(getClosedPeriods(new Date("2026-03-01T05:59:00Z"), tz), {
    day: "2026-02-27",
    month: "2026-01",
  });
  assert.deepEqual(getClosedPeriods(new Date("2026-03-01T06:00:00Z"), tz), {
    day: "2026-02-28",
    month: "2026-02",
  });
  assert.deepEqual(getClosedPeriods(new Date("2026-01-01T12:00:00Z"), tz), {
    day: "2025-12-31",
    month: "2025-12",
  });
});
