/**
 * The staff dashboard's figures at a glance, in headless Chromium, on a
 * known history written through the service's own writers with a moved
 * clock: the headline figures of a week against the week before, a quick
 * range that sets the dates and the figures, Spanish month names on the
 * charts, no overlapping tick labels, and a phone's width without
 * horizontal scrolling and with chart text of 12 px or more.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createSession } from "@/lib/db/sessions.ts";
import { recordChatOutcome } from "@/lib/db/stats.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import {
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED, signInStaff, type TestContext } from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Friday 27 November 2026, 12:00 in the municipality (UTC-6). */
const NOW = new Date("2026-11-27T18:00:00Z");
const DESKTOP = { width: 1280, height: 900 };
const [PLAZA, MERCADO] = SHIPPED.attractions.map((a) => a.slug);

/** 12:00 in the municipality on `day` (`YYYY-MM-DD`), plus `hours`. */
function noon(day: string, hours = 0): Date {
  return new Date(Date.parse(`${day}T18:00:00Z`) + hours * 3_600_000);
}

/**
 * The week of 21 to 27 November: 6 visits (5 first stamps), a guest
 * passport, 2 answered questions, ratings 5 and 4. The week before, 14 to
 * 20 November: 2 visits (2 first stamps), no passport, 4 answered.
 */
async function seedHistory(ctx: TestContext) {
  const { kv } = ctx.deps;
  const visit = (userId: string, slug: string, now: Date) =>
    recordVisit(kv, { userId, slug, now, totalAttractions: 17, timeZone: TZ });
  const users = Array.from({ length: 5 }, () => crypto.randomUUID());
  for (const _ of [1, 2]) {
    await visit(crypto.randomUUID(), PLAZA, noon("2026-11-16"));
  }
  for (const _ of [1, 2, 3, 4]) {
    await recordChatOutcome(kv, {
      outcome: "answered",
      at: noon("2026-11-15"),
      timeZone: TZ,
    });
  }
  for (const userId of users.slice(0, 4)) {
    await visit(userId, PLAZA, noon("2026-11-25"));
  }
  await createSession(kv, {
    userId: crypto.randomUUID(),
    name: null,
    now: noon("2026-11-25"),
    ttlMs: 86_400_000,
    guest: true,
    timeZone: TZ,
  });
  await visit(users[0], MERCADO, noon("2026-11-26"));
  for (const _ of [1, 2]) {
    await recordChatOutcome(kv, {
      outcome: "answered",
      at: noon("2026-11-26"),
      timeZone: TZ,
    });
  }
  for (const [i, rating] of [5, 4].entries()) {
    await rateVisit(kv, {
      userId: users[i],
      slug: PLAZA,
      rating,
      notes: null,
      now: noon("2026-11-26", 1),
      timeZone: TZ,
    });
  }
  await visit(users[4], PLAZA, noon("2026-11-27", -2));
}

/** The headline figures as shown: label, value and comparison, by label. */
async function readHeadlines(
  page: Page,
): Promise<Record<string, { value: string; comparison: string }>> {
  const cards = page.getByRole("region", { name: /^Cifras/ })
    .getByRole("listitem");
  const figures: Record<string, { value: string; comparison: string }> = {};
  for (const card of await cards.all()) {
    const label = await card.getByRole("heading").innerText();
    figures[label] = {
      value: await card.locator(".headline__value").innerText(),
      comparison: (await card.locator(".headline__comparison").innerText())
        .replace(/\s+/g, " ").trim(),
    };
  }
  return figures;
}

/** Pairs of the shown chart's texts whose boxes overlap. */
function findOverlaps(page: Page, chartId: string): Promise<string[]> {
  return page.evaluate((id) => {
    const svg = [...document.querySelectorAll(`#${id} ~ figure svg`)]
      .find((s) => (s as SVGElement).getBoundingClientRect().width > 0)!;
    const texts = [...svg.querySelectorAll("text")]
      .filter((t) => t.textContent?.trim())
      .map((t) => ({ text: t.textContent!, box: t.getBoundingClientRect() }));
    const overlaps: string[] = [];
    for (const [i, a] of texts.entries()) {
      for (const b of texts.slice(i + 1)) {
        if (
          a.box.left < b.box.right - 0.5 && b.box.left < a.box.right - 0.5 &&
          a.box.top < b.box.bottom - 0.5 && b.box.top < a.box.bottom - 0.5
        ) overlaps.push(`${a.text} / ${b.text}`);
      }
    }
    return overlaps;
  }, chartId);
}

