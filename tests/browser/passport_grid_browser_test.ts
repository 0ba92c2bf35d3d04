/**
 * "Mi pasaporte"'s stamp grid in headless Chromium: the 17 stamps before the
 * list, each collected, pending or missing in words, with its link; a code
 * typed with no network shown at once as waiting, sent when the network
 * returns; the counts right at each step; it fits a 360 px phone; axe at
 * zero. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  browserSkipReason,
  cutCheckIns,
  describeViolations,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const ATTRACTIONS = SHIPPED.attractions;
const [FIRST, SECOND, THIRD, FOURTH] = ATTRACTIONS;

/** Each stamp of the grid: its name, its state in words and its link. */
function readGrid(
  page: Page,
): Promise<{ name: string; state: string; href: string }[]> {
  return page.locator(".stamp-grid > li").evaluateAll((items) =>
    items.map((item) => ({
      name: item.querySelector(".stamp-cell__name")?.textContent ?? "",
      state: item.querySelector(".stamp-cell__state")?.textContent ?? "",
      href: item.querySelector("a")?.getAttribute("href") ?? "",
    }))
  );
}

/** The states of the grid by name, for the stamps that are not missing. */
async function readStamped(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(
    (await readGrid(page))
      .filter((stamp) => stamp.state !== "Sin sello")
      .map((stamp) => [stamp.name, stamp.state]),
  );
}

async function waitForCounts(page: Page, text: string): Promise<void> {
  await page.locator(".stamps__summary", { hasText: text }).waitFor();
}

