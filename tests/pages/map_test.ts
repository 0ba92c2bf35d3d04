/**
 * The maps through the app in process: the map page in both languages (the
 * map island's places and routes, the list of places as links), the map
 * block of an attraction's page and a route page, the tile source from the
 * settings, the Content-Security-Policy that lets only the pages with a map
 * load the tile host's images (also when served from the page cache), the
 * credit as plain text, and the attraction list's "Ordenar por cercanía".
 * What the map does in a browser: tests/browser/map_browser_test.ts.
 */
import assert from "node:assert/strict";
import { saveTicket } from "@/lib/db/tickets.ts";
import {
  CONTENT_SECURITY_POLICY,
  getContentSecurityPolicy,
} from "@/lib/http/security_headers.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  createTestContext,
  getPage,
  randomTicket,
  randomUserId,
  SHIPPED,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";

await ensureBuild();

const TILES = "https://{s}.tiles.example.org/mapa/{z}/{x}/{y}.png";
const TILE_SOURCE = "https://*.tiles.example.org";
const MAP_CSP = getContentSecurityPolicy({ imageSources: [TILE_SOURCE] });

/** An island's props, as the page carries them. */
// deno-lint-ignore no-explicit-any
function readProps(html: string, island: string): any {
  const json = new RegExp(
    `data-island="${island}">.*?<script type="application/json" data-island-props>(.*?)</script>`,
    "s",
  ).exec(html)?.[1];
  assert.ok(json, `no ${island} island`);
  return JSON.parse(json);
}

async function getCsp(ctx: TestContext, path: string): Promise<string> {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  await res.body?.cancel();
  return res.headers.get("content-security-policy")!;
}

Deno.test("GET /turismo/mapa", async (t) => {
  await using ctx = await createTestContext({
    env: { MAP_TILE_URL: TILES, MAP_TILE_ATTRIBUTION: "© Mapas del Estado" },
  });
  const location = new Map(
    SHIPPED.attractions.map((a) => [a.slug, [a.location.lat, a.location.lng]]),
  );

  await t.step(
    "the map island: the 17 places with their pages, the routes through their stops in order, the operator's tiles",
    async () => {
      const { html } = await getPage(ctx, "/turismo/mapa");
      assert.match(html, /<h1>Mapa de Tequila<\/h1>/);
      const props = readProps(html, "PlacesMap");
      assert.deepEqual(
        props.places,
        SHIPPED.attractions.map((a) => ({
          slug: a.slug,
          name: a.name,
          href: `/turismo/atractivos/${a.slug}`,
          lat: a.location.lat,
          lng: a.location.lng,
        })),
      );
      assert.deepEqual(
        props.routes.map((r: { slug: string; stops: unknown }) => [
          r.slug,
          r.stops,
        ]),
        SHIPPED.routes.map((r) => [
          r.slug,
          r.attractions.map((slug) => location.get(slug)),
        ]),
      );
      assert.deepEqual(props.tiles, {
        url: TILES,
        attribution: "© Mapas del Estado",
      });
      assert.match(props.stylesheet, /^\/static\/build\/leaflet-\w{8}\.css$/);
      assert.equal(props.visits, undefined, "the device's stamps are marked");
      assert.match(
        html,
        /<p class="places-map__credit">Mapa: © Mapas del Estado<\/p>/,
      );
      assert.match(html, /aria-label="Mapa interactivo"/);
    },
  );

  await t.step(
    "its text equivalent: every place as a link, with a slot for its stamp, and the routes' stops",
    async () => {
      const { html } = await getPage(ctx, "/turismo/mapa");
      const list = /<ul class="places-list">(.*?)<\/ul>/s.exec(html)![1];
      assert.deepEqual(
        [...list.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [
          m[1],
          m[2],
        ]),
        SHIPPED.attractions.map((a) => [
          `/turismo/atractivos/${a.slug}`,
          a.name.replaceAll("&", "&amp;"),
        ]),
      );
      assert.equal(
        list.match(/data-stamp-slot=/g)?.length,
        SHIPPED.attractions.length,
      );
      assert.match(html, /data-island="StampMarks"/);
      for (const route of SHIPPED.routes) {
        assert.match(html, new RegExp(`id="ruta-${route.slug}"`));
      }
    },
  );

  await t.step("the site's menu links the map in both languages", async () => {
    for (
      const [path, href, label] of [
        ["/", "/turismo/mapa", "Mapa"],
        ["/en/", "/en/turismo/mapa", "Map"],
      ]
    ) {
      const res = await ctx.app.request(path);
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(
        html.includes(`href="${href}"`) && html.includes(`>${label}</a>`),
        `${path}: the menu's link to ${href}`,
      );
    }
  });

  await t.step("in English at /en/turismo/mapa", async () => {
    const res = await ctx.app.request("/en/turismo/mapa");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.match(html, /<html lang="en-US">/);
    assert.match(html, /<h1>Map of Tequila<\/h1>/);
    const props = readProps(html, "PlacesMap");
    assert.equal(props.lang, "en");
    assert.equal(props.messages.showPosition, "Show my location");
    assert.equal(
      props.places[0].href,
      `/en/turismo/atractivos/${SHIPPED.attractions[0].slug}`,
    );
    assert.match(html, /<link rel="canonical" href="[^"]*\/en\/turismo\/mapa"/);
  });
});

