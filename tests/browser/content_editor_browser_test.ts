/**
 * The office edits its own portal, in headless Chromium, on two service
 * processes sharing one KV file (two instances behind a load balancer),
 * both with a model (the loopback stand-in): an admin signed in on A
 * uploads a photo (a phone's, with its GPS position) to the library, then
 * changes a museum's hours (to close at a minute a little ahead, in the
 * municipality's time zone) and its note in Spanish and English, ticks the
 * photo, saves a draft, previews it in both languages and publishes. B
 * shows the new hours within a second, in both languages, with the photo
 * and its alt text; its page card draws the photo; its assistant's prompt
 * states the new hours. At the closing minute B's page says "Cerrado",
 * not before and within a second after. Restoring the earlier version
 * from the history brings the old hours back on B, without the photo. The
 * editor is axe-clean on a desktop and on a phone. Skipped when Chromium
 * is missing.
 */
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
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
import { readCardPhotoContrast } from "../card_pixels.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import { makeJpeg } from "../photo_fixtures.ts";
import { SHIPPED } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 900 };
const MUSEUM = SHIPPED.attractions.find((a) => a.category === "museo") ??
  SHIPPED.attractions[1];
const { timeZone } = SHIPPED.municipality;
const OLD_HOURS_SHOWN = "10:00 a 17:00";
const ALT_ES = "La fachada del museo con sus barricas";
const ALT_EN = "The museum's facade with its barrels";
const NEW_ES = "Los jueves, visita guiada a las 12:00 (horario de invierno)";
const NEW_EN = "Guided tour on Thursdays at 12:00 (winter hours)";
/** The promise: a published change shows on every instance within this. */
const WITHIN_MS = 1_000;

/**
 * Hours that close at the first whole minute at least `leadMs` from now in
 * the municipality's time zone, open since midnight: as OpenStreetMap
 * writes them, as the page says the close (24-hour clock) and when it is.
 * Near midnight it waits for the next day, so the hours stay one range.
 */
