/**
 * The maps in headless Chromium at a phone's width, with the tiles from a
 * loopback tile server that `MAP_TILE_URL` points at (the page's CSP kept
 * on, so the tiles load only because it allows that host): the map page
 * shows the 17 attractions as named, focusable markers and the routes as
 * lines; a stamp collected on the device is marked on its marker; the
 * tourist's position appears only when they ask; the attraction list sorts
 * by distance from a granted position, each card saying how far; with the
 * network off the map page says the map needs a connection and its list of
 * places is there. Axe finds nothing on the map page, an attraction's page,
 * the list sorted and a route page. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { saveTicket } from "@/lib/db/tickets.ts";
import { formatDistance } from "@/lib/format/format.ts";
import { haversineKm } from "@/lib/geo/geo.ts";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  saveScreenshot,
  startBrowserApp,
  waitUntilKeptOffline,
  watchPage,
} from "../browser.ts";
import { serveTiles } from "../map_tiles.ts";
import {
  randomTicket,
  randomUserId,
  SHIPPED,
  verifyVisits,
} from "../test_utils.ts";

const [FIRST] = SHIPPED.attractions;
/** Where the tourist stands: by the Mirador, away from the centre. */
const MIRADOR = SHIPPED.attractions.find((a) =>
  a.slug === "mirador-paisaje-agavero"
)!;
const HERE = {
  latitude: MIRADOR.location.lat,
  longitude: MIRADOR.location.lng,
};

/** Waits until the map has drawn its markers, and returns their names. */
async function readMarkers(page: Page): Promise<string[]> {
  await page.locator(".places-map__canvas .map-marker").first().waitFor();
  return await page.locator(".places-map__canvas .map-marker").evaluateAll(
    (markers) => markers.map((m) => m.getAttribute("aria-label") ?? ""),
  );
}

/** The attraction list's cards: name and distance line, in page order. */
function readCards(page: Page): Promise<{ name: string; distance: string }[]> {
  return page.locator("article.card").evaluateAll((cards) =>
    cards.map((card) => ({
      name: card.querySelector(".card__title")?.textContent?.trim() ?? "",
      distance: card.querySelector(".card__distance")?.textContent?.trim() ??
        "",
    }))
  );
}

