/**
 * The partner business's page in Chromium on a phone (390 × 844): the PIN
 * signs in, a tourist's current code shows "Válido" with the prize, an old
 * code (a screenshot) shows "caducado"; axe finds nothing on the sign-in
 * page or on the result.
 */
import assert from "node:assert/strict";
import {
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  startBrowserApp,
  watchPage,
} from "@/tests/browser.ts";
import { counterCode } from "@/lib/prizes/counter_code.ts";
import { seedClaim, seedPartner } from "@/tests/rewards_fixtures.ts";

Deno.test({
  name: "the partner page on a phone: PIN, Válido, caducado, axe-clean",
  ignore: browserSkipReason !== undefined,
  async fn() {
    await using app = await startBrowserApp();
    const { ctx, origin, browser } = app;
    const { prize, pin } = await seedPartner(ctx);
    const fresh = await seedClaim(ctx, prize);
    const screenshot = await seedClaim(ctx, prize);
    // The page's clock is the real one: codes are computed at Date.now().
    ctx.clock.advance(Date.now() - ctx.clock.now().getTime());

    // The CSP forbids the injected axe script: this context only.
    const context = await browser.newContext({
      viewport: PHONE,
      bypassCSP: true,
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    // The stale code's answer is a 422 page, as it should be.
    watch.allow(/status of 422 .*\/socio\/canjear/);
    await page.goto(`${origin}/socio`);
    const signIn = await runAxe(page);
    assert.equal(signIn.length, 0, describeViolations(signIn));

    await page.getByLabel("PIN del comercio").fill(pin);
    await page.getByRole("button", { name: "Entrar" }).click();
    await page.getByRole("heading", { name: "Café La Parroquia" }).waitFor();

    const now = await counterCode(fresh.claim, ctx.clock.now().getTime());
    await page.getByLabel("Código del cliente").fill(
      `${now.reference} ${now.digits}`,
    );
    await page.getByRole("button", { name: "Comprobar y canjear" }).click();
    await page.getByRole("heading", { name: "Válido: 10 % de descuento" })
      .waitFor();
    const result = await runAxe(page);
    assert.equal(result.length, 0, describeViolations(result));
    assert.ok(
      (await page.evaluate(() => document.documentElement.scrollWidth)) <=
        PHONE.width,
      "no sideways scrolling at 390 px",
    );

    const old = await counterCode(
      screenshot.claim,
      ctx.clock.now().getTime() - 180_000,
    );
    await page.getByLabel("Código del cliente").fill(
      `${old.reference}-${old.digits}`,
    );
    await page.getByRole("button", { name: "Comprobar y canjear" }).click();
    await page.getByRole("heading", { name: "Código caducado" }).waitFor();
    const stale = await runAxe(page);
    assert.equal(stale.length, 0, describeViolations(stale));
    assert.deepEqual(watch.problems, []);
    await context.close();
  },
});