Deno.test({
  name: "GET /panel in Chromium: headline figures, quick ranges, charts",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp({ clockStart: NOW });
    const { ctx, origin, browser } = app;
    await seedHistory(ctx);
    const cookie = await signInStaff(ctx, { role: "viewer" });
    const [name, value] = cookie.split("=");

    const context = await browser.newContext({
      locale: "es-MX",
      viewport: DESKTOP,
      // axe-core is injected as a script; the pages' CSP would block it.
      bypassCSP: true,
    });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const watch = watchPage(page, origin);

    await t.step(
      "a week's headline figures stand against the week before, in words and an icon",
      async () => {
        await page.goto(`${origin}/panel?desde=2026-11-21&hasta=2026-11-27`);
        await page.getByRole("heading", {
          name: "Cifras del 21 al 27 de noviembre de 2026",
        }).waitFor();
        assert.deepEqual(await readHeadlines(page), {
          "Visitas": {
            value: "6",
            comparison: "▲ 200% más que del 14 al 20 de noviembre",
          },
          "Turistas nuevos": {
            value: "5",
            comparison: "▲ 150% más que del 14 al 20 de noviembre",
          },
          "Pasaportes nuevos": {
            value: "1",
            comparison: "▲ del 14 al 20 de noviembre no hubo ninguno",
          },
          "Calificación promedio": {
            value: "4.5 de 5",
            comparison:
              "sin comparación: el periodo anterior cae en el mismo mes",
          },
          "Preguntas respondidas": {
            value: "2",
            comparison: "▼ 50% menos que del 14 al 20 de noviembre",
          },
        });
        // The icon is decoration: the words say up or down.
        assert.equal(
          await page.locator(".headline__icon").first().getAttribute(
            "aria-hidden",
          ),
          "true",
        );
        // The date fields are large enough to touch and read.
        const field = page.getByLabel("Desde");
        assert.equal(await field.inputValue(), "2026-11-21");
        const box = (await field.boundingBox())!;
        assert.ok(box.height >= 44, `date field ${box.height}px tall`);
        assert.ok(
          parseFloat(
            await field.evaluate((el) => getComputedStyle(el).fontSize),
          ) >= 16,
        );
        // That range is also the "7 días" quick range, marked as current.
        assert.equal(
          await page.getByRole("link", { name: "7 días" }).getAttribute(
            "aria-current",
          ),
          "true",
        );
        // The lines are named in a legend, in plain words.
        const chat = page.getByRole("region", {
          name: "Asistente: preguntas por día",
        });
        assert.deepEqual(
          await chat.getByRole("list", { name: "Leyenda" }).getByRole(
            "listitem",
          ).allInnerTexts(),
          [
            "Preguntas recibidas",
            "Respondidas con datos",
            "Sin el dato en el portal",
            "Sin respuesta: demasiadas seguidas",
            "Sin respuesta: falló el asistente",
          ],
        );
        assert.doesNotMatch(await page.content(), /\((429|502)\)/);
        assert.deepEqual(await findOverlaps(page, "grafica-dias"), []);
        assert.deepEqual(await findOverlaps(page, "grafica-asistente"), []);
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        await saveScreenshot(page, "panel-dashboard-week-desktop");
      },
    );

    await t.step(
      "the quick range Hoy sets today's dates and figures",
      async () => {
        await page.getByRole("link", { name: "Hoy", exact: true }).click();
        await page.waitForURL(
          `${origin}/panel?desde=2026-11-27&hasta=2026-11-27`,
        );
        assert.equal(await page.getByLabel("Desde").inputValue(), "2026-11-27");
        assert.equal(await page.getByLabel("Hasta").inputValue(), "2026-11-27");
        await page.getByRole("heading", {
          name: "Cifras el 27 de noviembre de 2026",
        }).waitFor();
        const figures = await readHeadlines(page);
        assert.deepEqual(figures["Visitas"], {
          value: "1",
          comparison: "= igual que el 26 de noviembre",
        });
        assert.deepEqual(figures["Turistas nuevos"], {
          value: "1",
          comparison: "▲ el 26 de noviembre no hubo ninguno",
        });
        assert.deepEqual(figures["Preguntas respondidas"], {
          value: "0",
          comparison: "▼ 100% menos que el 26 de noviembre",
        });
      },
    );

    await t.step(
      "this year's charts tick months in Spanish, without overlapping labels",
      async () => {
        await page.getByRole("link", { name: "Este año" }).click();
        await page.waitForURL(
          `${origin}/panel?desde=2026-01-01&hasta=2026-11-27`,
        );
        const ticks = await page.locator("#grafica-dias ~ figure svg text")
          .evaluateAll((texts) =>
            texts.filter((t) => t.getBoundingClientRect().width > 0)
              .map((t) => t.textContent)
          );
        assert.ok(ticks.includes("ene 2026"), ticks.join(", "));
        assert.ok(
          ticks.some((tick) =>
            /^(feb|mar|abr|may|jun|jul|ago|sept?)$/.test(tick ?? "")
          ),
          ticks.join(", "),
        );
        assert.ok(
          !ticks.some((tick) => /Jan|Feb|Apr|Aug|Dec|January/.test(tick ?? "")),
          ticks.join(", "),
        );
        assert.deepEqual(await findOverlaps(page, "grafica-dias"), []);
      },
    );

    await t.step(
      "on a phone the page does not scroll sideways and chart text stays 12 px or more",
      async () => {
        await page.setViewportSize(PHONE);
        await page.goto(`${origin}/panel?desde=2026-10-29&hasta=2026-11-27`);
        const width = await page.evaluate(() =>
          document.documentElement.scrollWidth
        );
        assert.ok(width <= PHONE.width, `page ${width}px wide`);
        const sizes = await page.locator(".chart__svg svg").evaluateAll((
          svgs,
        ) =>
          svgs.filter((svg) => svg.getBoundingClientRect().width > 0).map(
            (svg) => {
              const scale = svg.getBoundingClientRect().width /
                (svg as SVGSVGElement).viewBox.baseVal.width;
              return Number(svg.getAttribute("font-size")) * scale;
            },
          )
        );
        assert.ok(sizes.length >= 6, `${sizes.length} charts shown`);
        for (const size of sizes) {
          assert.ok(size >= 12, `chart text ${size.toFixed(1)}px`);
        }
        for (const id of ["grafica-dias", "grafica-pasaportes"]) {
          assert.deepEqual(await findOverlaps(page, id), [], id);
        }
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        await saveScreenshot(page, "panel-dashboard-month-phone");
        await page.locator("#grafica-dias").scrollIntoViewIfNeeded();
        await saveScreenshot(page, "panel-dashboard-chart-phone", {
          fullPage: false,
        });
      },
    );

    assert.deepEqual(watch.problems, []);
  },
});