async function hoursClosingSoon(leadMs: number) {
  for (;;) {
    const closeAt = Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
    const [hour, minute] = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(closeAt).split(":").map(Number);
    if (hour * 60 + minute > 2) {
      const clock = `${String(hour).padStart(2, "0")}:${
        String(minute).padStart(2, "0")
      }`;
      return {
        hours: `Mo-Su 00:00-${clock}`,
        change: `cierra a la${hour === 1 ? "" : "s"} ${hour}:${
          String(minute).padStart(2, "0")
        }`,
        week: `0:00 a ${hour}:${String(minute).padStart(2, "0")}`,
        closeAt,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  }
}

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
    await using model = startFakeOpenAI();
    await using running = await startServiceOnKvFile({
      prefix: "turismo-content-editor-",
      env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key" },
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
      const museumPath = `/turismo/atractivos/${MUSEUM.slug}`;
      let photoId = "";
      let closing: Awaited<ReturnType<typeof hoursClosingSoon>>;

      await t.step("a phone's photo uploaded to the library", async () => {
        await page.goto(`${a.url}/panel/fotos`);
        await page.getByLabel(/^Foto \(JPEG/).setInputFiles({
          name: "IMG_2041.jpg",
          mimeType: "image/jpeg",
          buffer: Buffer.from(await makeJpeg(1600, 1200)),
        });
        await page.getByLabel("Texto alternativo en español").fill(ALT_ES);
        await page.getByLabel("Texto alternativo en inglés").fill(ALT_EN);
        await page.getByLabel("Crédito").fill("Oficina de Turismo");
        await page.getByRole("button", { name: "Subir la foto" }).click();
        // A fresh process compiles the photo worker's codecs first: slow on CI.
        await page.waitForURL(/\/panel\/fotos\?subida=[0-9a-f]{32}$/, {
          timeout: 120_000,
        });
        photoId = new URL(page.url()).searchParams.get("subida")!;
        // The library's rendition is a WebP without the phone's EXIF.
        const file = await fetch(`${b.url}/fotos/${photoId}-480.webp`);
        assert.equal(file.status, 200);
        const bytes = new Uint8Array(await file.arrayBuffer());
        assert.equal(new TextDecoder().decode(bytes).includes("Exif"), false);
      });

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
        closing = await hoursClosingSoon(30_000);
        await page.getByRole("textbox", {
          name: /^Horario de apertura\b.*Español$/,
        }).fill(closing.hours);
        await page.getByRole("group", { name: "Fotos" })
          .getByRole("checkbox", { name: new RegExp(ALT_ES) }).check();
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
        await page.locator(".content-form__row--wide").screenshot({
          path: "test-output/screenshots/content-editor-photos.png",
        });
        for (
          const [lang, text, alt] of [
            ["Español", NEW_ES, ALT_ES],
            ["English", NEW_EN, ALT_EN],
          ]
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
          assert.ok(
            await preview.getByRole("img", { name: alt }).first().isVisible(),
            lang,
          );
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
            museumPath,
            closing.change,
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
        "on B in Chromium: the hours' line and the photo in both languages, the page card, the assistant's prompt",
        async () => {
          const tourist = await browser.newContext({
            locale: "es-MX",
            viewport: PHONE,
          });
          const phone = await tourist.newPage();
          for (
            const [prefix, alt, line] of [
              ["", ALT_ES, `Abierto ahora · ${closing.change}`],
              ["/en", ALT_EN, "Open now · closes at"],
            ]
          ) {
            await phone.goto(`${b.url}${prefix}${museumPath}`);
            assert.match(
              (await phone.locator(".page-head .hours-now").innerText())
                .trim(),
              new RegExp(`^${line}`),
            );
            const photo = phone.locator(".photo-gallery img").first();
            assert.equal(await photo.getAttribute("alt"), alt);
            assert.match(await photo.getAttribute("src") ?? "", /\/fotos\//);
            assert.ok(
              await photo.evaluate((img: HTMLImageElement) =>
                img.complete && img.naturalWidth > 0
              ),
              `${prefix || "/"}: the photo loaded`,
            );
            const contrast = await readCardPhotoContrast(
              (path) => fetch(`${b.url}${path}`),
              `${prefix}${museumPath}`,
            );
            assert.ok(contrast > 150, `the card draws the photo: ${contrast}`);
          }
          await tourist.close();
          const chat = await fetch(`${b.url}/api/chat`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              message: `¿A qué hora cierra el ${MUSEUM.name}?`,
            }),
          });
          assert.equal(chat.status, 200);
          await chat.body?.cancel();
          const prompt = String(model.lastRequest().body.messages[0].content);
          const museumLine = prompt.split("\n").find((l) =>
            l.includes(MUSEUM.name)
          );
          assert.ok(
            museumLine?.includes(closing.week),
            museumLine ?? "the museum is in the prompt",
          );
        },
      );

      await t.step(
        "the editor on a phone: axe-clean, nothing wider than the screen",
        async () => {
          await page.setViewportSize(PHONE);
          await page.goto(editorUrl);
          await assertAxeClean(page, "the editor, phone");
          await page.getByRole("group", { name: "Fotos" }).screenshot({
            path: "test-output/screenshots/content-editor-photos-390.png",
          });
          const wider = await page.evaluate(() =>
            document.documentElement.scrollWidth >
              document.documentElement.clientWidth
          );
          assert.equal(wider, false);
        },
      );
      await t.step(
        "at the closing minute, B's page says it is closed: not before, within a second after",
        async () => {
          // The header's line as words, tags and the icon left out.
          const read = async () =>
            (/<p class="hours-now[^"]*"[^>]*>([\s\S]*?)<\/p>/.exec(
              await (await fetch(`${b.url}${museumPath}`)).text(),
            )?.[1] ?? "").replace(/<[^>]+>/g, "").trim();
          if (closing.closeAt - Date.now() < 5_000) {
            // A slow machine spent the lead on the steps before: the same
            // edit again, closing a little later, published from the form.
            closing = await hoursClosingSoon(20_000);
            await page.goto(editorUrl);
            await page.getByRole("textbox", {
              name: /^Horario de apertura\b.*Español$/,
            }).fill(closing.hours);
            await page.getByRole("button", { name: "Guardar y publicar" })
              .click();
            await page.getByText("Publicado: el portal ya lo muestra")
              .waitFor();
            await waitUntilShown(
              b,
              museumPath,
              closing.change,
              performance.now(),
            );
          }
          await new Promise((resolve) =>
            setTimeout(
              resolve,
              Math.max(0, closing.closeAt - 1_500 - Date.now()),
            )
          );
          assert.match(await read(), /^Abierto ahora/);
          for (;;) {
            const line = await read();
            const late = Date.now() - closing.closeAt;
            if (line.startsWith("Cerrado")) {
              assert.ok(late >= 0, `closed ${-late} ms early`);
              console.log(`B said "${line}" ${late} ms after the minute`);
              break;
            }
            assert.ok(late <= WITHIN_MS, `still "${line}" ${late} ms after`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
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
          // Header, the publishes (one more on a slow machine), the first version.
          const count = await rows.count();
          assert.ok(count === 3 || count === 4, `${count} rows`);
          await rows.nth(count - 1).getByRole("link").click();
          await page.getByRole("button", { name: "Restaurar esta versión" })
            .click();
          const restoredAt = performance.now();
          await page.getByText("Es la versión publicada").waitFor();
          await waitUntilShown(b, museumPath, OLD_HOURS_SHOWN, restoredAt);
          const html = await (await fetch(`${b.url}${museumPath}`)).text();
          assert.equal(html.includes(ALT_ES), false, "the photo is gone");
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
