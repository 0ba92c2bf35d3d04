/**
 * The public pages' schema.org JSON-LD, read back from the HTML: a
 * `TouristAttraction` on each attraction page, an `Event` for each event
 * still to come on the practical information page, a `Hotel`,
 * `Restaurant` or `LocalBusiness` for each provider on the services page,
 * each with the properties its type expects (a small checker below, no
 * network). A data value with `</script><script>…` stays inside the JSON.
 */
import assert from "node:assert/strict";
import { DOMParser } from "linkedom";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import {
  createTestContext,
  getPage,
  mutateShipped,
  SHIPPED,
} from "../test_utils.ts";

// Noon in Tequila on 23 November 2026: eight events to come.
const NOW = new Date("2026-11-23T18:00:00Z");
const HOSTILE = `</script><script>alert(1)</script>`;

// deno-lint-ignore no-explicit-any -- JSON read back from a page
type Node = Record<string, any>;

/**
 * The properties each type must have and may have (schema.org's, the
 * subset these pages use): a property outside both is a typo or a guess.
 */
const TYPES: Record<string, { required: string[]; optional: string[] }> = {
  TouristAttraction: {
    required: ["name", "description", "url", "geo"],
    optional: [
      "address",
      "image",
      "isAccessibleForFree",
      "openingHoursSpecification",
      "amenityFeature",
    ],
  },
  OpeningHoursSpecification: {
    required: ["dayOfWeek", "opens", "closes"],
    optional: ["validFrom", "validThrough"],
  },
  LocationFeatureSpecification: { required: ["name", "value"], optional: [] },
  Event: {
    required: [
      "name",
      "startDate",
      "endDate",
      "location",
      "eventStatus",
      "eventAttendanceMode",
    ],
    optional: ["description", "url", "image", "eventSchedule"],
  },
  Schedule: {
    required: ["repeatFrequency", "startDate", "scheduleTimezone"],
    optional: [
      "byDay",
      "byMonthDay",
      "byMonthWeek",
      "endDate",
      "startTime",
      "endTime",
    ],
  },
  Place: { required: ["name"], optional: ["geo", "address"] },
  GeoCoordinates: { required: ["latitude", "longitude"], optional: [] },
  LocalBusiness: {
    required: ["name", "url"],
    optional: [
      "description",
      "telephone",
      "email",
      "address",
      "geo",
      "sameAs",
      "priceRange",
    ],
  },
};
TYPES.Hotel = TYPES.LocalBusiness;
TYPES.Restaurant = TYPES.LocalBusiness;

/** Checks `node` (and the nodes inside it) against {@linkcode TYPES}. */
function checkNode(node: Node, where: string): void {
  const type = TYPES[node["@type"]];
  assert.ok(type, `${where}: unknown @type ${node["@type"]}`);
  for (const key of type.required) {
    assert.ok(
      node[key] !== undefined && node[key] !== "",
      `${where}: ${node["@type"]} lacks ${key}`,
    );
  }
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("@")) continue;
    assert.ok(
      type.required.includes(key) || type.optional.includes(key),
      `${where}: ${node["@type"]} has no property ${key}`,
    );
    if (value && typeof value === "object" && "@type" in value) {
      checkNode(value, `${where}.${key}`);
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (item && typeof item === "object" && "@type" in item) {
          checkNode(item, `${where}.${key}[${i}]`);
        }
      });
    }
  }
  if (node["@type"] === "GeoCoordinates") {
    assert.equal(typeof node.latitude, "number");
    assert.equal(typeof node.longitude, "number");
  }
  if (node["@type"] === "Event") {
    // A day (all-day), or a date and time with the zone's offset.
    const DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2})?$/;
    assert.match(node.startDate, DATE);
    assert.match(node.endDate, DATE);
    assert.equal(node.startDate.length, node.endDate.length, "same kind");
    assert.ok(Date.parse(node.endDate) >= Date.parse(node.startDate));
    assert.equal(node.eventStatus, "https://schema.org/EventScheduled");
    assert.equal(
      node.eventAttendanceMode,
      "https://schema.org/OfflineEventAttendanceMode",
    );
  }
  for (const key of ["url", "sameAs"]) {
    if (node[key] !== undefined) new URL(node[key]); // absolute
  }
}

