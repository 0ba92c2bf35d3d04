/**
 * One check-in, one wording, in headless Chromium: the attraction's page and
 * the passport offer the same button, and a code of another place that
 * place's rule refuses (it checks in by position only) is answered on both
 * as a notice naming and linking that place, in the status region, styled
 * as a notice rather than left as plain text. Skipped, with the reason
 * printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { saveCheckInMethod } from "@/lib/db/check_in_methods.ts";
import {
  browserSkipReason,
  PHONE,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const [PLAZA] = SHIPPED.attractions;
const MERCADO = SHIPPED.attractions.find((a) =>
  a.slug === "mercado-municipal"
)!;

/** The button's name, and whether the notice is painted (a background). */
async function describeNotice(notice: Locator) {
  return await notice.evaluate((element) => ({
    background: getComputedStyle(element).backgroundColor,
    inStatus: element.closest("[role=status]") !== null,
  }));
}

Deno.test({
  name:
    "check-in in Chromium: one button wording on the attraction's page and the passport; a code of another place refused as a notice",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp();
    const { ctx, origin, browser } = running;
    await saveCheckInMethod(ctx.deps.kv, {
      slug: MERCADO.slug,
      rule: { method: "gps", radiusM: 150 },
      staff: {
        id: "admin@tequila.gob.mx",
        email: "admin@tequila.gob.mx",
        role: "admin",
      },
      now: new Date(),
      auditTarget: MERCADO.slug,
    });
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
    });
    const page: Page = await context.newPage();
    const watch = watchPage(page, origin);
    watch.allow(/422.*\/api\/turismo\/check-in|status of 422/);
    const buttons: string[] = [];

    await t.step(
      "on the attraction's page: «Registrar mi visita»; the other place's code refused as a notice naming it",
      async () => {
        await page.goto(`${origin}/turismo/atractivos/${PLAZA.slug}`);
        const form = page.locator(".check-in .verify-form");
        const button = form.locator("button[type=submit]:not([disabled])");
        await button.waitFor();
        buttons.push((await button.innerText()).trim());
        await form.getByLabel("Código del atractivo").fill(MERCADO.guideCode);
        await button.click();
        const notice = page.locator(".check-in [role=status] .notice--refused");
        await notice.waitFor();
        const text = await notice.innerText();
        assert.match(text, new RegExp(`^Este código es de ${MERCADO.name}`));
        assert.match(text, /«Estoy aquí»/);
        assert.equal(
          await notice.getByRole("link", { name: MERCADO.name })
            .getAttribute("href"),
          `/turismo/atractivos/${MERCADO.slug}`,
        );
        const painted = await describeNotice(notice);
        assert.ok(painted.inStatus, "in the status region");
        assert.notEqual(painted.background, "rgba(0, 0, 0, 0)", "a notice");
        // This page still takes its code: the form is not swapped for «Estoy aquí».
        await form.getByLabel("Código del atractivo").waitFor();
      },
    );

    await t.step(
      "on the passport: the same button, and the same notice for the same code",
      async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        const form = page.locator(".passport .verify-form");
        const button = form.locator("button[type=submit]:not([disabled])");
        await button.waitFor();
        buttons.push((await button.innerText()).trim());
        await form.getByLabel("Código del atractivo").fill(MERCADO.guideCode);
        await button.click();
        const notice = page.locator(".verify-result .notice--refused");
        await notice.waitFor();
        assert.match(
          await notice.innerText(),
          new RegExp(`^Este código es de ${MERCADO.name}`),
        );
        const painted = await describeNotice(notice);
        assert.ok(painted.inStatus, "in the status region");
        assert.notEqual(painted.background, "rgba(0, 0, 0, 0)", "a notice");
      },
    );

    await t.step("one wording for both buttons", () => {
      assert.deepEqual(buttons, ["Registrar mi visita", "Registrar mi visita"]);
    });

    assert.deepEqual(watch.problems, []);
    await context.close();
  },
});
