/**
 * The attraction list and the home page in headless Chromium mark the
 * places in the device's passport (the StampMarks island over
 * client/device_passport.ts): "Sellado" on exactly the places checked in,
 * "Pendiente" on one whose check-in waits on the device, online and with
 * the network off, in both languages, with axe at zero. Skipped, with the
 * reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import {
  assertAxeClean,
  browserSkipReason,
  cutCheckIns,
  PHONE,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const [FIRST, SECOND, THIRD] = SHIPPED.attractions;

/** Each marked card's name, with its mark's words, as the page shows them. */
function readMarks(page: Page): Promise<Record<string, string>> {
  return page.locator("article.card").evaluateAll((cards) =>
    Object.fromEntries(cards.flatMap((card) => {
      const mark = card.querySelector(".card__stamp")?.textContent?.trim();
      const name = card.querySelector(".card__title")?.textContent?.trim();
      return mark && name ? [[name, mark]] : [];
    }))
  );
}

/** Waits until `count` cards carry a mark (the island reads IndexedDB after hydrating). */
async function waitForMarks(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelectorAll(".card__stamp .stamp-mark").length === n,
    count,
  );
}

/** Types a guide code in the passport's form and waits for its answer. */
async function checkIn(page: Page, code: string, name: string): Promise<void> {
  await page.getByLabel("Código del atractivo").fill(code);
  await page.getByRole("button", { name: "Registrar mi visita" }).click();
  await page.locator(".verify-result")
    .getByText(`¡Visita registrada: ${name}!`).waitFor();
}

/** Whether the service worker controls the page (helper B's offline mode). */
async function waitForWorker(page: Page): Promise<boolean> {
  return await page.evaluate(async () => {
    if (!("serviceWorker" in navigator)) return false;
    const registration = await Promise.race([
      navigator.serviceWorker.ready,
      // Its install warms twenty pages one at a time: slow on a busy machine.
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 30_000)),
    ]);
    return registration !== null;
  });
}

