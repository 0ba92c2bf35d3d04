import assert from "node:assert/strict";
import { formatDistance, getDistanceKm } from "./distance.ts";
import { haversineKm } from "@/lib/geo/geo.ts";
import { formatDistance as formatOnServer } from "@/lib/format/mod.ts";

Deno.test("distances in the browser match the server's", async (t) => {
  const plaza = { lat: 20.88248, lng: -103.83627 };
  const far = { lat: 20.9012, lng: -103.7821 };

  await t.step("the same haversine as lib/geo", () => {
    assert.equal(getDistanceKm(plaza, far), haversineKm(plaza, far));
    assert.equal(getDistanceKm(plaza, plaza), 0);
  });

  await t.step("the same rounding as lib/format, per locale", () => {
    for (const km of [0.004, 0.432, 1.234, 9.96, 14.4]) {
      assert.equal(formatDistance(km, "es-MX"), formatOnServer(km, "es"));
      assert.equal(formatDistance(km, "en-US"), formatOnServer(km, "en"));
    }
    assert.equal(formatDistance(1.234, "es-MX"), "1.2 km");
    assert.equal(formatDistance(0.432, "en-US"), "430 m");
  });
});
