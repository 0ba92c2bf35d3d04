/**
 * The console's page of one attraction in headless Chromium, on a known
 * history: on a phone it does not scroll sideways, axe finds nothing, and
 * the dashboard's attraction links lead to it; the menu's list of
 * attractions (`/panel/atractivos`) leads to each, axe clean. Also saves the screenshots
 * docs/STAFF.md shows (test-output/screenshots/panel-*-shot-*.png).
 */
import assert from "node:assert/strict";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import {
  assertAxeClean,
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED, signInStaff } from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Friday 27 November 2026, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2026-11-27T18:00:00Z");
const DESKTOP = { width: 1280, height: 800 };
const SLUGS = SHIPPED.attractions.map((a) => a.slug);
const NOTES = [
  "Muy bonita de noche, con mucho ambiente.",
  "La guía nos explicó la historia del templo.",
  "Había mucha gente, pero valió la pena.",
];

Deno.test({
  name: "GET /panel/atractivos and /:slug in Chromium: a phone's width, axe",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp({ clockStart: NOW });
    const { ctx, origin, browser } = app;
    const { kv } = ctx.deps;
    // 30 days of visits, more at the plaza and at weekends, a few rated.
    for (let day = 0; day < 30; day++) {
      const at = new Date(NOW.getTime() - day * 86_400_000);
      const weekend = [0, 6].includes(at.getUTCDay());
      for (const [i, slug] of SLUGS.slice(0, 6).entries()) {
        const visits = Math.max(0, (weekend ? 5 : 2) - i + (day % 3));
        for (let n = 0; n < visits; n++) {
          const userId = crypto.randomUUID();
          const now = new Date(at.getTime() - (n % 8) * 3_600_000);
          await recordVisit(kv, {
            userId,
            slug,
            now,
            totalAttractions: 17,
            timeZone: TZ,
          });
          if ((n + day) % 3 === 0) {
            await rateVisit(kv, {
              userId,
              slug,
              rating: 5 - ((n + day + i) % 4 === 0 ? 2 : (n + i) % 2),
              notes: slug === SLUGS[0] && n === 0 && day < 9 && day % 3 === 0
                ? NOTES[day / 3]
                : null,
              now: new Date(now.getTime() + 3_600_000),
              timeZone: TZ,
            });
          }
        }
      }
    }
    const cookie = await signInStaff(ctx, { role: "admin" });
    const [name, value] = cookie.split("=");
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: DESKTOP,
      bypassCSP: true,
    });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    const path = `/panel/atractivos/${SLUGS[0]}`;

    await t.step(
      "the dashboard's attraction links, in sight beside the chart, lead to its page",
      async () => {
        await page.goto(`${origin}/panel`);
        await saveScreenshot(page, "panel-dashboard-shot-desktop", {
          fullPage: false,
        });
        const links = page.getByRole("navigation", {
          name: "Páginas de los atractivos",
        });
        assert.equal(await links.getByRole("link").count(), SLUGS.length);
        await links.getByRole("link", { name: SHIPPED.attractions[0].name })
          .click();
        await page.waitForURL(`${origin}${path}?**`);
        await page.getByRole("heading", {
          level: 1,
          name: SHIPPED.attractions[0].name,
        }).waitFor();
        await saveScreenshot(page, "panel-attraction-shot-desktop", {
          fullPage: false,
        });
      },
    );

    await t.step("on a phone: no sideways scroll, axe at zero", async () => {
      await page.setViewportSize(PHONE);
      await page.goto(`${origin}/panel`);
      await saveScreenshot(page, "panel-dashboard-shot-phone", {
        fullPage: false,
      });
      await page.goto(`${origin}${path}`);
      const width = await page.evaluate(() =>
        document.documentElement.scrollWidth
      );
      assert.ok(width <= PHONE.width, `page ${width}px wide`);
      assert.ok(await page.getByText(NOTES[0]).isVisible());
      const violations = await runAxe(page);
      assert.deepEqual(violations, [], describeViolations(violations));
      await saveScreenshot(page, "panel-attraction-shot-phone", {
        fullPage: false,
      });
    });

    await t.step(
      "the menu's Atractivos lists every attraction, leads to each, axe at zero",
      async () => {
        await page.setViewportSize(DESKTOP);
        await page.goto(`${origin}/panel`);
        await page.getByRole("navigation", { name: "Panel" })
          .getByRole("link", { name: "Atractivos" }).click();
        await page.waitForURL(`${origin}/panel/atractivos`);
        const table = page.getByRole("table");
        assert.equal(
          await table.getByRole("rowheader").getByRole("link").count(),
          SLUGS.length,
        );
        await assertAxeClean(page, "the list on a desktop");
        await page.setViewportSize(PHONE);
        const width = await page.evaluate(() =>
          document.documentElement.scrollWidth
        );
        assert.ok(width <= PHONE.width, `list ${width}px wide`);
        await assertAxeClean(page, "the list on a phone");
        await table.getByRole("link", { name: SHIPPED.attractions[1].name })
          .click();
        await page.getByRole("heading", {
          level: 1,
          name: SHIPPED.attractions[1].name,
        }).waitFor();
      },
    );

    assert.deepEqual(watch.problems, []);
  },
});
