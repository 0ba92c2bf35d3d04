/**
 * A newcomer reaching the staff console on the embedded defaults, in
 * headless Chromium: the service runs as its own process on a KV file (as
 * `deno task start` runs it), `scripts/staff_link.ts` prints a sign-in
 * link for that KV, and the browser opens it, presses "Entrar al panel",
 * reads its sign-in in Auditoría and signs out, after which the panel is a
 * 404 again. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  launchBrowser,
  PHONE,
  saveScreenshot,
  watchPage,
} from "../browser.ts";
import {
  createStaffLinkFor,
  startServiceOnKvFile,
} from "../service_process.ts";
import { SHIPPED } from "../test_utils.ts";

/** The attraction the tourist checks in at, with the code on its poster. */
const PLAZA = SHIPPED.attractions[0];

/** A desktop screen, where the office works. */
const DESKTOP = { width: 1280, height: 800 };

Deno.test({
  name:
    "GET /panel in Chromium: sign in with a staff link, read the audit, sign out",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-panel-",
    });
    const { env, service: { port, url: origin } } = running;
    const browser = await launchBrowser();
    try {
      let link = "";
      await t.step(
        "deno task staff-link prints a link to this service",
        async () => {
          link = await createStaffLinkFor({
            env,
            port,
            email: "ana@municipio.gob.mx",
            role: "admin",
          });
          assert.ok(link.startsWith(`${origin}/auth/personal/`), link);
        },
      );

      const context = await browser.newContext({
        locale: "es-MX",
        viewport: DESKTOP,
      });
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      // The panel after sign-out is a 404, which the browser logs.
      watch.allow(/404/);

      await t.step("the link's button opens the panel", async () => {
        await page.goto(link);
        await page.getByRole("button", { name: "Entrar al panel" }).click();
        await page.waitForURL(`${origin}/panel`);
        const nav = page.getByRole("navigation", { name: "Panel" });
        await nav.getByRole("link", { name: "Tablero" }).waitFor();
        assert.match(
          await page.locator(".console__who").innerText(),
          /ana@municipio\.gob\.mx · Administración/,
        );
        const cookie = (await context.cookies(origin)).find((c) =>
          c.name === "staff"
        );
        assert.ok(cookie?.httpOnly, "an HttpOnly staff cookie");
        assert.equal(cookie.sameSite, "Strict");
      });

      await t.step(
        "a tourist's check-in shows on the dashboard's charts and tables",
        async () => {
          const phone = await browser.newContext({
            locale: "es-MX",
            viewport: PHONE,
            isMobile: true,
            hasTouch: true,
          });
          const tourist = await phone.newPage();
          await tourist.goto(`${origin}/turismo/atractivos/${PLAZA.slug}`);
          await tourist.getByLabel("Código del atractivo").fill(
            PLAZA.guideCode,
          );
          await tourist.getByRole("button", { name: "Registrar mi visita" })
            .click();
          await tourist.getByText(
            `¡Listo! Registramos tu visita a ${PLAZA.name}.`,
          )
            .waitFor();
          await phone.close();

          await page.reload();
          const charts = page.locator(".chart__svg");
          assert.equal(await charts.count(), 7, "seven charts");
          assert.ok(await charts.locator("svg").count() >= 7, "as SVG");
          for (const chart of await charts.all()) {
            const box = await chart.boundingBox();
            assert.ok(box && box.width > 200 && box.height > 100, "drawn");
          }
          const byAttraction = page.locator("section.chart").filter({
            has: page.getByRole("heading", { name: "Visitas por atractivo" }),
          });
          await byAttraction.getByText("Ver los datos").click();
          const row = byAttraction.locator("tbody tr").filter({
            hasText: PLAZA.name,
          });
          assert.match(await row.innerText(), /\b1\b/);
          await saveScreenshot(page, "panel-dashboard");
        },
      );

      await t.step("Auditoría lists the sign-in", async () => {
        await page.getByRole("navigation", { name: "Panel" })
          .getByRole("link", { name: "Auditoría" }).click();
        await page.waitForURL(`${origin}/panel/auditoria`);
        await page.getByRole("heading", { name: "Auditoría", level: 1 })
          .waitFor();
        const firstRow = page.locator("table tbody tr").first();
        assert.match(
          await firstRow.innerText(),
          /ana@municipio\.gob\.mx\s+Administración\s+Entró al panel/,
        );
        await saveScreenshot(page, "panel-audit");
      });

      await t.step(
        "Datos abiertos y exportaciones: a download parses back as CSV",
        async () => {
          await page.getByRole("navigation", { name: "Panel" })
            .getByRole("link", { name: "Datos abiertos y exportaciones" })
            .click();
          await page.waitForURL(`${origin}/panel/exportar`);
          const [download] = await Promise.all([
            page.waitForEvent("download"),
            page.getByRole("link", { name: /Visitas diarias por atractivo/ })
              .click(),
          ]);
          assert.equal(download.suggestedFilename(), "visitas-diarias.csv");
          const path = await download.path();
          const text = await Deno.readTextFile(path);
          // The staff's copy starts with a byte-order mark, for Excel.
          assert.ok(text.startsWith("\uFEFF"));
          assert.deepEqual(parse(text, { bom: true }), [
            ["fecha", "atractivo", "nombre", "visitas"],
          ]);
          const descriptor = await page.request.get(
            `${origin}/datos/datapackage.json`,
          );
          assert.equal(descriptor.status(), 200);
          assert.equal((await descriptor.json()).resources.length, 3);
        },
      );

      await t.step("the link cannot be used a second time", async () => {
        const other = await browser.newContext({ locale: "es-MX" });
        const second = await other.newPage();
        await second.goto(link);
        await second.getByRole("button", { name: "Entrar al panel" }).click();
        await second.getByText("Este enlace ya se usó o venció").waitFor();
        await other.close();
      });

      await t.step(
        "Salir ends the session: /panel is a 404 again",
        async () => {
          await page.getByRole("button", { name: "Salir" }).click();
          await page.waitForURL(`${origin}/`);
          const res = await page.goto(`${origin}/panel`);
          assert.equal(res?.status(), 404);
          await page.getByText("No encontramos esta página").waitFor();
          assert.equal(
            (await context.cookies(origin)).some((c) => c.name === "staff"),
            false,
          );
        },
      );

      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
    } finally {
      await browser.close();
    }
  },
});
