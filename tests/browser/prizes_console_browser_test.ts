/**
 * The console's prizes in Chromium, as the tourism office's admin uses them
 * on `deno task start`'s defaults: from the menu, a business and its prize
 * through the forms (a mistake comes back beside its field), a PIN shown
 * once, and that PIN signing the business's phone in on `/socio`. axe finds
 * nothing on the list or the form. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import { ensureBuild } from "@/scripts/build.ts";
import {
  assertAxeClean,
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  watchPage,
} from "@/tests/browser.ts";
import {
  createStaffLinkFor,
  startServiceOnKvFile,
} from "@/tests/service_process.ts";

const DESKTOP = { width: 1280, height: 900 };
const PARTNER = "Panadería La Espiga";

Deno.test({
  name:
    "the console's prizes in Chromium: a business, its prize with a mistake fixed, a PIN once, the business signs in",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-prizes-console-",
    });
    const { env, service } = running;
    const browser = await launchBrowser();
    try {
      const link = await createStaffLinkFor({
        env,
        port: service.port,
        email: "ana@municipio.gob.mx",
        role: "admin",
      });
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: DESKTOP,
        // For axe only: the pages' CSP forbids its injected script.
        bypassCSP: true,
      });
      const page = await context.newPage();
      const watch = watchPage(page, service.url);
      // A form with a mistake is answered 422, as it should be.
      watch.allow(/status of 422 .*\/panel\/premios\/premio/);
      await page.goto(link);
      await page.getByRole("button", { name: "Entrar al panel" }).click();
      await page.waitForURL(`${service.url}/panel`);
      let pin = "";

      await t.step("from the menu to a new business", async () => {
        await page.getByRole("navigation", { name: "Panel" })
          .getByRole("link", { name: "Premios" }).click();
        await page.getByRole("heading", {
          level: 1,
          name: "Premios y comercios adheridos",
        }).waitFor();
        await page.getByRole("link", { name: "Añadir un comercio" }).click();
        await page.getByLabel("Nombre del comercio").fill(PARTNER);
        await page.getByLabel("Dirección").fill("Calle Morelos 12, Centro");
        await page.getByLabel("Cuándo atiende (como lo lee el turista)")
          .fill("De lunes a sábado, de 7:00 a 21:00");
        await page.getByRole("button", { name: "Guardar" }).click();
        await page.getByRole("cell", { name: PARTNER }).waitFor();
      });

      await t.step(
        "a prize: a date mistake beside its field, English flagged as missing, then saved",
        async () => {
          await page.getByRole("link", { name: "Añadir un premio" }).click();
          await page.getByLabel("Nombre del premio, en español").fill(
            "Una concha gratis",
          );
          await page.getByLabel("Descripción, en español").fill(
            "Con cualquier café",
          );
          // Only the chosen requirement's field shows.
          assert.ok(
            await page.getByLabel("Insignia", { exact: true }).isHidden(),
          );
          await page.getByRole("radio", { name: "Una insignia" }).check();
          assert.ok(
            await page.getByLabel("Insignia", { exact: true }).isVisible(),
          );
          assert.ok(
            await page.getByRole("spinbutton", { name: "Sellos" }).isHidden(),
          );
          await page.getByRole("radio", { name: "Un número de sellos" })
            .check();
          await page.getByRole("spinbutton", { name: "Sellos" }).fill("5");
          await page.getByLabel("Se puede canjear desde").fill("2027-01-10");
          await page.getByLabel("Hasta").fill("2027-01-01");
          await page.getByLabel("Unidades en total").fill("30");
          await page.getByRole("button", { name: "Guardar" }).click();
          // The mistake is beside its field, and what was typed stays.
          const until = page.getByLabel("Hasta");
          const described = await until.getAttribute("aria-describedby");
          assert.ok(described, "the field names its error");
          assert.equal(
            (await page.locator(`[id="${described.split(" ")[0]}"]`)
              .innerText()).trim(),
            "La fecha final no puede ser anterior a la inicial.",
          );
          assert.equal(
            await page.getByLabel("Nombre del premio, en español").inputValue(),
            "Una concha gratis",
          );
          assert.match(
            await page.locator("main").innerText(),
            /falta la traducción/,
          );
          await assertAxeClean(page, "the prize form with an error");
          await saveScreenshot(page, "panel-prize-form");
          await until.fill("2099-12-31");
          await page.getByLabel("Se puede canjear desde").fill("2020-01-01");
          await page.getByLabel("Nombre del premio, en inglés").fill(
            "A free concha",
          );
          await page.getByLabel("Descripción, en inglés").fill(
            "With any coffee",
          );
          await page.getByRole("button", { name: "Guardar" }).click();
          await page.getByRole("cell", { name: "Una concha gratis" }).waitFor();
          assert.match(
            await page.locator("main").innerText(),
            /30 de 30/,
            "its units left",
          );
        },
      );

      await t.step("a PIN, shown once", async () => {
        await page.getByRole("row").filter({ hasText: PARTNER })
          .getByRole("button", { name: "Dar un PIN nuevo" }).click();
        const shown = page.locator(".pin-reveal");
        await shown.waitFor();
        pin = (await shown.innerText()).replace(/\D/g, "");
        assert.match(pin, /^\d{8}$/);
        await page.goto(`${service.url}/panel/premios`);
        assert.equal(
          await page.getByText(pin).count(),
          0,
          "never shown again",
        );
        await assertAxeClean(page, "the prizes list");
        await saveScreenshot(page, "panel-prizes");
      });

      await t.step("the business's phone signs in with it", async () => {
        const phone = await browser.newContext({ viewport: PHONE });
        try {
          const counter = await phone.newPage();
          await counter.goto(`${service.url}/socio`);
          await counter.getByLabel("PIN del comercio").fill(pin);
          await counter.getByRole("button", { name: "Entrar" }).click();
          await counter.getByRole("heading", { name: PARTNER }).waitFor();
        } finally {
          await phone.close();
        }
      });
      assert.deepEqual(watch.problems, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
