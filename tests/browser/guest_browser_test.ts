/**
 * A tourist on a phone, no account, no set-up: the service runs as
 * `deno task start` runs it (its own process, a KV file, no sign-in, no
 * model, no CMS configured) and a fresh headless Chromium checks in at
 * attraction pages, rates a visit there, gets a share ticket and watches
 * the route fill up to the first badge. Skipped, with the reason printed,
 * when Chromium is missing.
 */
import assert from "node:assert/strict";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  watchPage,
} from "../browser.ts";
import { startServiceOnKvFile } from "../service_process.ts";
import { SHIPPED } from "../test_utils.ts";

/** The first five attractions, with the codes on their posters (the test's knowledge only). */
const FIVE = SHIPPED.attractions.slice(0, 5);

/** How a tourist might type a code: lower case, a space in the middle. */
function typedLoosely(code: string): string {
  return `${code.slice(0, 3).toLowerCase()} ${code.slice(3).toLowerCase()}`;
}

Deno.test({
  name:
    "a guest in Chromium on the embedded defaults: check in, rate, ticket, route, first badge",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      env: { LOG_REQUESTS: "true" },
    });
    const origin = running.service.url;
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The browser logs the API's 404 (wrong code) and 409 (repeat).
      watch.allow(/(404|409).*\/api\/turismo\/(verify-visit|check-in)/);
      const attractionPage = (slug: string) =>
        `${origin}/turismo/atractivos/${slug}`;
      const checkIn = page.locator(".check-in");
      const codeField = page.getByLabel("Código del atractivo");
      const checkInButton = page.getByRole("button", {
        name: "Registrar mi visita",
      });

      await t.step(
        "a code typed before the page's script has started still counts",
        async () => {
          // A slow phone (or a cold server) gives the tourist time to type
          // before the check-in island hydrates: hold its chunk until then.
          let typed!: () => void;
          const whenTyped = new Promise<void>((resolve) => typed = resolve);
          const chunk = /\/static\/build\/CheckIn-[A-Z0-9]+\.js$/;
          await page.route(chunk, async (route) => {
            await whenTyped;
            await route.continue();
          });
          await page.goto(attractionPage(FIVE[0].slug), {
            waitUntil: "domcontentloaded",
          });
          await codeField.fill(typedLoosely(FIVE[0].guideCode));
          typed();
          await checkInButton.click();
          await checkIn.getByText(
            `¡Listo! Registramos tu visita a ${FIVE[0].name}.`,
          ).waitFor();
          assert.equal(await codeField.count(), 0, "the form gives way");
          const cookies = await context.cookies(origin);
          const session = cookies.find((c) => c.name === "session");
          assert.ok(
            session?.httpOnly,
            "a guest passport in an HttpOnly cookie",
          );
          await saveScreenshot(page, "check-in", { fullPage: false });
          await page.unroute(chunk);
        },
      );

      await t.step("the visit is rated right there", async () => {
        await checkIn.getByRole("radio", { name: "5 estrellas" }).check();
        await checkIn.getByLabel("Notas (opcional)").fill("La mejor plaza");
        await checkIn.getByRole("button", { name: "Guardar calificación" })
          .click();
        await checkIn.getByText("Guardamos tu calificación.").waitFor();
      });

      await t.step(
        "/mi-pasaporte shows the one visit with its rating",
        async () => {
          await page.goto(`${origin}/mi-pasaporte`);
          const passport = page.locator(".passport");
          await passport.getByText(FIVE[0].name).first().waitFor();
          assert.match(
            await passport.innerText(),
            /Visitaste 1 de 17 atractivos/,
          );
          assert.equal(
            await page.locator(".visit-list > li").count(),
            1,
          );
          // Its rating form opens from its button, with what was saved.
          await page.locator(".visit-list > li").getByRole("button", {
            name: /^Cambiar calificación/,
          }).click();
          assert.equal(
            await page.getByLabel("Notas (opcional)").inputValue(),
            "La mejor plaza",
          );
          assert.equal(
            await page.getByRole("link", { name: /Iniciar sesión/ }).count(),
            0,
            "no sign-in offered where none is configured",
          );
        },
      );

      let routeUrl = "";
      await t.step(
        "the ticket form's ticket shows the passport's visit on /ruta",
        async () => {
          await page.goto(`${origin}/mi-pasaporte`);
          await page.locator(
            ".ticket-form button[type=submit]:not([disabled])",
          ).waitFor();
          await page.getByLabel("Nombre completo").fill("Lucía Ramírez");
          await page.getByLabel("Correo electrónico").fill("lucia@ejemplo.mx");
          await page.getByRole("button", { name: "Obtener mi boleto" }).click();
          await page.waitForURL(/\/ruta\/[a-z0-9]{12}$/);
          routeUrl = page.url();
          await page.getByText(FIVE[0].name).first().waitFor();
          assert.equal(
            await page.getByText("Todavía no hay visitas verificadas.").count(),
            0,
          );
        },
      );

      await t.step(
        "a wrong code says how many attempts are left; a repeat says it is already registered",
        async () => {
          await page.goto(attractionPage(FIVE[1].slug));
          await codeField.fill("NOEXISTE");
          await checkInButton.click();
          await checkIn.getByText(
            /no corresponde a ningún atractivo.*Te quedan 9 intentos/,
          )
            .waitFor();
          await codeField.fill(FIVE[0].guideCode);
          await checkInButton.click();
          // Another attraction's code: whose it is, and that it was stamped.
          await checkIn.getByText(
            `Este código es de ${FIVE[0].name}, y ese sello ya lo tenías.`,
          ).waitFor();
        },
      );

      await t.step(
        "a poster's link fills the code in: one tap confirms",
        async () => {
          const code = FIVE[1].guideCode;
          await page.goto(
            `${attractionPage(FIVE[1].slug)}?codigo=${
              encodeURIComponent(code)
            }`,
          );
          await checkIn.getByText(`Tienes el código de ${FIVE[1].name}`)
            .waitFor();
          assert.equal(await codeField.inputValue(), code);
          const confirm = page.locator(
            ".check-in button[type=submit]:not([disabled])",
          );
          await page.waitForFunction(() => scrollY > 0);
          assert.ok(
            await confirm.evaluate((button) => {
              const box = button.getBoundingClientRect();
              return box.top >= 0 && box.bottom <= innerHeight;
            }),
            "the confirm button is on screen without scrolling",
          );
          await saveScreenshot(page, "check-in-link", { fullPage: false });
          await confirm.tap();
          await checkIn.getByText(
            `¡Listo! Registramos tu visita a ${FIVE[1].name}.`,
          ).waitFor();
        },
      );

      await t.step(
        "the fifth code unlocks Explorador with a celebration, and the route shows it",
        async () => {
          for (const [i, attraction] of FIVE.slice(2).entries()) {
            await page.goto(attractionPage(attraction.slug));
            await codeField.fill(attraction.guideCode);
            await checkInButton.click();
            await checkIn.getByText(
              `¡Listo! Registramos tu visita a ${attraction.name}.`,
            ).waitFor();
            assert.equal(
              await checkIn.locator(".celebrate").count(),
              i === 2 ? 1 : 0,
              attraction.slug,
            );
          }
          const celebration = checkIn.locator(".celebrate");
          assert.match(
            await celebration.innerText(),
            /Desbloqueaste la insignia Explorador/,
          );
          await celebration.evaluate((element) =>
            Promise.all(
              element.getAnimations({ subtree: true }).map((a) => a.finished),
            )
          );
          await saveScreenshot(page, "check-in-badge", { fullPage: false });
          await page.goto(routeUrl);
          const text = await page.locator("main").innerText();
          assert.match(text, /Explorador/);
          for (const attraction of FIVE) {
            assert.ok(text.includes(attraction.name), attraction.name);
          }
        },
      );

      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
      await context.close();
    } finally {
      await browser.close();
    }
  },
});
