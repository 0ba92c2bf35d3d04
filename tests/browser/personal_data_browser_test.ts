/**
 * The passport page's data controls in headless Chromium: download the
 * JSON file, change the name on the route, erase the passport with its
 * confirmation, and find the route page gone. Skipped, with the reason
 * printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import { ERASURE_CACHE_GRACE_MS } from "@/lib/personal_data/erase.ts";
import { browserSkipReason, startBrowserApp, watchPage } from "../browser.ts";
import { SHIPPED, ticketBody } from "../test_utils.ts";

Deno.test({
  name:
    "GET /mi-pasaporte in Chromium: download my data, change the name, erase it all",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { ctx, origin, browser } = app;
    const context = await browser.newContext({
      locale: "es-MX",
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    // The erased route's page is a 404 the browser logs.
    watch.allow(/404/);

    // A guest passport in this browser, with two visits and a ticket.
    const opened = await page.request.post(`${origin}/api/session-token`, {
      data: { guest: true },
      headers: { origin },
    });
    const { token, userId } = await opened.json();
    const auth = { authorization: `Bearer ${token}` };
    for (const attraction of SHIPPED.attractions.slice(0, 2)) {
      const res = await page.request.post(
        `${origin}/api/turismo/verify-visit`,
        { data: { code: attraction.guideCode, userId }, headers: auth },
      );
      assert.equal(res.status(), 200);
    }
    const ticket = ticketBody({ name: "Rosa Elena Díaz" });
    const created = await page.request.post(`${origin}/api/turismo/ticket`, {
      data: ticket,
      headers: auth,
    });
    assert.equal(created.status(), 200);
    const code = ticket.shareCode.toLowerCase();

    await t.step("Descargar mis datos downloads the JSON file", async () => {
      await page.goto(`${origin}/mi-pasaporte`);
      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: "Descargar mis datos" }).click();
      const download = await downloading;
      assert.match(download.suggestedFilename(), /^mis-datos-.*\.json$/);
      const file = JSON.parse(await Deno.readTextFile(await download.path()));
      assert.equal(file.passport.userId, userId);
      assert.equal(file.visits.length, 2);
      assert.equal(file.tickets[0].email, ticket.email);
    });

    await t.step("the name on the route can be changed", async () => {
      await page.getByLabel("Nombre en tu ruta y tu tarjeta").fill(
        "Rosa E. Díaz",
      );
      await page.getByRole("button", { name: "Cambiar nombre" }).click();
      await page.getByText("Listo: tu ruta y tu tarjeta ahora muestran")
        .waitFor();
      await page.goto(`${origin}/ruta/${code}`);
      assert.match(
        await page.locator("h1").innerText(),
        /Rosa E\. Díaz/,
      );
    });

    await t.step(
      "erasing asks first, says 'en proceso', then 'listo', and the route is a 404",
      async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        await page.getByRole("link", {
          name: "Borrar mi pasaporte y mis datos",
        }).click();
        await page.getByRole("button", {
          name: "Sí, borrar mi pasaporte y mis datos",
        }).click();
        await page.waitForURL(/\/mi-pasaporte\/borrado\//);
        await page.locator('[data-erasure-state="pending"]').waitFor();
        ctx.clock.advance(ERASURE_CACHE_GRACE_MS);
        await ctx.deps.personalData.runPending();
        await page.getByRole("link", { name: "Ver si ya terminó" }).click();
        await page.locator('[data-erasure-state="done"]').waitFor();
        const res = await page.goto(`${origin}/ruta/${code}`);
        assert.equal(res?.status(), 404);
        const card = await page.request.get(
          `${origin}/api/turismo/og/${code}`,
        );
        assert.equal(card.status(), 404);
        assert.deepEqual(await context.cookies(origin), []);
      },
    );
    assert.deepEqual(watch.problems, []);
    assert.deepEqual(watch.dialogs, []);
  },
});