Deno.test({
  name:
    "the maps in Chromium: 17 markers, tiles from the configured host, a stamp marked, position on request, the list by distance, offline, axe at zero",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using tiles = serveTiles();
    await using app = await startBrowserApp({
      env: { MAP_TILE_URL: tiles.url },
    });
    const { origin, browser, ctx } = app;

    /** A tourist's phone that lets the portal know where it is. */
    async function openPhone(
      { bypassCSP = false } = {},
    ): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
        bypassCSP,
        permissions: ["geolocation"],
        geolocation: { ...HERE, accuracy: 20 },
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin, { tiles: tiles.origin });
      // Offline, Chromium logs the failed attempts (tiles, the page).
      watch.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch/);
      return { context, page, problems: watch.problems };
    }

    // The page's CSP is on: the tiles load only because it names their host.
    const phone = await openPhone();
    const { page, context } = phone;

    await t.step(
      "the map page: 17 named markers, the routes' lines, tiles from the loopback server allowed by the CSP",
      async () => {
        const res = await page.goto(`${origin}/turismo/mapa`);
        assert.equal(res?.status(), 200);
        const csp = res!.headers()["content-security-policy"];
        assert.match(csp, new RegExp(`img-src 'self' data: ${tiles.origin};`));
        const names = await readMarkers(page);
        assert.deepEqual(
          names.toSorted(),
          SHIPPED.attractions.map((a) => a.name).toSorted(),
        );
        await page.locator(".places-map__canvas img.leaflet-tile-loaded")
          .first().waitFor();
        const sources = await page.locator(".places-map__canvas img")
          .evaluateAll((images) =>
            images.map((i) => (i as HTMLImageElement).src)
          );
        assert.ok(sources.length > 0);
        for (const src of sources) {
          assert.ok(src.startsWith(`${tiles.origin}/`), src);
        }
        assert.ok(tiles.served.length > 0, "the tile server was asked");
        assert.equal(
          await page.locator(".places-map__canvas path.map-route").count(),
          SHIPPED.routes.length,
        );
        // The credit the tile source asks for, under the map.
        assert.equal(
          await page.locator(".places-map__credit").innerText(),
          "Mapa: © OpenStreetMap contributors",
        );
        // Its text equivalent: every place with a link to its page.
        assert.equal(
          await page.locator(".places-list a").count(),
          SHIPPED.attractions.length,
        );
        assert.equal(
          await page.getByRole("region", { name: "Mapa interactivo" })
            .count(),
          1,
        );
        assert.deepEqual(phone.problems, []);
      },
    );

    await t.step(
      "a stamp collected on the passport is marked on its marker, in words",
      async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        await page.getByLabel("Código del atractivo").fill(FIRST.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await page.locator(".verify-result")
          .getByText(`¡Visita registrada: ${FIRST.name}!`).waitFor();
        await page.goto(`${origin}/turismo/mapa`);
        await page.locator(".map-marker--marked").waitFor();
        const marked = await page.locator(".map-marker--marked").evaluateAll(
          (markers) => markers.map((m) => m.getAttribute("aria-label")),
        );
        assert.deepEqual(marked, [`${FIRST.name}: sellado en tu pasaporte`]);
        assert.equal(await page.locator(".map-marker").count(), 17);
        // The list says so too (the StampMarks island).
        await page.locator(".places-list .stamp-mark").waitFor();
        assert.match(
          await page.locator(".places-list li", { hasText: FIRST.name })
            .innerText(),
          /Sellado/,
        );
        await page.locator(".places-map").scrollIntoViewIfNeeded();
        await saveScreenshot(page, "map-page", { fullPage: false });
      },
    );

    await t.step(
      "by keyboard: a marker is a named button; Enter opens its bubble with the focus on its link",
      async () => {
        const marker = page.getByRole("button", {
          name: `${FIRST.name}: sellado en tu pasaporte`,
        });
        await marker.focus();
        await page.keyboard.press("Enter");
        const link = page.locator(".map-bubble__link");
        await link.waitFor();
        assert.equal(await link.innerText(), `Ver ${FIRST.name}`);
        assert.equal(
          await link.evaluate((el) => el === document.activeElement),
          true,
        );
        assert.equal(
          await link.getAttribute("href"),
          `/turismo/atractivos/${FIRST.slug}`,
        );
        assert.match(
          await page.locator(".map-bubble").innerText(),
          /Sellado en tu pasaporte/,
        );
        await page.keyboard.press("Escape");
        await link.waitFor({ state: "detached" });
      },
    );

    await t.step(
      "the tourist's position only after «Mostrar mi ubicación»",
      async () => {
        assert.equal(await page.locator(".map-you").count(), 0);
        await page.getByRole("button", { name: "Mostrar mi ubicación" })
          .click();
        await page.locator(".map-you").waitFor();
        await page.getByText("Tu ubicación aparece en el mapa").waitFor();
        await page.getByRole("button", { name: "Ocultar mi ubicación" })
          .click();
        await page.locator(".map-you").waitFor({ state: "detached" });
      },
    );

    await t.step(
      "an attraction's page: the same map, centred on it and saying which it is",
      async () => {
        await page.goto(`${origin}/turismo/atractivos/${MIRADOR.slug}`);
        const names = await readMarkers(page);
        assert.equal(names.length, 17);
        assert.equal(
          await page.locator(".map-marker--here").getAttribute("aria-label"),
          `${MIRADOR.name} (este atractivo)`,
        );
        assert.deepEqual(phone.problems, []);
      },
    );

    await t.step(
      "the attraction list: the usual order, then «Ordenar por cercanía» puts the nearest first with its distance",
      async () => {
        await page.goto(`${origin}/turismo/atractivos`);
        const usual = await readCards(page);
        assert.deepEqual(
          usual.map((c) => c.name),
          SHIPPED.attractions.map((a) => a.name),
        );
        assert.ok(usual.every((c) => c.distance === ""));
        await page.getByRole("button", { name: "Ordenar por cercanía" })
          .click();
        await page.getByText("Ordenados del más cercano al más lejano")
          .waitFor();
        const here = { lat: HERE.latitude, lng: HERE.longitude };
        const expected = SHIPPED.attractions
          .map((a) => ({ a, km: haversineKm(here, a.location) }))
          .sort((x, y) => x.km - y.km);
        const sorted = await readCards(page);
        assert.deepEqual(
          sorted.map((c) => c.name),
          expected.map(({ a }) => a.name),
        );
        assert.deepEqual(
          sorted.map((c) => c.distance),
          expected.map(({ km }) => `a ${formatDistance(km, "es")}`),
        );
        assert.equal(sorted[0].name, MIRADOR.name);
        await saveScreenshot(page, "attractions-by-distance", {
          fullPage: false,
        });
        await page.getByRole("button", { name: "Orden habitual" }).click();
        assert.deepEqual(
          (await readCards(page)).map((c) => c.name),
          SHIPPED.attractions.map((a) => a.name),
        );
        assert.deepEqual(phone.problems, []);
      },
    );

    await t.step(
      "offline: the map page says the map needs a connection, and its list of places is there",
      async () => {
        await page.goto(`${origin}/turismo/mapa`);
        await waitUntilKeptOffline(page);
        await context.setOffline(true);
        try {
          await page.goto(`${origin}/turismo/mapa`);
          await page.getByText(
            "El mapa necesita conexión a internet para mostrar las calles.",
          ).waitFor();
          const links = await page.locator(".places-list a").evaluateAll(
            (as) => as.map((a) => a.getAttribute("href")),
          );
          assert.deepEqual(
            links,
            SHIPPED.attractions.map((a) => `/turismo/atractivos/${a.slug}`),
          );
          await page.locator(".places-map__status").scrollIntoViewIfNeeded();
          await saveScreenshot(page, "map-page-offline", { fullPage: false });
        } finally {
          await context.setOffline(false);
        }
      },
    );
    await context.close();

    await t.step(
      "axe at zero: the map page, an attraction's page, the list sorted, a route page",
      async () => {
        const userId = randomUserId();
        const ticket = await saveTicket(
          ctx.deps.kv,
          randomTicket({ name: "María José Hernández", userId }),
        );
        await verifyVisits(ctx, userId, 3);
        const audit = await openPhone({ bypassCSP: true });
        const p = audit.page;
        await p.goto(`${origin}/turismo/mapa`);
        await readMarkers(p);
        await assertAxeClean(p, "map page");
        await p.goto(`${origin}/turismo/atractivos/${FIRST.slug}`);
        await readMarkers(p);
        await assertAxeClean(p, "attraction page with its map");
        await p.goto(`${origin}/turismo/atractivos`);
        await p.getByRole("button", { name: "Ordenar por cercanía" }).click();
        await p.getByText("Ordenados del más cercano al más lejano").waitFor();
        await assertAxeClean(p, "attraction list sorted by distance");
        await p.goto(`${origin}/ruta/${ticket.shareCode}`);
        await readMarkers(p);
        assert.deepEqual(
          await p.locator(".map-marker--marked").evaluateAll((markers) =>
            markers.map((m) => m.getAttribute("aria-label"))
          ),
          SHIPPED.attractions.slice(0, 3).map((a) =>
            `${a.name}: visitado por María José Hernández`
          ),
        );
        await assertAxeClean(p, "route page with its map");
        await p.goto(`${origin}/en/turismo/mapa`);
        await readMarkers(p);
        await assertAxeClean(p, "the map page in English");
        assert.deepEqual(audit.problems, []);
        await audit.context.close();
      },
    );
  },
});
