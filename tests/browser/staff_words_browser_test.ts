/**
 * The staff and codes pages as an admin sees them at 1366 px (issue 41), in
 * headless Chromium against the app in process, with no `STAFF` (the admin
 * signed in with a terminal link, on no list): the admin is listed, marked
 * "(tú)"; no developer's word (`STAFF`) nor a gendered one (Invitada,
 * administradora) is on the page; the e-mail fields are styled and wide
 * enough for an address; an invitation's link stays inside its box and its
 * end is said in Spanish words; the codes page has no leaked-code button
 * outside the confirmation step. Each state passes axe-core. Skipped, with
 * the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  assertAxeClean,
  browserSkipReason,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED, signInStaff } from "../test_utils.ts";

const LAPTOP = { width: 1366, height: 768 };
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis.fernando.de.la.garza@dependencia-municipal.gob.mx";
const PLAZA = SHIPPED.attractions[0];

/** The e-mail field's box and look, as the browser computes them. */
function measureEmailField(page: Page) {
  return page.locator('input[type="email"]').first().evaluate((input) => {
    const style = getComputedStyle(input);
    return {
      width: input.getBoundingClientRect().width,
      minHeight: parseFloat(style.minHeight),
      borderRadius: parseFloat(style.borderTopLeftRadius),
    };
  });
}

Deno.test({
  name:
    "/panel/personal and /panel/codigos in Chromium at 1366 px: plain, neutral words; the admin listed; the link in its box; the leak only when confirming",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp({});
    const { ctx, origin, browser } = app;
    const cookie = await signInStaff(ctx, { email: ANA, role: "admin" });
    const [name, value] = cookie.split("=");
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: LAPTOP,
      bypassCSP: true,
    });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    // The pages' CSP on, as for a real admin (axe needs it off): an inline
    // style would be dropped here.
    const strict = await browser.newContext({
      locale: "es-MX",
      viewport: LAPTOP,
    });
    await strict.addCookies([{ name, value, url: origin }]);
    const strictPage = await strict.newPage();
    const strictWatch = watchPage(strictPage, origin);
    const main = page.locator("main");

    await t.step(
      "the admin from a terminal link is listed, marked (tú); no STAFF, Invitada or administradora",
      async () => {
        await page.goto(`${origin}/panel/personal`);
        const row = page.locator(`tr[data-person="${ANA}"]`);
        assert.match(await row.innerText(), /ana@municipio\.gob\.mx \(tú\)/);
        const text = await main.innerText();
        assert.doesNotMatch(text, /STAFF|Invitada|administradora/);
        assert.match(text, /configuración del servidor/);
        await assertAxeClean(page, "the staff page");
      },
    );

    await t.step("the e-mail field is styled and fits an address", async () => {
      const field = await measureEmailField(page);
      assert.ok(field.width >= 300, `width ${field.width}px`);
      assert.ok(field.minHeight >= 40, `min-height ${field.minHeight}px`);
      assert.ok(field.borderRadius > 0, "a styled field");
    });

    await t.step(
      "an invitation (CSP on): the link stays in its box, its end in Spanish words",
      async () => {
        await strictPage.goto(`${origin}/panel/personal`);
        await strictPage.getByLabel("Correo electrónico").fill(LUIS);
        await strictPage.getByRole("button", { name: "Invitar" }).click();
        await strictPage.getByRole("heading", {
          name: `Enlace de acceso para ${LUIS}`,
        }).waitFor();
        const fit = await strictPage.evaluate(() => {
          const box = document.querySelector(".code-reveal")!
            .getBoundingClientRect();
          const link = document.getElementById("enlace-acceso")!;
          const rect = link.getBoundingClientRect();
          return {
            box: { left: box.left, right: box.right },
            link: { left: rect.left, right: rect.right },
            overflow: link.scrollWidth - link.clientWidth,
          };
        });
        assert.ok(
          fit.link.left >= fit.box.left && fit.link.right <= fit.box.right,
          JSON.stringify(fit),
        );
        assert.ok(fit.overflow <= 0, JSON.stringify(fit));
        const note = await strictPage.locator(".code-reveal").innerText();
        assert.match(
          note,
          /Sirve una sola vez, hasta el \d{1,2} de [a-z]+ de \d{4} a las \d{2}:\d{2} \(15 minutos\)/,
        );
      },
    );

    await t.step(
      "the member invited: neutral words, and a new link passes axe",
      async () => {
        await page.goto(`${origin}/panel/personal`);
        const row = page.locator(`tr[data-person="${LUIS}"]`);
        assert.match(await row.innerText(), /Invitación de ana@municipio/);
        await row.getByRole("button", {
          name: `Dar permisos de administración a ${LUIS}`,
        }).waitFor();
        await row.getByRole("button", { name: `Enlace nuevo para ${LUIS}` })
          .click();
        await page.locator("#enlace-acceso").waitFor();
        assert.doesNotMatch(
          await main.innerText(),
          /STAFF|Invitada|administradora/,
        );
        await assertAxeClean(page, "the link shown");
      },
    );

    await t.step("the audit log's e-mail field is styled too", async () => {
      await page.goto(`${origin}/panel/auditoria`);
      const field = await measureEmailField(page);
      assert.ok(field.width >= 300, `width ${field.width}px`);
      assert.ok(field.minHeight >= 40, `min-height ${field.minHeight}px`);
      await assertAxeClean(page, "the audit log");
    });

    await t.step(
      "the codes page: no leaked-code button on a row, the choice inside the confirmation",
      async () => {
        await page.goto(`${origin}/panel/codigos`);
        assert.equal(
          await main.getByRole("button", { name: /filtr/i }).count(),
          0,
        );
        assert.equal(await page.locator('[name="motivo"]').count(), 0);
        await assertAxeClean(page, "the codes page");
        await page.getByRole("button", {
          name: `Reemplazar código de ${PLAZA.name}`,
        }).click();
        await page.getByRole("heading", {
          name: `¿Reemplazar el código de ${PLAZA.name}?`,
        }).waitFor();
        const leak = page.getByRole("button", {
          name: "Sí, anular el código ya",
        });
        assert.equal(await leak.isVisible(), false, "folded at first");
        await page.getByText("El código se filtró", { exact: true }).click();
        await leak.waitFor();
        await assertAxeClean(page, "the confirmation, unfolded");
        await leak.click();
        await page.locator("#nuevo-codigo").waitFor();
        const box = await page.locator(".code-reveal").innerText();
        assert.doesNotMatch(box, /no se vuelve a mostrar/);
        assert.match(box, /también lo ves en la tabla de abajo/);
        const shown = await page.locator("#nuevo-codigo").innerText();
        assert.equal(
          await page.locator(`code.guide-code[data-slug="${PLAZA.slug}"]`)
            .innerText(),
          shown,
        );
        await assertAxeClean(page, "the new code");
      },
    );

    assert.deepEqual(watch.problems, []);
    assert.deepEqual(strictWatch.problems, []);
  },
});
