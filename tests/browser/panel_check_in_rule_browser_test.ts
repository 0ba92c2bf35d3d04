/**
 * How visits are checked in at an attraction, switched on its console page
 * in headless Chromium: an admin chooses position only and a radius, the
 * page says so after the save, the record is in KV, axe finds nothing
 * (on a phone too), and a too-small radius typed past the field's limits is
 * refused on the page without a change.
 */
import assert from "node:assert/strict";
import { getCheckInMethodRecord } from "@/lib/db/check_in_methods.ts";
import {
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED, signInStaff } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };
const PLAZA = SHIPPED.attractions[0];

Deno.test({
  name: "the check-in rule in Chromium: an admin switches the method",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp({});
    const { ctx, origin, browser } = app;
    const cookie = await signInStaff(ctx, { role: "admin" });
    const [name, value] = cookie.split("=");
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: DESKTOP,
      bypassCSP: true,
    });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    const path = `/panel/atractivos/${PLAZA.slug}`;
    const section = page.getByRole("region", {
      name: "Cómo se registra la visita",
    });

    await t.step("axe at zero on the page with the form", async () => {
      await page.goto(`${origin}${path}`);
      assert.match(await section.innerText(), /con código/);
      const violations = await runAxe(page);
      assert.deepEqual(violations, [], describeViolations(violations));
    });

    await t.step("the admin switches to position only, 250 m", async () => {
      await section.getByLabel("Forma de registro").selectOption("gps");
      await section.getByLabel(/Radio en metros/).fill("250");
      await section.getByRole("button", { name: "Guardar" }).click();
      await page.waitForURL(`${origin}${path}?registro=listo#registro`);
      await page.getByRole("status").filter({ hasText: "Listo" }).waitFor();
      const text = await section.innerText();
      assert.match(text, /solo con ubicación dentro de 250 m/);
      assert.equal(
        await section.getByLabel("Forma de registro").inputValue(),
        "gps",
      );
      const record = await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug);
      assert.deepEqual(
        { method: record?.method, radiusM: record?.radiusM },
        { method: "gps", radiusM: 250 },
      );
      const violations = await runAxe(page);
      assert.deepEqual(violations, [], describeViolations(violations));
    });

    await t.step(
      "a radius under 25 m is refused, nothing changes",
      async () => {
        await page.setViewportSize(PHONE);
        await page.goto(`${origin}${path}`);
        const radius = section.getByLabel(/Radio en metros/);
        // Past the browser's own check, as a script or an old browser would.
        await radius.evaluate((input: HTMLInputElement) => {
          input.removeAttribute("min");
          input.value = "10";
        });
        await section.getByLabel("Forma de registro").selectOption(
          "gps-or-code",
        );
        await section.getByRole("button", { name: "Guardar" }).click();
        const alert = page.getByRole("alert");
        await alert.waitFor();
        assert.match(await alert.innerText(), /de 25 a 2000/);
        const record = await getCheckInMethodRecord(ctx.deps.kv, PLAZA.slug);
        assert.equal(record?.method, "gps");
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));
      },
    );

    // The refused radius's 400 is the page's answer, not a fault.
    assert.deepEqual(
      watch.problems.filter((p) => !/status of 400 .*\/registro\)$/.test(p)),
      [],
    );
  },
});