Deno.test("the maps' CSP: only a page with a map may load the tile host's images", async (t) => {
  await using ctx = await createTestContext({
    env: { MAP_TILE_URL: TILES },
    cachePages: true,
  });
  const userId = randomUserId();
  const ticket = randomTicket({ userId, name: "Ana" });
  await saveTicket(ctx.deps.kv, ticket);
  await verifyVisits(ctx, userId, 2);
  const withMap = [
    "/turismo/mapa",
    "/en/turismo/mapa",
    `/turismo/atractivos/${SHIPPED.attractions[0].slug}`,
    `/ruta/${ticket.shareCode}`,
  ];

  await t.step(
    "the map page, an attraction's page and a route page allow it in img-src, nothing more",
    async () => {
      for (const path of withMap) {
        assert.equal(await getCsp(ctx, path), MAP_CSP, path);
      }
      assert.match(
        MAP_CSP,
        /img-src 'self' data: https:\/\/\*\.tiles\.example\.org;/,
      );
      // Every other directive as on any page.
      assert.equal(
        MAP_CSP.replace(` ${TILE_SOURCE}`, ""),
        CONTENT_SECURITY_POLICY,
      );
    },
  );

  await t.step(
    "served again from the page cache, the same policy",
    async () => {
      for (const path of withMap) {
        assert.equal(await getCsp(ctx, path), MAP_CSP, `${path} (cached)`);
      }
    },
  );

  await t.step("pages without a map keep this origin only", async () => {
    for (const path of ["/", "/turismo/atractivos", "/turismo/servicios"]) {
      assert.equal(await getCsp(ctx, path), CONTENT_SECURITY_POLICY, path);
    }
  });

  await t.step(
    "a route page marks its owner's visits, by name; an attraction page centres on itself",
    async () => {
      const route = readProps(
        (await getPage(ctx, `/ruta/${ticket.shareCode}`)).html,
        "PlacesMap",
      );
      assert.deepEqual(route.visits, {
        person: "Ana",
        slugs: SHIPPED.attractions.slice(0, 2).map((a) => a.slug),
      });
      const slug = SHIPPED.attractions[3].slug;
      const page = readProps(
        (await getPage(ctx, `/turismo/atractivos/${slug}`)).html,
        "PlacesMap",
      );
      assert.equal(page.focus, slug);
      assert.equal(page.places.length, SHIPPED.attractions.length);
    },
  );
});

Deno.test("the tiles' credit is text, never markup", async () => {
  await using ctx = await createTestContext({
    env: { MAP_TILE_ATTRIBUTION: `<img src=x onerror=alert(1)> & Co` },
  });
  const { html } = await getPage(ctx, "/turismo/mapa");
  assert.ok(!html.includes("<img src=x"), "no raw img");
  assert.match(
    html,
    /places-map__credit">Mapa: &lt;img src=x onerror=alert\(1\)> &amp; Co</,
  );
  assert.equal(
    readProps(html, "PlacesMap").tiles.attribution,
    "<img src=x onerror=alert(1)> & Co",
  );
});

Deno.test("GET /turismo/atractivos: «Ordenar por cercanía»", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "the NearestFirst island knows every card's place; each card has an empty distance slot",
    async () => {
      const { html } = await getPage(ctx, "/turismo/atractivos");
      const props = readProps(html, "NearestFirst");
      assert.deepEqual(
        props.places,
        SHIPPED.attractions.map((a) => ({
          slug: a.slug,
          lat: a.location.lat,
          lng: a.location.lng,
        })),
      );
      assert.equal(props.messages.sortNearest, "Ordenar por cercanía");
      assert.equal(props.messages.away, "a {distance}");
      assert.deepEqual(
        Object.keys(props.messages).filter((key) =>
          !key.startsWith("sort") && key !== "away"
        ),
        [],
        "only its own words",
      );
      assert.deepEqual(
        [...html.matchAll(/data-distance-slot="([^"]+)"><\/p>/g)].map((m) =>
          m[1]
        ),
        SHIPPED.attractions.map((a) => a.slug),
      );
      assert.match(html, /<a href="\/turismo\/mapa">Ver todos en el mapa<\/a>/);
    },
  );

  await t.step("a category's list: only its places", async () => {
    const { html } = await getPage(ctx, "/turismo/atractivos?categoria=museo");
    const museums = SHIPPED.attractions.filter((a) => a.category === "museo");
    assert.deepEqual(
      readProps(html, "NearestFirst").places.map((p: { slug: string }) =>
        p.slug
      ),
      museums.map((a) => a.slug),
    );
  });
});
