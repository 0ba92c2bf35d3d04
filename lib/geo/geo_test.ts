import assert from "node:assert/strict";
import {
  EARTH_RADIUS_KM,
  findNearbyAttractions,
  findNearest,
  formatKm,
  getDirectionsUrl,
  getMapsUrl,
  haversineKm,
  parseLocation,
} from "./geo.ts";
import { loadShippedData } from "@/tests/test_utils.ts";

const close = (actual: number, expected: number, tolerance = 1e-6) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${actual} is not within ${tolerance} of ${expected}`,
  );

Deno.test("haversineKm matches hand-computed great-circle distances", () => {
  // One degree along a meridian or the equator: R * pi / 180 = 111.195 km.
  close(haversineKm({ lat: 0, lng: 0 }, { lat: 1, lng: 0 }), 111.1950802335);
  close(haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 1 }), 111.1950802335);
  // A quarter and a half of a great circle.
  close(haversineKm({ lat: 0, lng: 0 }, { lat: 90, lng: 0 }), 10007.5572210);
  close(
    haversineKm({ lat: 0, lng: 0 }, { lat: 0, lng: 180 }),
    Math.PI * EARTH_RADIUS_KM,
  );
  // Guadalajara's origin in the data set to Tequila's Plaza Principal,
  // worked out by hand with the same formula: 55.7207 km.
  close(
    haversineKm({ lat: 20.67675, lng: -103.34755 }, {
      lat: 20.88248,
      lng: -103.83627,
    }),
    55.72073,
    1e-4,
  );
  assert.equal(
    haversineKm({ lat: 20.9, lng: -103.8 }, { lat: 20.9, lng: -103.8 }),
    0,
  );
});

Deno.test("haversineKm is symmetric", () => {
  const a = { lat: 20.88248, lng: -103.83627 };
  const b = { lat: -33.8688, lng: 151.2093 };
  assert.equal(haversineKm(a, b), haversineKm(b, a));
});

Deno.test("getDirectionsUrl builds a Google Maps directions link", () => {
  assert.equal(
    getDirectionsUrl({ lat: 20.89, lng: -103.845 }, {
      lat: 20.88248,
      lng: -103.83627,
    }),
    "https://www.google.com/maps/dir/?api=1&origin=20.89,-103.845&destination=20.88248,-103.83627",
  );
  // At most 6 decimals, so a raw GPS fix does not make a ragged link.
  assert.equal(
    getDirectionsUrl({ lat: 20.123456789, lng: -103.000000001 }, {
      lat: 0,
      lng: 0,
    }),
    "https://www.google.com/maps/dir/?api=1&origin=20.123457,-103&destination=0,0",
  );
});

Deno.test("formatKm writes one decimal, and small distances plainly", () => {
  assert.equal(formatKm(1.2336), "1.2 km");
  assert.equal(formatKm(1.25), "1.3 km");
  assert.equal(formatKm(55.72073), "55.7 km");
  assert.equal(formatKm(0.05), "0.1 km");
  assert.equal(formatKm(0.01), "menos de 0.1 km");
});

Deno.test("findNearest sorts by distance and keeps the first ones", () => {
  const origin = { lat: 0, lng: 0 };
  const items = [3, 1, 4, 2, 5].map((n) => ({
    name: `p${n}`,
    location: { lat: n, lng: 0 },
  }));
  const nearest = findNearest(origin, items, 3);
  assert.deepEqual(nearest.map((n) => n.item.name), ["p1", "p2", "p3"]);
  close(nearest[1].distanceKm, 2 * 111.1950802335);
});

Deno.test("parseLocation keeps valid positions and ignores anything else", () => {
  assert.deepEqual(parseLocation({ lat: 20.9, lng: -103.8 }), {
    lat: 20.9,
    lng: -103.8,
  });
  assert.deepEqual(parseLocation({ lat: -90, lng: 180, extra: 1 }), {
    lat: -90,
    lng: 180,
  });
  for (
    const bad of [
      undefined,
      null,
      "20.9,-103.8",
      [20.9, -103.8],
      { lat: 90.1, lng: 0 },
      { lat: 0, lng: -180.5 },
      { lat: "20.9", lng: "-103.8" },
      { lat: Number.NaN, lng: 0 },
      { lat: Infinity, lng: 0 },
      { lat: 20.9 },
    ]
  ) {
    assert.equal(parseLocation(bad), undefined, JSON.stringify(bad));
  }
});

Deno.test("map links and nearest attractions", async (t) => {
  await t.step("map links and nearest attractions", async () => {
    assert.equal(
      getMapsUrl({ lat: 20.88248, lng: -103.83627 }),
      "https://www.google.com/maps/search/?api=1&query=20.88248,-103.83627",
    );
    const { data } = await loadShippedData();
    const [plaza] = data.attractions;
    const nearby = findNearbyAttractions(plaza, data.attractions, 3);
    assert.equal(nearby.length, 3);
    assert.ok(nearby.every((n) => n.attraction.slug !== plaza.slug));
    assert.ok(nearby[0].distanceKm <= nearby[1].distanceKm);
    assert.ok(nearby[1].distanceKm <= nearby[2].distanceKm);
  });
});
