/**
 * The services directory in headless Chromium at a phone's width: the day's
 * order and its disclosure, the kind filter (plain links), "Usar mi
 * ubicación" with geolocation granted (nearest first, distances shown) and
 * refused, a nav that fits 390 px, no console error and no request leaving
 * the app. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { formatDistance } from "@/lib/format/format.ts";
import {
  browserSkipReason,
  PHONE,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { distanceKm, SHIPPED } from "../test_utils.ts";

/** A visitor by the Casa de la Cultura (4 decimals, as the page sends them). */
const VISITOR = { latitude: 20.8845, longitude: -103.839 };
const RESTAURANTS = SHIPPED.providers.filter((p) => p.type === "restaurante");

Deno.test({
  name:
    "GET /turismo/servicios in Chromium at 390 px: filter, share the location, nearest first",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp({
      clockStart: new Date("2026-11-22T18:00:00Z"),
    });
    const { origin, browser } = app;
    const context = await browser.newContext({
      viewport: PHONE,
      locale: "es-MX",
      geolocation: VISITOR,
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    const names = () => page.locator(".provider__name").allInnerTexts();

    await t.step(
      "the directory lists all 11 in the day's order and says why",
      async () => {
        await page.goto(`${origin}/turismo/servicios`);
        assert.equal((await names()).length, SHIPPED.providers.length);
        await page.getByText("El orden cambia cada día para dar a todos")
          .waitFor();
        await page.getByRole("button", { name: "Usar mi ubicación" })
          .waitFor(); // Shown once hydrated.
        assert.equal(await page.locator(".provider__distance").count(), 0);
        // Nothing is wider than the phone, the menu included.
        assert.equal(
          await page.evaluate(() =>
            document.documentElement.scrollWidth <= innerWidth
          ),
          true,
        );
        for (const label of ["Servicios", "Información práctica"]) {
          await page.getByRole("navigation", { name: "Principal" })
            .getByRole("link", { name: label }).waitFor();
        }
      },
    );

    await t.step(
      "the filter is a plain link to ?tipo=restaurante",
      async () => {
        await page.getByRole("link", { name: "Restaurantes (4)" }).click();
        await page.waitForURL(`${origin}/turismo/servicios?tipo=restaurante`);
        assert.deepEqual(
          [...await names()].sort(),
          RESTAURANTS.map((p) => p.name).sort(),
        );
        assert.equal(
          await page.getByRole("link", { name: "Restaurantes (4)" })
            .getAttribute("aria-current"),
          "page",
        );
      },
    );

    await t.step(
      "with the location granted, the nearest comes first with its distance",
      async () => {
        await context.grantPermissions(["geolocation"], { origin });
        await page.getByRole("button", { name: "Usar mi ubicación" })
          .click();
        await page.waitForURL(
          `${origin}/turismo/servicios?tipo=restaurante&cerca=${VISITOR.latitude},${VISITOR.longitude}#lista`,
        );
        const here = { lat: VISITOR.latitude, lng: VISITOR.longitude };
        const expected = RESTAURANTS
          .map((p) => ({ p, km: distanceKm(here, p.location) }))
          .sort((a, b) => a.km - b.km);
        assert.deepEqual(await names(), expected.map(({ p }) => p.name));
        assert.deepEqual(
          await page.locator(".provider__distance strong").allInnerTexts(),
          expected.map(({ km }) => formatDistance(km)),
        );
        await page.getByText("Ordenados por distancia desde tu ubicación")
          .waitFor();
        await page.getByRole("button", { name: "Actualizar mi ubicación" })
          .waitFor();
        await saveScreenshot(page, "services-phone");
        // The README's picture: every kind by distance, from the filters down.
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.goto(
          `${origin}/turismo/servicios?cerca=${VISITOR.latitude},${VISITOR.longitude}`,
        );
        await page.locator(".filters").evaluate((el) =>
          scrollTo(0, el.getBoundingClientRect().top + scrollY - 32)
        );
        await saveScreenshot(page, "services", { fullPage: false });
        await page.setViewportSize(PHONE);
      },
    );

    await t.step(
      "'Quitar mi ubicación' goes back to the day's order",
      async () => {
        await page.goto(
          `${origin}/turismo/servicios?tipo=restaurante&cerca=${VISITOR.latitude},${VISITOR.longitude}`,
        );
        await page.getByRole("link", { name: "Quitar mi ubicación" }).click();
        await page.waitForURL(`${origin}/turismo/servicios?tipo=restaurante`);
        assert.equal(await page.locator(".provider__distance").count(), 0);
      },
    );

    await t.step("a refused location says so and stays put", async () => {
      const refused = await browser.newContext({
        viewport: PHONE,
        locale: "es-MX",
      });
      const other = await refused.newPage();
      const watchOther = watchPage(other, origin);
      await other.goto(`${origin}/turismo/servicios`);
      await other.getByRole("button", { name: "Usar mi ubicación" }).click();
      await other.getByText("No pudimos obtener tu ubicación").waitFor();
      assert.equal(new URL(other.url()).search, "");
      await refused.close();
      assert.deepEqual(watchOther.problems, []);
    });

    assert.deepEqual(watch.problems, []);
    assert.deepEqual(watch.dialogs, []);
  },
});