Deno.test({
  name:
    "GET /mi-pasaporte in Chromium: the grid of 17 stamps (collected, pending, missing) before the list, a code typed offline pending then sent, 360 px, axe at zero",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { origin, browser } = app;
    // axe is injected as a script: this context only bypasses the CSP.
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: { width: 360, height: 780 },
      bypassCSP: true,
    });
    const page = await context.newPage();
    const watch = watchPage(page, origin);

    await t.step(
      "a new passport shows 17 stamps, all missing, each linking its page, before the list of visits",
      async () => {
        await page.goto(`${origin}/mi-pasaporte`);
        const grid = await readGrid(page);
        assert.deepEqual(
          grid.map((stamp) => stamp.name),
          ATTRACTIONS.map((a) => a.name),
        );
        assert.ok(grid.every((stamp) => stamp.state === "Sin sello"));
        assert.deepEqual(
          grid.map((stamp) => stamp.href),
          ATTRACTIONS.map((a) => `/turismo/atractivos/${a.slug}`),
        );
        await waitForCounts(
          page,
          "0 sellados, 0 pendientes y 17 por conseguir.",
        );
        const order = await page.locator("h2").allInnerTexts();
        assert.ok(
          order.indexOf("Tus sellos") < order.indexOf("Mis visitas"),
          order.join(" | "),
        );
      },
    );

    await t.step("two codes typed: two stamps collected", async () => {
      for (const attraction of [FIRST, SECOND]) {
        await page.getByLabel("Código del atractivo").fill(
          attraction.guideCode,
        );
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await page.locator(".verify-result")
          .getByText(`¡Visita registrada: ${attraction.name}!`).waitFor();
      }
      await waitForCounts(page, "2 sellados, 0 pendientes y 15 por conseguir.");
      assert.deepEqual(await readStamped(page), {
        [FIRST.name]: "Sellado",
        [SECOND.name]: "Sellado",
      });
    });

    await t.step(
      "a check-in that could not be sent from an attraction's page is pending in the grid",
      async () => {
        const checkIns = await cutCheckIns(context);
        watch.allow(/net::ERR_FAILED/);
        await page.goto(`${origin}/turismo/atractivos/${THIRD.slug}`);
        const form = page.locator('[data-island="CheckIn"]');
        await form.getByLabel("Código del atractivo").fill(THIRD.guideCode);
        await form.getByRole("button", { name: "Registrar mi visita" }).click();
        await form.getByText("Sello pendiente").waitFor();
        await page.goto(`${origin}/mi-pasaporte`);
        await waitForCounts(
          page,
          "2 sellados, 1 pendiente y 14 por conseguir.",
        );
        assert.deepEqual(await readStamped(page), {
          [FIRST.name]: "Sellado",
          [SECOND.name]: "Sellado",
          [THIRD.name]: "Pendiente",
        });
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        await page.evaluate(() =>
          scrollTo(0, document.getElementById("sellos-titulo")!.offsetTop)
        );
        await saveScreenshot(page, "passport-stamp-grid-360", {
          fullPage: false,
        });
        checkIns.cut = false;
      },
    );

    await t.step(
      "the grid fits a 360 px phone: no sideways scroll, every stamp at least 44 px tall",
      async () => {
        const sizes = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          stamps: Array.from(
            document.querySelectorAll(".stamp-grid a"),
            (a) => a.getBoundingClientRect(),
          ).map((r) => ({ right: r.right, height: r.height })),
        }));
        assert.ok(sizes.page <= 360, `page is ${sizes.page} px wide`);
        for (const stamp of sizes.stamps) {
          assert.ok(stamp.right <= 360 && stamp.height >= 44);
        }
      },
    );

    await t.step(
      "a code typed with no network waits on the device, then is sent when the network returns",
      async () => {
        await context.setOffline(true);
        await page.getByLabel("Código del atractivo").fill(FOURTH.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" }).click();
        await page.locator(".verify-result")
          .getByText("No hay conexión: guardamos tu código").waitFor();
        // Which attraction a code is for is the server's to say: counts stay.
        await waitForCounts(
          page,
          "2 sellados, 1 pendiente y 14 por conseguir.",
        );
        const violations = await runAxe(page);
        assert.deepEqual(violations, [], describeViolations(violations));
        await context.setOffline(false);
        // Back online, the page sends what waits: both stamps collected.
        await waitForCounts(
          page,
          "4 sellados, 0 pendientes y 13 por conseguir.",
        );
        assert.deepEqual(await readStamped(page), {
          [FIRST.name]: "Sellado",
          [SECOND.name]: "Sellado",
          [THIRD.name]: "Sellado",
          [FOURTH.name]: "Sellado",
        });
        assert.match(
          await page.locator(".passport").innerText(),
          /Visitaste 4 de 17 atractivos/,
        );
      },
    );

    await t.step(
      "a rating saved on the passport is kept in the device's passport",
      async () => {
        const first = page.locator(".visit-list > li", { hasText: FIRST.name });
        await first.getByRole("button", { name: /^Calificar/ }).click();
        await first.getByRole("radio", { name: "4 estrellas" }).check();
        await first.getByRole("button", { name: "Guardar calificación" })
          .click();
        await first.getByText("Guardamos tu calificación.").waitFor();
        await page.waitForFunction(async (slug) => {
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open("pasaporte-sello");
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          const stamp = await new Promise<{ rating?: number } | undefined>(
            (resolve) => {
              const get = db.transaction("stamps").objectStore("stamps")
                .get(slug);
              get.onsuccess = () => resolve(get.result);
            },
          );
          db.close();
          return stamp?.rating === 4;
        }, FIRST.slug);
      },
    );

    await t.step("in English the grid says so in English", async () => {
      await page.goto(`${origin}/en/mi-pasaporte`);
      await waitForCounts(
        page,
        "4 stamped, 0 pending and 13 still to collect.",
      );
      const states = new Set((await readGrid(page)).map((s) => s.state));
      assert.deepEqual([...states].sort(), ["Not yet", "Stamped"]);
      const violations = await runAxe(page);
      assert.deepEqual(violations, [], describeViolations(violations));
    });

    await t.step("nothing went wrong on the pages", () => {
      assert.deepEqual(watch.problems, []);
      assert.deepEqual(watch.dialogs, []);
    });
    await context.close();
  },
});
