import assert from "node:assert/strict";
import { loadShippedData } from "@/tests/test_utils.ts";
import { getLocalDayNumber } from "@/lib/calendar/mod.ts";
import { orderProviders, PROVIDER_TYPES, rotateByDay } from "./order.ts";

const { data } = await loadShippedData();
const timeZone = data.municipality.timeZone; // America/Mexico_City, UTC-6
const DAY_MS = 86_400_000;

Deno.test("getLocalDayNumber counts days of the municipality's calendar", () => {
  assert.equal(getLocalDayNumber(new Date("1970-01-01T12:00:00Z"), "UTC"), 0);
  assert.equal(
    getLocalDayNumber(new Date("2026-11-22T12:00:00Z"), "UTC"),
    Date.UTC(2026, 10, 22) / DAY_MS,
  );
  // 05:59 UTC on the 23rd is still the 22nd in Tequila; 06:00 is the 23rd.
  const day = getLocalDayNumber(new Date("2026-11-22T06:00:00Z"), timeZone);
  assert.equal(day, Date.UTC(2026, 10, 22) / DAY_MS);
  assert.equal(
    getLocalDayNumber(new Date("2026-11-23T05:59:59Z"), timeZone),
    day,
  );
  assert.equal(
    getLocalDayNumber(new Date("2026-11-23T06:00:00Z"), timeZone),
    day + 1,
  );
});

Deno.test("rotateByDay turns the list by the day mod its length", () => {
  assert.deepEqual(rotateByDay(["a", "b", "c"], 0), ["a", "b", "c"]);
  assert.deepEqual(rotateByDay(["a", "b", "c"], 1), ["b", "c", "a"]);
  assert.deepEqual(rotateByDay(["a", "b", "c"], 5), ["c", "a", "b"]);
  assert.deepEqual(rotateByDay(["a", "b", "c"], -1), ["c", "a", "b"]);
  assert.deepEqual(rotateByDay([], 7), []);
  // Over n consecutive days each item leads exactly once.
  const leaders = [20414, 20415, 20416, 20417].map((d) =>
    rotateByDay(["w", "x", "y", "z"], d)[0]
  );
  assert.deepEqual([...leaders].sort(), ["w", "x", "y", "z"]);
});

Deno.test("orderProviders without a location: kinds in order, each turned by the day", () => {
  const now = new Date("2026-11-22T18:00:00Z");
  const day = getLocalDayNumber(now, timeZone);
  const ordered = orderProviders(data.providers, { now, timeZone });
  assert.equal(ordered.length, data.providers.length);
  assert.ok(ordered.every((o) => o.distanceKm === undefined));
  const expected = PROVIDER_TYPES.flatMap((type) =>
    rotateByDay(data.providers.filter((p) => p.type === type), day)
  );
  assert.deepEqual(ordered.map((o) => o.provider), expected);
  // The same all day, another the next.
  const later = orderProviders(data.providers, {
    now: new Date("2026-11-23T05:00:00Z"),
    timeZone,
  });
  assert.deepEqual(later, ordered);
  const tomorrow = orderProviders(data.providers, {
    now: new Date(now.getTime() + DAY_MS),
    timeZone,
  });
  assert.notDeepEqual(tomorrow, ordered);
});

Deno.test("orderProviders with a location: nearest first, with distances", () => {
  const ordered = orderProviders(data.providers, {
    now: new Date(),
    timeZone,
    location: { lat: 20.68, lng: -103.85 }, // Teuchitlán
  });
  assert.equal(ordered[0].provider.slug, "guias-teuchitlan");
  const distances = ordered.map((o) => o.distanceKm!);
  assert.deepEqual(distances, [...distances].sort((a, b) => a - b));
});
