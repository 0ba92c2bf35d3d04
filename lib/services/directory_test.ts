import assert from "node:assert/strict";
import { loadShippedData } from "@/tests/test_utils.ts";
import {
  buildDirectory,
  formatWebsite,
  getDirectoryUrl,
  getProviderPage,
  getTelUrl,
  getWhatsAppUrl,
  parseNear,
  parseProviderType,
} from "./directory.ts";

const { data } = await loadShippedData();

Deno.test("parseNear takes lat,lng in range and nothing else", () => {
  assert.deepEqual(parseNear(undefined), {});
  assert.deepEqual(parseNear(""), {});
  assert.deepEqual(parseNear("20.8845,-103.839"), {
    location: { lat: 20.8845, lng: -103.839 },
  });
  assert.deepEqual(parseNear(" 20.88 , -103.84 "), {
    location: { lat: 20.88, lng: -103.84 },
  });
  assert.deepEqual(parseNear("20.123456789,-103.000001"), {
    location: { lat: 20.12346, lng: -103 },
  });
  assert.deepEqual(parseNear("-0.000001,0"), { location: { lat: 0, lng: 0 } });
  for (
    const bad of [
      "abc",
      "20.88",
      "91,0",
      "0,181",
      "20.88;-103.84",
      "1e1,2",
      "NaN,NaN",
      "Infinity,0",
      "0x10,0",
      "20.88,-103.84,5",
      `20.${"1".repeat(60)},0`,
    ]
  ) {
    assert.deepEqual(parseNear(bad), { invalid: true }, bad);
  }
});

Deno.test("parseProviderType knows the three kinds", () => {
  assert.equal(parseProviderType("hotel"), "hotel");
  assert.equal(parseProviderType("restaurante"), "restaurante");
  assert.equal(parseProviderType("guia"), "guia");
  assert.equal(parseProviderType("Hotel"), undefined);
  assert.equal(parseProviderType("spa"), undefined);
  assert.equal(parseProviderType(undefined), undefined);
});

Deno.test("getDirectoryUrl writes the filter and the location readably", () => {
  assert.equal(getDirectoryUrl({}), "/turismo/servicios");
  assert.equal(
    getDirectoryUrl({ type: "guia", location: { lat: 20.5, lng: -103.25 } }),
    "/turismo/servicios?tipo=guia&cerca=20.5,-103.25",
  );
});

Deno.test("buildDirectory groups by kind and gives each two nearby attractions", () => {
  const all = buildDirectory(data, { now: new Date() });
  assert.deepEqual(all.groups.map((g) => g.type), [
    "hotel",
    "restaurante",
    "guia",
  ]);
  assert.equal(all.total, 11);
  assert.deepEqual(all.counts, { hotel: 4, restaurante: 4, guia: 3 });
  for (const { entries } of all.groups) {
    for (const entry of entries) {
      assert.equal(entry.nearby.length, 2);
      assert.ok(entry.nearby[0].distanceKm <= entry.nearby[1].distanceKm);
    }
  }
  const guides = buildDirectory(data, { now: new Date(), type: "guia" });
  assert.deepEqual(guides.groups.map((g) => g.type), ["guia"]);
  assert.equal(guides.counts.hotel, 4); // The filters still count every kind.
});

Deno.test("getProviderPage finds dishes, packages and nearby attractions", () => {
  const page = getProviderPage(data, "cenaduria-santiago")!;
  assert.deepEqual(page.dishes.map((d) => d.dish), [
    "Pozole rojo",
    "Sopes y tostadas",
    "Jericalla",
  ]);
  assert.equal(page.nearby.length, 4);
  assert.deepEqual(
    getProviderPage(data, "rutas-del-agave")!.packages.map((p) => p.slug),
    ["tequila-en-un-dia"],
  );
  assert.equal(getProviderPage(data, "no-existe"), undefined);
});

Deno.test("contact links: tel:, wa.me and a readable website", () => {
  assert.equal(getTelUrl("+52 374 000 0101"), "tel:+523740000101");
  assert.equal(getTelUrl("911"), "tel:911");
  assert.equal(
    getWhatsAppUrl("+52 374 000 0102"),
    "https://wa.me/523740000102",
  );
  assert.equal(
    formatWebsite("https://ejemplo.mx/casona-del-agave"),
    "ejemplo.mx/casona-del-agave",
  );
  assert.equal(formatWebsite("https://www.ejemplo.mx/"), "ejemplo.mx");
});
