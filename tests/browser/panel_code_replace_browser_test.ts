/**
 * Replacing a guide code in headless Chromium, as an admin does it: the
 * row's button asks to confirm, naming the attraction and when the posters
 * on the walls stop working (in the municipality's time zone); cancelling
 * changes nothing; confirming shows the new code large, with a copy button
 * that copies it and says so, and the new poster to print. axe finds
 * nothing on the confirmation nor on the new code. Skipped when Chromium is
 * missing.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  browserSkipReason,
  describeViolations,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };
const [, SECOND, THIRD] = SHIPPED.attractions;
const DAY_MS = 24 * 60 * 60 * 1000;

/** `28 de diciembre de 2026 a las 14:30`, on the municipality's clock. */
function localDeadline(at: Date): string {
  const timeZone = SHIPPED.municipality.timeZone;
  const date = new Intl.DateTimeFormat("es-MX", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  }).format(at);
  const time = new Intl.DateTimeFormat("es-MX", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(at);
  return `${date} a las ${time}`;
}

async function assertNoAxeViolations(page: Page, label: string) {
  const violations = await runAxe(page);
  assert.equal(
    violations.length,
    0,
    `${label}:\n${describeViolations(violations)}`,
  );
}

function rowOf(page: Page, name: string) {
  return page.getByRole("row", { name: new RegExp(name) });
}

Deno.test({
  name:
    "POST /panel/codigos/:slug/confirmar in Chromium: confirm or cancel a replacement, then copy the new code",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    // A whole minute, so the deadline shown is exactly now + the grace period.
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    await using app = await startBrowserApp({ clockStart: start });
    const { ctx, origin, browser } = app;
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: DESKTOP,
      // For axe only: the pages' CSP forbids its injected script.
      bypassCSP: true,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const { url } = await createStaffSignInLink(ctx.deps.kv, {
      email: "ana@municipio.gob.mx",
      role: "admin",
      baseUrl: origin,
      now: ctx.clock.now(),
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    await page.goto(url);
    await page.getByRole("button", { name: "Entrar al panel" }).click();
    await page.waitForURL(`${origin}/panel`);
    await page.goto(`${origin}/panel/codigos`);
    const oldCode = SECOND.guideCode.toUpperCase();

    await t.step(
      "Reemplazar código asks first: the attraction, the date and time the posters stop, a cancel",
      async () => {
        const row = rowOf(page, SECOND.name);
        await row.getByLabel("Periodo de gracia del código anterior")
          .selectOption("14");
        await row.getByRole("button", { name: /Reemplazar código/ }).click();
        await page.waitForURL(
          `${origin}/panel/codigos/${SECOND.slug}/confirmar`,
        );
        assert.equal(
          await page.getByRole("heading", { level: 1 }).innerText(),
          `¿Reemplazar el código de ${SECOND.name}?`,
        );
        const main = await page.getByRole("main").innerText();
        assert.ok(
          main.includes(
            `Los carteles actuales dejan de funcionar el ${
              localDeadline(new Date(start.getTime() + 14 * DAY_MS))
            }.`,
          ),
          main,
        );
        assert.ok(main.includes(oldCode), "the current code is named");
        await page.getByRole("button", { name: "Sí, reemplazar el código" })
          .waitFor();
        await assertNoAxeViolations(page, "the confirmation");
        await saveScreenshot(page, "panel-code-confirm");
      },
    );

    await t.step("Cancelar changes nothing", async () => {
      await page.getByRole("link", { name: "Cancelar" }).click();
      await page.waitForURL(`${origin}/panel/codigos`);
      assert.equal(
        await rowOf(page, SECOND.name).locator("code.guide-code").innerText(),
        oldCode,
      );
      assert.equal(await page.locator("#nuevo-codigo").count(), 0);
    });

    await t.step(
      "the leaked code's choice, inside the confirmation, says the posters stop at once",
      async () => {
        await rowOf(page, THIRD.name).getByRole("button", {
          name: /Reemplazar código/,
        }).click();
        await page.getByRole("heading", {
          name: `¿Reemplazar el código de ${THIRD.name}?`,
        }).waitFor();
        await page.getByText("El código se filtró", { exact: true }).click();
        await page.getByText(/deja de servir en cuanto confirmes/).waitFor();
        await page.getByRole("button", { name: "Sí, anular el código ya" })
          .waitFor();
        await page.getByRole("link", { name: "Cancelar" }).click();
        await page.waitForURL(`${origin}/panel/codigos`);
        assert.equal(
          await rowOf(page, THIRD.name).locator("code.guide-code").innerText(),
          THIRD.guideCode.toUpperCase(),
        );
      },
    );

    let newCode = "";
    await t.step(
      "confirming replaces the code and shows the new one large, with the new poster",
      async () => {
        const row = rowOf(page, SECOND.name);
        await row.getByLabel("Periodo de gracia del código anterior")
          .selectOption("14");
        await row.getByRole("button", { name: /Reemplazar código/ }).click();
        await page.getByRole("button", { name: "Sí, reemplazar el código" })
          .click();
        const shown = page.locator("#nuevo-codigo");
        newCode = (await shown.innerText()).trim();
        assert.match(newCode, /^[2-9A-HJ-NP-Z]{6}$/);
        assert.notEqual(newCode, oldCode);
        assert.equal(
          await row.locator("code.guide-code").innerText(),
          newCode,
        );
        const style = await shown.evaluate((el) => {
          const { fontSize, fontFamily } = getComputedStyle(el);
          return { fontSize: parseFloat(fontSize), fontFamily };
        });
        assert.ok(style.fontSize >= 32, `font size ${style.fontSize}px`);
        assert.match(style.fontFamily, /mono|Menlo|Consolas/i);
        const poster = page.getByRole("link", {
          name: "Descargar el cartel para imprimir (SVG)",
        });
        assert.equal(
          await poster.getAttribute("href"),
          `/panel/codigos/${SECOND.slug}/cartel.svg`,
        );
        const svg = await (await page.request.get(
          `${origin}/panel/codigos/${SECOND.slug}/cartel.svg`,
        )).text();
        assert.ok(svg.includes(`>${newCode}</text>`), "the poster's new code");
        const img = page.getByRole("img", {
          name: `Cartel de ${SECOND.name} con el código nuevo`,
        });
        await img.waitFor();
        assert.ok(
          await img.evaluate((el) => (el as HTMLImageElement).naturalWidth > 0),
          "the poster is drawn",
        );
      },
    );

    await t.step(
      "Copiar código copies it and says Copiado to screen readers",
      async () => {
        const button = page.getByRole("button", { name: "Copiar código" });
        await button.click();
        await page.getByRole("status").filter({ hasText: "Copiado" })
          .waitFor();
        assert.equal(
          await page.evaluate(() => navigator.clipboard.readText()),
          newCode,
        );
        await assertNoAxeViolations(page, "the new code");
        await saveScreenshot(page, "panel-code-reveal", { fullPage: false });
      },
    );

    assert.deepEqual(watch.problems, []);
    assert.deepEqual(watch.dialogs, []);
    await context.close();
  },
});