Deno.test({
  name:
    "the attraction list in Chromium marks the places in the device's passport: stamped and pending, online and offline, both languages, axe at zero",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { origin, browser } = app;
    // axe is injected as a script: this context only bypasses the CSP.
    const context: BrowserContext = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
      bypassCSP: true,
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);

    let checkIns: { cut: boolean } | undefined;

    await t.step("a new visitor's list has no marks", async () => {
      await page.goto(`${origin}/turismo/atractivos`);
      await page.locator('[data-island="StampMarks"]').waitFor({
        state: "attached",
      });
      await page.waitForLoadState("load");
      assert.deepEqual(await readMarks(page), {});
      assert.equal(await page.locator(".stamp-summary").count(), 0);
    });

    await t.step(
      "two codes typed on the passport: exactly those two places are «Sellado» on the list",
      async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        await checkIn(page, FIRST.guideCode, FIRST.name);
        await checkIn(page, SECOND.guideCode, SECOND.name);
        await page.goto(`${origin}/turismo/atractivos`);
        await waitForMarks(page, 2);
        assert.deepEqual(await readMarks(page), {
          [FIRST.name]: "Sellado",
          [SECOND.name]: "Sellado",
        });
        assert.equal(
          await page.locator(".stamp-summary").innerText(),
          "En tu pasaporte: 2 lugares sellados.",
        );
        // Words, not colour alone: the mark is text a screen reader reads
        // after the place's name.
        const card = page.locator("article.card", { hasText: FIRST.name });
        assert.match(await card.innerText(), /Sellado/);
        await page.locator(".stamp-summary").scrollIntoViewIfNeeded();
        await saveScreenshot(page, "stamp-marks-list", { fullPage: false });
      },
    );

    await t.step("the home page's compact list is marked too", async () => {
      await page.goto(`${origin}/`);
      await page.waitForFunction(
        () =>
          document.querySelectorAll(".place-list__stamp .stamp-mark").length ===
            2,
      );
      const marks = await page.locator(".place-list__item").evaluateAll((
        items,
      ) =>
        Object.fromEntries(items.flatMap((item) => {
          const mark = item.querySelector(".place-list__stamp")?.textContent
            ?.trim();
          const name = item.querySelector(".place-list__link > span")
            ?.textContent?.trim();
          return mark && name ? [[name, mark]] : [];
        }))
      );
      assert.deepEqual(marks, {
        [FIRST.name]: "Sellado",
        [SECOND.name]: "Sellado",
      });
    });

    await t.step(
      "a check-in that could not be sent from an attraction's page is «Pendiente» on the list",
      async () => {
        // The network fails for the check-in only: it waits on the device.
        checkIns = await cutCheckIns(context);
        watch.allow(/net::ERR_FAILED/);
        await page.goto(`${origin}/turismo/atractivos/${THIRD.slug}`);
        const form = page.locator('[data-island="CheckIn"]');
        await form.getByLabel("Código del atractivo").fill(THIRD.guideCode);
        await form.getByRole("button", { name: "Registrar mi visita" }).click();
        await form.getByText("Sello pendiente").waitFor();
        await page.goto(`${origin}/turismo/atractivos`);
        await waitForMarks(page, 3);
        assert.deepEqual(await readMarks(page), {
          [FIRST.name]: "Sellado",
          [SECOND.name]: "Sellado",
          [THIRD.name]: "Pendiente",
        });
        assert.equal(
          await page.locator(".stamp-summary").innerText(),
          "En tu pasaporte: 2 lugares sellados y 1 pendiente de enviar.",
        );
        await assertAxeClean(page, "the marked list");
        checkIns!.cut = false;
      },
    );

    await t.step(
      "with the network off the list still shows the same marks",
      async () => {
        const hasWorker = await waitForWorker(page);
        assert.ok(hasWorker, "the service worker controls the page");
        // Once controlled, the worker has the list for offline use.
        await page.reload();
        await waitForMarks(page, 3);
        await context.setOffline(true);
        try {
          await page.goto(`${origin}/turismo/atractivos`);
          await waitForMarks(page, 3);
          assert.deepEqual(await readMarks(page), {
            [FIRST.name]: "Sellado",
            [SECOND.name]: "Sellado",
            [THIRD.name]: "Pendiente",
          });
        } finally {
          await context.setOffline(false);
        }
      },
    );

    await t.step(
      "in English the marks say «Stamped» and «Pending», axe at zero",
      async () => {
        checkIns!.cut = true;
        await page.goto(`${origin}/en/turismo/atractivos`);
        await waitForMarks(page, 3);
        const marks = Object.values(await readMarks(page)).sort();
        assert.deepEqual(marks, ["Pending", "Stamped", "Stamped"]);
        assert.equal(
          await page.locator(".stamp-summary").innerText(),
          "In your passport: 2 places stamped and 1 waiting to be sent.",
        );
        await assertAxeClean(page, "the marked list in English");
        checkIns!.cut = false;
      },
    );

    await t.step(
      "erasing the passport clears the device: the list has no marks",
      async () => {
        await page.goto(`${origin}/mi-pasaporte/borrar`);
        await page.getByRole("button", {
          name: "Sí, borrar mi pasaporte y mis datos",
        }).click();
        await page.waitForURL(/\/mi-pasaporte\/borrado\//);
        await page.goto(`${origin}/turismo/atractivos`);
        await page.waitForLoadState("load");
        // Nothing left on the device: no stamp saved, no check-in queued.
        const left = await page.evaluate(async () => {
          const count = async (name: string, store: string) => {
            const known = await indexedDB.databases();
            if (!known.some((db) => db.name === name)) return 0;
            return await new Promise<number>((resolve, reject) => {
              const open = indexedDB.open(name);
              open.onerror = () => reject(open.error);
              open.onsuccess = () => {
                const db = open.result;
                const request = db.transaction(store).objectStore(store)
                  .count();
                request.onsuccess = () => {
                  db.close();
                  resolve(request.result);
                };
              };
            });
          };
          return [
            await count("pasaporte-sello", "stamps"),
            await count("pasaporte-cola", "check-ins"),
          ];
        });
        assert.deepEqual(left, [0, 0]);
        assert.deepEqual(await readMarks(page), {});
        assert.equal(await page.locator(".stamp-summary").count(), 0);
      },
    );

    await t.step("nothing went wrong on the pages", () => {
      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
    });
    await context.close();
  },
});
