/**
 * The attraction list's "Abierto ahora" and "Accesible en silla de ruedas"
 * filters on a 390 px phone in headless Chromium: links a thumb can press,
 * each card saying its state in words, the filters adding up; then an
 * attraction's page with its line, days' table and access facts. Axe
 * finds nothing on either. Skipped, with the reason printed, when Chromium is
 * missing.
 */
import assert from "node:assert/strict";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";

/** Wednesday 2 December 2026, 17:30 in Tequila (UTC-6). */
const WEDNESDAY_EVENING = new Date("2026-12-02T23:30:00Z");

Deno.test({
  name:
    "attraction list at 390 px: the open-now and wheelchair filters, with each card's state",
  ignore: browserSkipReason !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using app = await startBrowserApp({
      clockStart: WEDNESDAY_EVENING,
    });
    const { origin, browser } = app;
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
      bypassCSP: true, // for axe only
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    await page.goto(`${origin}/turismo/atractivos`);
    const cards = page.locator(".grid .card");
    assert.equal(await cards.count(), 17);

    const open = page.getByRole("link", { name: "Abierto ahora" });
    const box = await open.boundingBox();
    assert.ok(box && box.height >= 24 && box.x + box.width <= PHONE.width);
    await open.click();
    await page.waitForURL(/\?abierto=1$/);
    assert.equal(await open.getAttribute("aria-current"), "page");
    // At 17:30: the two 24/7 places, the church (20:00), the cultural
    // centre and the chapel (19:00), the lookout (18:30), the springs (18:00).
    assert.equal(await cards.count(), 7);
    const lines = await page.locator(".grid .card .hours-now").allInnerTexts();
    assert.equal(lines.length, 7);
    for (const line of lines) {
      assert.match(
        line.trim(),
        /^(Abierto ahora · cierra a las \d+:\d\d|Abierto las 24 horas)$/,
      );
    }
    assert.match(
      await page.getByRole("status").innerText(),
      /7 atractivos/,
    );

    await page.getByRole("link", { name: "Accesible en silla de ruedas" })
      .click();
    await page.waitForURL(/\?abierto=1&accesible=1$/);
    assert.deepEqual(
      await page.locator(".grid .card .card__link").allInnerTexts(),
      [
        "Plaza Principal de Tequila",
        "Parroquia de Santiago Apóstol",
        "Casa de la Cultura de Tequila",
      ],
    );
    // Nothing wider than the phone.
    const width = await page.evaluate(() =>
      document.documentElement.scrollWidth
    );
    assert.ok(width <= PHONE.width, `${width} px wide`);
    await assertAxeClean(page, "list filtered by open now and wheelchair");
    await saveScreenshot(page, "hours-filter-390");

    // Pressed again, a filter is taken off.
    await page.getByRole("link", { name: "Abierto ahora" }).click();
    await page.waitForURL(/\?accesible=1$/);
    assert.equal(await cards.count(), 4);

    // An attraction's page: the line in its header, the days' table and
    // the access facts, each readable (axe: contrast, table headers).
    await page.goto(`${origin}/turismo/atractivos/balneario-termal-la-vega`);
    assert.equal(
      (await page.locator(".page-head .hours-now").innerText()).trim(),
      "Abierto ahora · cierra a las 18:00",
    );
    assert.equal(
      await page.getByRole("table", { name: "Horario de los próximos 7 días" })
        .getByRole("row").count(),
      8,
    );
    assert.match(
      await page.locator(".access-facts").innerText(),
      /Acceso limitado en silla de ruedas\s+Entrada sin escalones\s+Sanitario accesible/,
    );
    await assertAxeClean(page, "attraction page with its hours and access");
    await saveScreenshot(page, "hours-attraction-390");

    // A page kept for offline use outlives its line: the browser hides
    // the line at the minute it stops holding (18:00), leaving the table.
    const later = await context.newPage();
    await later.clock.install({ time: new Date("2026-12-02T23:59:58Z") });
    await later.goto(`${origin}/turismo/atractivos/balneario-termal-la-vega`);
    const line = later.locator(".page-head .hours-now");
    assert.equal(await line.isVisible(), true);
    await later.clock.runFor(2_500);
    await line.waitFor({ state: "hidden" });
    assert.equal(await later.locator(".hours-table").isVisible(), true);
    assert.deepEqual(watch.problems, []);
    await context.close();
  },
});
