/**
 * The console's photo library in headless Chromium: a photo shown on an
 * attraction and a provider says so in its row, the row's Borrar asks
 * first (naming those pages) and then deletes it, and the attraction page
 * no longer shows it. On a phone and a desktop nothing scrolls sideways but
 * the table in its own box, and axe finds nothing on the library or the
 * confirmation. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { makeJpeg } from "../photo_fixtures.ts";
import {
  createTestContext,
  mutateShipped,
  SHIPPED,
  signInStaff,
} from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };

Deno.test({
  name:
    "/panel/fotos in Chromium: where a photo is shown, its deletion asked and done, axe clean on a phone and a desktop",
  ignore: browserSkipReason !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using setup = await createTestContext();
    const photo = await setup.deps.photos.upload({
      file: { bytes: await makeJpeg(1200, 900), name: "plaza.jpg" },
      altEs: "La plaza principal al atardecer",
      altEn: "The main square at sunset",
      credit: "Oficina de Turismo",
      staff: {
        id: "ana@municipio.gob.mx",
        email: "ana@municipio.gob.mx",
        role: "admin",
      },
    });
    const attraction = SHIPPED.attractions[0];
    const provider = SHIPPED.providers[0];
    await using app = await startBrowserApp({
      kv: setup.deps.kv,
      data: new DataStore(
        await parseTourismData(mutateShipped((data) => {
          data.attractions[0].photos = [photo.id];
          data.providers[0].photos = [photo.id];
        })),
      ),
    });
    const { ctx, origin, browser } = app;
    const [name, value] = (await signInStaff(ctx, { role: "admin" }))
      .split("=");
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
      bypassCSP: true,
    });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const watch = watchPage(page, origin);

    const assertNoSidewaysScroll = async (what: string) => {
      const { scroll, view } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        view: innerWidth,
      }));
      assert.ok(scroll <= view, `${what}: ${scroll} px in ${view}`);
    };

    await t.step(
      "the row says where the photo is shown; axe clean",
      async () => {
        for (const viewport of [PHONE, DESKTOP]) {
          await page.setViewportSize(viewport);
          await page.goto(`${origin}/panel/fotos`);
          const row = page.getByRole("row").filter({ hasText: photo.id });
          const cell = await row.innerText();
          assert.match(cell, new RegExp(`Atractivo: ${attraction.name}`));
          assert.match(cell, new RegExp(`Proveedor: ${provider.name}`));
          assert.equal(
            await row.getByRole("link", {
              name: `Atractivo: ${attraction.name}`,
            }).getAttribute("href"),
            `/turismo/atractivos/${attraction.slug}`,
          );
          await assertNoSidewaysScroll(`/panel/fotos at ${viewport.width}`);
          await assertAxeClean(page, `/panel/fotos at ${viewport.width}`);
        }
      },
    );

    await t.step(
      "Borrar asks first, naming the pages; Cancelar keeps it",
      async () => {
        await page.setViewportSize(PHONE);
        await page.goto(`${origin}/panel/fotos`);
        await page.getByRole("button", { name: `Borrar la foto ${photo.id}` })
          .click();
        await page.getByRole("heading", {
          level: 1,
          name: "¿Borrar esta foto?",
        })
          .waitFor();
        const region = page.getByRole("region", {
          name: "Confirmar el borrado de la foto",
        });
        const text = await region.innerText();
        assert.match(
          text,
          /Se borrará de la biblioteca la foto «La plaza principal al atardecer»/,
        );
        assert.match(text, /Estas páginas dejarán de mostrarla/);
        assert.match(text, new RegExp(`Atractivo: ${attraction.name}`));
        await assertNoSidewaysScroll("the confirmation");
        await assertAxeClean(page, "the confirmation");
        await region.getByRole("link", { name: "Cancelar" }).click();
        await page.waitForURL(`${origin}/panel/fotos`);
        assert.equal(
          await page.getByRole("row").filter({ hasText: photo.id }).count(),
          1,
        );
      },
    );

    await t.step(
      "confirmed: gone from the library and from the attraction's page",
      async () => {
        await page.getByRole("button", { name: `Borrar la foto ${photo.id}` })
          .click();
        await page.getByRole("button", { name: "Sí, borrar la foto" }).click();
        await page.waitForURL(`${origin}/panel/fotos?borrada=${photo.id}`);
        assert.match(
          await page.getByRole("status").innerText(),
          new RegExp(
            `Foto borrada: ${photo.id}\\. Ya no se muestra en ninguna página\\.`,
          ),
        );
        assert.equal(
          await page.getByRole("row").filter({ hasText: photo.id }).count(),
          0,
        );
        await assertAxeClean(page, "the library after the deletion");
        await page.goto(`${origin}/turismo/atractivos/${attraction.slug}`);
        assert.equal(await page.locator(".photo-gallery img").count(), 0);
        const file = await page.request.get(
          `${origin}/fotos/${photo.id}-480.webp`,
        );
        assert.equal(file.status(), 404);
        assert.deepEqual(watch.problems, []);
      },
    );
    await context.close();
  },
});