/** Every JSON-LD block of `html`, parsed, each with its `@context` checked; its nodes. */
function readJsonLd(html: string, where: string): Node[] {
  const document = new DOMParser().parseFromString(html, "text/html");
  const blocks = [
    ...document.querySelectorAll('script[type="application/ld+json"]'),
  ];
  assert.ok(blocks.length > 0, `${where}: no JSON-LD`);
  return blocks.flatMap((block) => {
    const doc = JSON.parse(block.textContent ?? "");
    assert.equal(doc["@context"], "https://schema.org", where);
    const nodes: Node[] = doc["@graph"] ?? [doc];
    for (const node of nodes) checkNode(node, where);
    return nodes;
  });
}

Deno.test("schema.org JSON-LD on the public pages", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });

  await t.step("each attraction page is a TouristAttraction", async () => {
    for (const attraction of SHIPPED.attractions) {
      const path = `/turismo/atractivos/${attraction.slug}`;
      const { html } = await getPage(ctx, path);
      const [node, ...rest] = readJsonLd(html, path);
      assert.equal(rest.length, 0);
      assert.equal(node["@type"], "TouristAttraction");
      assert.equal(node.name, attraction.name);
      assert.equal(node.url, `http://localhost${path}`);
      assert.deepEqual(node.geo, {
        "@type": "GeoCoordinates",
        latitude: attraction.location.lat,
        longitude: attraction.location.lng,
      });
      assert.equal(node.address, attraction.address);
      // Free only when every price the data set gives is zero.
      const prices = Object.values(attraction.cost)
        .filter((p) => typeof p === "object" && p && "amount" in p)
        .map((p) => (p as { amount: number }).amount);
      assert.equal(node.isAccessibleForFree, prices.every((p) => p === 0));
    }
    const plaza = readJsonLd(
      (await getPage(ctx, "/turismo/atractivos/plaza-principal")).html,
      "plaza",
    )[0];
    assert.equal(plaza.isAccessibleForFree, true);
    const museo = readJsonLd(
      (await getPage(ctx, "/turismo/atractivos/museo-nacional-del-tequila"))
        .html,
      "museo",
    )[0];
    assert.equal(museo.isAccessibleForFree, false);
    // Monday 23 November 2026: the museum ("Tu-Su 10:00-17:00") is closed
    // today, open the six days after; its access is "limited".
    assert.deepEqual(
      museo.openingHoursSpecification.slice(0, 2),
      [{
        "@type": "OpeningHoursSpecification",
        dayOfWeek: "https://schema.org/Monday",
        validFrom: "2026-11-23",
        validThrough: "2026-11-23",
        opens: "00:00",
        closes: "00:00",
      }, {
        "@type": "OpeningHoursSpecification",
        dayOfWeek: "https://schema.org/Tuesday",
        validFrom: "2026-11-24",
        validThrough: "2026-11-24",
        opens: "10:00",
        closes: "17:00",
      }],
    );
    assert.equal(museo.openingHoursSpecification.length, 7);
    assert.deepEqual(museo.amenityFeature, {
      "@type": "LocationFeatureSpecification",
      name: "wheelchair",
      value: "limited",
    });
    assert.equal(plaza.openingHoursSpecification[0].closes, "23:59");
  });

  await t.step(
    "the events list has an Event for each event to come",
    async () => {
      const { html } = await getPage(ctx, "/turismo/informacion-practica");
      const nodes = readJsonLd(html, "informacion-practica");
      const upcoming = SHIPPED.events.filter((e) => e.endDate >= "2026-11-23");
      assert.deepEqual(
        nodes.map((n) => n.name).sort(),
        upcoming.map((e) => e.name).sort(),
      );
      const feria = nodes.find((n) => n.name.startsWith("Feria Nacional"))!;
      assert.equal(feria.startDate, "2026-11-28");
      assert.equal(feria.endDate, "2026-12-13");
      assert.equal(feria.location["@type"], "Place");
      assert.ok(feria.location.geo, "the attraction's coordinates");
      assert.equal(feria.eventSchedule, undefined);
      const day = nodes.find((n) =>
        n.name === "Día Nacional del Tequila 2027"
      )!;
      assert.equal(day.startDate, "2027-03-20T11:00:00-06:00");
      assert.equal(day.endDate, "2027-03-20T20:00:00-06:00");
      // A recurring event: its next occurrence, and its rule.
      const market = nodes.find((n) =>
        n.name === "Mercado de productores del valle"
      )!;
      assert.equal(market.startDate, "2026-12-05T09:00:00-06:00");
      assert.equal(market.endDate, "2026-12-05T14:00:00-06:00");
      assert.deepEqual(market.eventSchedule, {
        "@type": "Schedule",
        repeatFrequency: "P1W",
        byDay: ["https://schema.org/Saturday"],
        startDate: "2026-12-05",
        startTime: "09:00:00",
        endTime: "14:00:00",
        scheduleTimezone: "America/Mexico_City",
      });
      const walk = nodes.find((n) => n.name.startsWith("Recorrido nocturno"))!;
      assert.deepEqual(walk.eventSchedule, {
        "@type": "Schedule",
        repeatFrequency: "P1M",
        byDay: ["https://schema.org/Friday"],
        byMonthWeek: 1,
        startDate: "2026-12-04",
        endDate: "2027-06-04",
        startTime: "19:00:00",
        endTime: "21:00:00",
        scheduleTimezone: "America/Mexico_City",
      });
    },
  );

  await t.step("English pages describe in English", async () => {
    const res = await ctx.app.request("/en/turismo/informacion-practica");
    const nodes = readJsonLd(await res.text(), "en");
    assert.ok(nodes.some((n) => n.name === "National Tequila Fair 2026"));
  });

  await t.step(
    "the services page has each provider, typed by its kind",
    async () => {
      const { html } = await getPage(ctx, "/turismo/servicios");
      const nodes = readJsonLd(html, "servicios");
      assert.equal(nodes.length, SHIPPED.providers.length);
      const kinds = { hotel: "Hotel", restaurante: "Restaurant" } as Record<
        string,
        string
      >;
      for (const provider of SHIPPED.providers) {
        const node = nodes.find((n) => n.name === provider.name);
        assert.ok(node, provider.slug);
        assert.equal(node["@type"], kinds[provider.type] ?? "LocalBusiness");
        assert.equal(node.telephone, provider.contact.phone);
        assert.equal(node.address, provider.address);
        assert.equal(
          node.url,
          `http://localhost/turismo/servicios/${provider.slug}`,
        );
      }
    },
  );
});

