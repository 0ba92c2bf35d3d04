/**
 * The office edits its own portal, in headless Chromium, on two service
 * processes sharing one KV file (two instances behind a load balancer): an
 * admin signed in on A changes a museum's hours in Spanish and English,
 * saves a draft, previews it in both languages, publishes; B shows the new
 * hours within a second; restoring the earlier version from the history
 * brings the old hours back on B. The editor is axe-clean on a desktop and
 * on a phone. Skipped when Chromium is missing.
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
} from "../browser.ts";
import {
  createStaffLinkFor,
  getFreePort,
  type ServiceProcess,
  startService,
  startServiceOnKvFile,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { SHIPPED } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 900 };
const MUSEUM = SHIPPED.attractions.find((a) => a.category === "museo") ??
  SHIPPED.attractions[1];
/** The museum's hours as OpenStreetMap writes them, and as its page says them. */
const NEW_HOURS = "Tu-Su 10:00-19:00";
const NEW_HOURS_SHOWN = "10:00 a 19:00";
const OLD_HOURS_SHOWN = "10:00 a 17:00";
const NEW_ES = "Los jueves, visita guiada a las 12:00 (horario de invierno)";
const NEW_EN = "Guided tour on Thursdays at 12:00 (winter hours)";
/** The promise: a published change shows on every instance within this. */
const WITHIN_MS = 1_000;

/** Asks B's page every 20 ms until it shows `text`; returns how long that took. */
async function waitUntilShown(
  service: ServiceProcess,
  path: string,
  text: string,
  since: number,
): Promise<number> {
  for (;;) {
    const html = await (await fetch(`${service.url}${path}`)).text();
    if (html.includes(text)) return performance.now() - since;
    assert.ok(
      performance.now() - since <= WITHIN_MS,
      `${path} on B does not show «${text}» after ${WITHIN_MS} ms`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test({
  name:
    "the content editor in Chromium: a museum's hours and note in both languages, preview, publish, seen on a second instance, restored",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await ensureBuild();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-content-editor-",
    });
    const { env, service: a } = running;
    const b = startService({ env, port: await getFreePort() });
    const browser = await launchBrowser();
    try {
      await waitUntilHealthy(b);
      const link = await createStaffLinkFor({
        env,
        port: a.port,
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
      const watch = watchPage(page, a.url);
      await page.goto(link);
      await page.getByRole("button", { name: "Entrar al panel" }).click();
      await page.waitForURL(`${a.url}/panel`);
      const editorUrl =
        `${a.url}/panel/contenido/editar/attractions/${MUSEUM.slug}`;

      await t.step("from the menu to the museum's form", async () => {
        await page.getByRole("navigation", { name: "Panel" })
          .getByRole("link", { name: "Contenido" }).click();
        await page.getByRole("link", { name: "Editar el contenido" }).click();
        await page.getByRole("link", { name: MUSEUM.name, exact: true })
          .click();
        await page.waitForURL(editorUrl);
        const hours = page.getByRole("textbox", {
          name: /^Horario de apertura\b.*Español$/,
        });
        assert.equal(await hours.inputValue(), MUSEUM.openingHours);
        assert.equal(await page.getByText(MUSEUM.guideCode).count(), 0);
        await assertAxeClean(page, "the editor, desktop");
      });

      await t.step("a draft, previewed in Spanish and English", async () => {
        await page.getByRole("textbox", {
          name: /^Horario de apertura\b.*Español$/,
        }).fill(NEW_HOURS);
        await page.getByRole("textbox", {
          name: /^Nota del horario\b.*Español$/,
        })
          .fill(NEW_ES);
        await page.getByRole("textbox", {
          name: /^Nota del horario\b.*English$/,
        })
          .fill(NEW_EN);
        await page.getByRole("button", { name: "Guardar borrador" }).click();
        await page.getByRole("status").filter({ hasText: "Borrador guardado" })
          .waitFor();
        await saveScreenshot(page, "content-editor");
        for (
          const [lang, text] of [["Español", NEW_ES], ["English", NEW_EN]]
        ) {
          const [preview] = await Promise.all([
            context.waitForEvent("page"),
            page.getByRole("link", { name: `Vista previa en ${lang}` })
              .click(),
          ]);
          await preview.waitForLoadState();
          assert.ok(
            await preview.getByText("Vista previa del borrador").isVisible(),
          );
          assert.ok(await preview.getByText(text).first().isVisible(), lang);
          await preview.close();
        }
        // Not published: neither instance shows it.
        for (const service of [a, b]) {
          const html = await (await fetch(
            `${service.url}/turismo/atractivos/${MUSEUM.slug}`,
          )).text();
          assert.ok(!html.includes(NEW_ES), service.url);
        }
      });

      await t.step(
        "published on A: B shows it within 1 s, in both languages",
        async () => {
          await page.getByRole("button", { name: "Guardar y publicar" })
            .click();
          const publishedAt = performance.now();
          await page.getByText("Publicado: el portal ya lo muestra").waitFor();
          const es = await waitUntilShown(
            b,
            `/turismo/atractivos/${MUSEUM.slug}`,
            NEW_HOURS_SHOWN,
            publishedAt,
          );
          await waitUntilShown(
            b,
            `/turismo/atractivos/${MUSEUM.slug}`,
            NEW_ES,
            publishedAt,
          );
          const en = await waitUntilShown(
            b,
            `/en/turismo/atractivos/${MUSEUM.slug}`,
            NEW_EN,
            publishedAt,
          );
          console.log(
            `B showed the published hours ${Math.round(es)} ms (es) and ${
              Math.round(en)
            } ms (en) after the click's answer`,
          );
        },
      );

      await t.step(
        "restored from the history: B shows the old hours again",
        async () => {
          await page.goto(`${a.url}/panel/contenido`);
          const rows = page.getByRole("table", {
            name: "Versiones publicadas, de la más reciente a la más antigua",
          }).getByRole("row");
          // Header, the publish, the first version.
          assert.equal(await rows.count(), 3);
          await rows.nth(2).getByRole("link").click();
          await page.getByRole("button", { name: "Restaurar esta versión" })
            .click();
          const restoredAt = performance.now();
          await page.getByText("Es la versión publicada").waitFor();
          await waitUntilShown(
            b,
            `/turismo/atractivos/${MUSEUM.slug}`,
            OLD_HOURS_SHOWN,
            restoredAt,
          );
        },
      );

      await t.step(
        "the editor on a phone: axe-clean, nothing wider than the screen",
        async () => {
          await page.setViewportSize(PHONE);
          await page.goto(editorUrl);
          await assertAxeClean(page, "the editor, phone");
          const wider = await page.evaluate(() =>
            document.documentElement.scrollWidth >
              document.documentElement.clientWidth
          );
          assert.equal(wider, false);
        },
      );
      assert.deepEqual(watch.problems, []);
      await context.close();
    } finally {
      await browser.close();
      await stopServices([b]);
    }
  },
});
