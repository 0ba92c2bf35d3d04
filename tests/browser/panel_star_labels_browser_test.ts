/**
 * The attraction page's chart of ratings by stars in headless Chromium at
 * an office screen's width (1366 px): its column labels are laid out
 * apart, none overlapping the next (issue 41: they ran together as "1
 * estrella2 estrellas3 estrella…"). Measured on the chart as drawn, in
 * the layout the page shows.
 */
import assert from "node:assert/strict";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { browserSkipReason, startBrowserApp, watchPage } from "../browser.ts";
import { SHIPPED, signInStaff } from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Friday 27 November 2026, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2026-11-27T18:00:00Z");
const SLUG = SHIPPED.attractions[0].slug;

Deno.test({
  name: "the star chart's labels never overlap at 1366 px",
  ignore: browserSkipReason !== undefined,
  async fn() {
    await using app = await startBrowserApp({ clockStart: NOW });
    const { ctx, origin, browser } = app;
    const { kv } = ctx.deps;
    for (const rating of [1, 2, 3, 4, 5, 5, 4]) {
      const userId = crypto.randomUUID();
      await recordVisit(kv, {
        userId,
        slug: SLUG,
        now: NOW,
        totalAttractions: 17,
        timeZone: TZ,
      });
      await rateVisit(kv, {
        userId,
        slug: SLUG,
        rating,
        notes: null,
        now: NOW,
        timeZone: TZ,
      });
    }
    const cookie = await signInStaff(ctx, { role: "viewer" });
    const [name, value] = cookie.split("=");
    for (const width of [1366, 390]) {
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: { width, height: 800 },
      });
      await context.addCookies([{ name, value, url: origin }]);
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      await page.goto(`${origin}/panel/atractivos/${SLUG}`);
      const boxes = await page.evaluate(() => {
        const section = document.querySelector(
          'section[aria-labelledby="grafica-calificaciones"]',
        )!;
        const svg = [...section.querySelectorAll("svg[role=img]")].find(
          (element) => element.getBoundingClientRect().width > 0,
        )!;
        const plot = svg.getBoundingClientRect();
        // The column labels: the text below the plot's middle, left of
        // nothing else (the count axis's numbers stand at its left edge).
        return [...svg.querySelectorAll("text")]
          .map((text) => {
            const box = text.getBoundingClientRect();
            return {
              text: text.textContent ?? "",
              left: box.left,
              right: box.right,
              top: box.top,
              bottom: box.bottom,
            };
          })
          .filter((box) =>
            box.right > box.left && box.top > plot.top + plot.height * 0.8
          )
          .sort((a, b) => a.left - b.left);
      });
      assert.ok(boxes.length >= 3, `${width}: ${JSON.stringify(boxes)}`);
      for (let i = 1; i < boxes.length; i++) {
        const [a, b] = [boxes[i - 1], boxes[i]];
        const apart = a.right <= b.left || a.bottom <= b.top ||
          b.bottom <= a.top;
        assert.ok(
          apart,
          `${width} px: «${a.text}» (${a.left}–${a.right}) overlaps «${b.text}» (${b.left}–${b.right})`,
        );
      }
      assert.deepEqual(watch.problems, [], `${width} px`);
      await context.close();
    }
  },
});
