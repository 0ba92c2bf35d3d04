/**
 * An admin ends a colleague's staff session from the console, in headless
 * Chromium: the service runs as its own process on a KV file, two browsers
 * sign in with `deno task staff-link` links, the admin presses "Cerrar
 * sesión" on `/panel/sesiones` and the colleague's next click is a 404.
 * The page passes axe-core in Spanish and in English. Skipped, with the
 * reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  runAxe,
  watchPage,
} from "../browser.ts";
import {
  createStaffLinkFor,
  startServiceOnKvFile,
} from "../service_process.ts";

const DESKTOP = { width: 1280, height: 800 };
const ANA = "ana@municipio.gob.mx";
const LUIS = "luis@municipio.gob.mx";

Deno.test({
  name:
    "GET/POST /panel/sesiones in Chromium: an admin ends a colleague's session",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-sesiones-",
    });
    const { env, service: { port, url: origin } } = running;
    const browser = await launchBrowser();
    try {
      const signIn = async (email: string, role: "admin" | "viewer") => {
        const link = await createStaffLinkFor({ env, port, email, role });
        const context = await browser.newContext({
          locale: "es-MX",
          viewport: DESKTOP,
          bypassCSP: true,
        });
        const page = await context.newPage();
        await page.goto(link);
        await page.getByRole("button", { name: "Entrar al panel" }).click();
        await page.waitForURL(`${origin}/panel`);
        return { context, page };
      };
      const admin = await signIn(ANA, "admin");
      const viewer = await signIn(LUIS, "viewer");
      const watch = watchPage(admin.page, origin);

      await t.step("the admin finds the page in the menu", async () => {
        await admin.page.getByRole("navigation", { name: "Panel" })
          .getByRole("link", { name: "Sesiones" }).click();
        await admin.page.waitForURL(`${origin}/panel/sesiones`);
        const table = await admin.page.locator("table").innerText();
        assert.match(table, /ana@municipio\.gob\.mx \(tú\)\s+Administración/);
        assert.match(table, /luis@municipio\.gob\.mx\s+Consulta\s+Enlace/);
        assert.deepEqual(await runAxe(admin.page), []);
      });

      await t.step(
        "Cerrar sesión ends Luis's session: his next click is a 404",
        async () => {
          await admin.page.getByRole("button", {
            name: `Cerrar sesión de ${LUIS}`,
          }).click();
          await admin.page.getByText("Listo: se cerró la sesión.").waitFor();
          assert.doesNotMatch(
            await admin.page.locator("main").innerText(),
            /luis@municipio/,
          );
          const res = await viewer.page.goto(`${origin}/panel`);
          assert.equal(res?.status(), 404);
          await viewer.page.getByText("No encontramos esta página").waitFor();
        },
      );

      await t.step("in English for a browser set to English", async () => {
        const context = await browser.newContext({
          locale: "en-US",
          viewport: DESKTOP,
          bypassCSP: true,
        });
        await context.addCookies(await admin.context.cookies(origin));
        const page = await context.newPage();
        await page.goto(`${origin}/panel/sesiones`);
        await page.getByRole("heading", { name: "Staff sessions" }).waitFor();
        await page.getByRole("button", { name: `End session for ${ANA}` })
          .waitFor();
        assert.deepEqual(await runAxe(page), []);
      });

      assert.deepEqual(watch.problems, []);
    } finally {
      await browser.close();
    }
  },
});
