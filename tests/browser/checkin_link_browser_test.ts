/**
 * A poster's QR link in Chromium, with the page cache on as the service
 * runs it: the code fills the check-in field, leaves the address bar, stays
 * with the tourist when they switch to English, and never reaches the next
 * visitor of the same (cached) page. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import {
  browserSkipReason,
  PHONE,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const [PLAZA] = SHIPPED.attractions;

Deno.test({
  name:
    "a poster's ?codigo= link in Chromium: filled in, off the address, kept across languages, never shared",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp({ cachePages: true });
    const { origin, browser } = running;
    const page = `/turismo/atractivos/${PLAZA.slug}`;
    const tourist = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
      hasTouch: true,
      isMobile: true,
    });
    const tab = await tourist.newPage();
    const watch = watchPage(tab, origin);

    await t.step(
      "the code fills the field and leaves the address bar; other parameters stay",
      async () => {
        await tab.goto(
          `${origin}${page}?codigo=${PLAZA.guideCode.toLowerCase()}&utm_source=cartel`,
        );
        await tab.getByText(`Tienes el código de ${PLAZA.name}`).waitFor();
        assert.equal(
          await tab.getByLabel("Código del atractivo").inputValue(),
          PLAZA.guideCode,
        );
        await tab.waitForFunction(() => !location.search.includes("codigo"));
        assert.equal(tab.url(), `${origin}${page}?utm_source=cartel`);
        assert.equal(
          await tab.locator('nav.lang-switch a[hreflang="en"]').getAttribute(
            "href",
          ),
          `/en${page}`,
        );
      },
    );

    await t.step(
      "the same page in English still has it, in this tab only",
      async () => {
        await tab.locator('nav.lang-switch a[hreflang="en"]').click();
        await tab.waitForURL(`${origin}/en${page}`);
        // The attraction's English name, from the data set's translation.
        await tab.getByText(/^You have the code for .+\. Confirm your visit:$/)
          .waitFor();
        assert.equal(
          await tab.getByLabel("Attraction code").inputValue(),
          PLAZA.guideCode,
        );
      },
    );

    await t.step(
      "another visitor of the cached page gets an empty field",
      async () => {
        const other = await browser.newContext({ locale: "es-MX" });
        const theirs = await other.newPage();
        await theirs.goto(`${origin}${page}`);
        const field = theirs.getByLabel("Código del atractivo");
        await theirs.locator(".check-in button[type=submit]:not([disabled])")
          .waitFor();
        assert.equal(await field.inputValue(), "");
        assert.equal(await theirs.getByText("Tienes el código de").count(), 0);
        assert.ok(!(await theirs.content()).includes(PLAZA.guideCode));
        await other.close();
      },
    );

    await t.step(
      "once the visit is registered the code is forgotten",
      async () => {
        await tab.locator(".check-in button[type=submit]:not([disabled])")
          .tap();
        await tab.locator(".check-in .notice--ok").waitFor();
        await tab.reload();
        // The page now shows the stamp instead of the form.
        await tab.locator(".check-in .stamp--verified").waitFor();
        assert.equal(await tab.getByLabel("Attraction code").count(), 0);
        assert.equal(await tab.getByText("You have the code for").count(), 0);
        assert.equal(
          await tab.evaluate(
            (slug) => sessionStorage.getItem(`codigo:${slug}`),
            PLAZA.slug,
          ),
          null,
        );
        assert.deepEqual(watch.problems, []);
        await tourist.close();
      },
    );
  },
});