Deno.test("JSON-LD: a </script> in the data stays inside the JSON", async () => {
  const data = await parseTourismData(mutateShipped((d) => {
    d.attractions[0].name = `Plaza ${HOSTILE}`;
    d.attractions[0].description = `Centro ${HOSTILE}`;
    d.providers[0].name = `Hotel ${HOSTILE}`;
    d.events[1].description = `Feria ${HOSTILE}`;
  }));
  await using ctx = await createTestContext({
    clockStart: NOW,
    data: new DataStore(data, { onWarning: () => {} }),
  });
  for (
    const [path, field, value] of [
      [`/turismo/atractivos/${SHIPPED.attractions[0].slug}`, "name", "Plaza"],
      ["/turismo/servicios", "name", "Hotel"],
      ["/turismo/informacion-practica", "description", "Feria"],
    ]
  ) {
    const { html } = await getPage(ctx, path);
    assert.ok(!html.includes("<script>alert(1)"), `${path}: no script`);
    const nodes = readJsonLd(html, path);
    assert.ok(
      nodes.some((n) => n[field] === `${value} ${HOSTILE}`),
      `${path}: the value reads back whole from the JSON`,
    );
    const block = /<script type="application\/ld\+json">(.*?)<\/script>/s
      .exec(html)![1];
    assert.ok(block.includes("\\u003c/script\\u003e"), path);
  }
});
