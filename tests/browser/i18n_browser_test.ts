/**
 * The languages in headless Chromium, against the real app on a loopback
 * port: the switcher keeps the visitor on the same page (query too), a
 * browser that prefers English is offered the English page on a Spanish
 * one and is never redirected, and the choice (accepting, dismissing,
 * switching) is remembered. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  startBrowserApp,
  watchPage,
} from "../browser.ts";

const ATTRACTION = "/turismo/atractivos/plaza-principal";

Deno.test({
  name:
    "languages in Chromium: the switcher keeps the page, an English browser is offered English and never redirected",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { origin, browser } = app;

    /** Opens `path`, asserts it answered without a redirect, and waits for the islands. */
    async function open(page: Page, path: string) {
      const response = await page.goto(`${origin}${path}`);
      assert.equal(response?.status(), 200, path);
      assert.equal(response?.request().redirectedFrom(), null, path);
      // The islands' modules loaded and ran (the offer shows right after).
      await page.waitForLoadState("networkidle");
      await page.waitForTimeout(100);
    }

    await t.step(
      "an English browser on a Spanish page is offered the English page, in English, and stays put",
      async () => {
        const context = await browser.newContext({
          locale: "en-US",
          viewport: PHONE,
          // The CSP forbids the injected axe script: this context only.
          bypassCSP: true,
        });
        const page = await context.newPage();
        const watch = watchPage(page, origin);
        await open(page, ATTRACTION);
        const offer = page.locator(".lang-offer");
        await offer.waitFor();
        assert.equal(await offer.getAttribute("lang"), "en");
        assert.match(
          await offer.innerText(),
          /This page is also available in English\./,
        );
        assert.equal(page.url(), `${origin}${ATTRACTION}`);
        assert.equal(
          await page.locator("html").getAttribute("lang"),
          "es-MX",
        );
        // Nothing to fix for axe with the offer shown.
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));

        await page.getByRole("link", { name: "Read it in English" }).click();
        await page.waitForURL(`${origin}/en${ATTRACTION}`);
        await page.waitForLoadState("networkidle");
        assert.equal(
          await page.locator("html").getAttribute("lang"),
          "en-US",
        );
        assert.equal(await page.locator(".lang-offer").count(), 0);

        // The switcher leads back to the same page in Spanish; the choice
        // is remembered, so no offer there now.
        await page.locator('nav.lang-switch a[hreflang="es"]').click();
        await page.waitForURL(`${origin}${ATTRACTION}`);
        await page.waitForLoadState("networkidle");
        await page.waitForTimeout(200);
        assert.equal(
          await page.locator("html").getAttribute("lang"),
          "es-MX",
        );
        assert.equal(await page.locator(".lang-offer").count(), 0);
        assert.equal(
          await page.evaluate(() => localStorage.getItem("portal-idioma")),
          "es",
        );
        assert.deepEqual(watch.problems, []);
        await context.close();
      },
    );

    await t.step(
      "dismissing the offer keeps the page and is remembered on the next pages",
      async () => {
        const context = await browser.newContext({ locale: "en-GB" });
        const page = await context.newPage();
        await open(page, "/turismo/atractivos?categoria=museo");
        await page.getByRole("button", { name: "No, thanks" }).click();
        assert.equal(await page.locator(".lang-offer").count(), 0);
        assert.equal(
          page.url(),
          `${origin}/turismo/atractivos?categoria=museo`,
        );
        await open(page, "/");
        await page.waitForTimeout(200);
        assert.equal(await page.locator(".lang-offer").count(), 0);
        await context.close();
      },
    );

    await t.step(
      "a Spanish browser is offered nothing on a Spanish page, and Spanish on an English one",
      async () => {
        const context = await browser.newContext({ locale: "es-MX" });
        const page = await context.newPage();
        await open(page, "/");
        await page.waitForTimeout(200);
        assert.equal(await page.locator(".lang-offer").count(), 0);
        await open(page, "/en/turismo/atractivos");
        const offer = page.locator(".lang-offer");
        await offer.waitFor();
        assert.equal(await offer.getAttribute("lang"), "es");
        assert.match(
          await offer.innerText(),
          /Esta página también está en español\./,
        );
        assert.equal(
          await offer.getByRole("link").getAttribute("href"),
          "/turismo/atractivos",
        );
        await context.close();
      },
    );

    await t.step(
      "the switcher keeps the page and its query",
      async () => {
        const context = await browser.newContext({ locale: "es-MX" });
        const page = await context.newPage();
        await open(page, "/turismo/atractivos?categoria=museo");
        await page.getByRole("navigation", { name: "Idioma" })
          .getByRole("link", { name: "English" }).click();
        await page.waitForURL(
          `${origin}/en/turismo/atractivos?categoria=museo`,
        );
        assert.equal(
          await page.locator(".filters a[aria-current=page]").innerText(),
          await page.locator(".filters a[href$='categoria=museo']")
            .innerText(),
        );
        assert.match(await page.locator("h1").innerText(), /^Museum: /);
        await context.close();
      },
    );
  },
});
