/**
 * A browser that keeps nothing on the device (IndexedDB refused, as in some
 * private modes and in-app browsers), in headless Chromium: a check-in
 * cannot wait in the queue there, so the attraction page and the passport
 * send it at once. A code and "Estoy aquí" are recorded with the signal;
 * with none, the tourist is told to try again, and nothing is recorded.
 * Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { keys } from "@/lib/db/keys.ts";
import {
  browserSkipReason,
  PHONE,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { countEntries } from "../kv_dump.ts";
import { SHIPPED } from "../test_utils.ts";

const [PLAZA, SECOND, THIRD] = SHIPPED.attractions;
const BARRANCA = SHIPPED.attractions.find((a) =>
  a.slug === "barranca-de-tequila"
)!;

/** How many visits KV holds. */
const countVisits = (kv: Deno.Kv) => countEntries(kv, keys.visits());

Deno.test({
  name:
    "no IndexedDB in Chromium: a code and «Estoy aquí» are sent at once; with no signal the tourist is told to try again",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp();
    const { ctx, origin, browser } = running;
    const kv = ctx.deps.kv;
    /**
     * A phone that refuses IndexedDB to every page, as a locked-down
     * browser does (opening a database throws), standing at `at`.
     */
    async function openPhone(at?: { lat: number; lng: number }) {
      const context: BrowserContext = await browser.newContext({
        locale: "es-MX",
        viewport: PHONE,
        hasTouch: true,
        isMobile: true,
        ...(at
          ? {
            permissions: ["geolocation"],
            geolocation: { latitude: at.lat, longitude: at.lng, accuracy: 20 },
          }
          : {}),
      });
      await context.addInitScript(() => {
        Object.defineProperty(globalThis, "indexedDB", {
          configurable: true,
          get() {
            throw new DOMException(
              "A mutation operation was attempted on a database that did not allow mutations.",
              "InvalidStateError",
            );
          },
        });
      });
      const page: Page = await context.newPage();
      const watch = watchPage(page, origin);
      watch.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch/);
      return { context, page, watch };
    }
    const { context, page, watch } = await openPhone();
    const checkIn = page.locator(".check-in");
    const ready = (on: Page = page) =>
      on.locator(".check-in button:not([disabled])").first().waitFor();

    await t.step("a code on the attraction's page is recorded", async () => {
      await page.goto(`${origin}/turismo/atractivos/${PLAZA.slug}`);
      assert.equal(
        await page.evaluate(() => {
          try {
            return typeof indexedDB;
          } catch {
            return "refused";
          }
        }),
        "refused",
      );
      await ready();
      await page.getByLabel("Código del atractivo").fill(PLAZA.guideCode);
      await page.getByRole("button", { name: "Registrar mi visita" }).click();
      await checkIn.getByText(`¡Listo! Registramos tu visita a ${PLAZA.name}.`)
        .waitFor();
      await checkIn.locator(".rating-form").waitFor();
      assert.equal(await countVisits(kv), 1);
    });

    await t.step(
      "with no signal: told to try again, the code kept in the field, nothing recorded",
      async () => {
        await page.goto(`${origin}/turismo/atractivos/${SECOND.slug}`);
        await ready();
        await context.setOffline(true);
        await page.getByLabel("Código del atractivo").fill(SECOND.guideCode);
        await page.getByRole("button", { name: "Registrar mi visita" })
          .click();
        await checkIn.getByText(
          "No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.",
        ).waitFor();
        assert.equal(
          await page.getByLabel("Código del atractivo").inputValue(),
          SECOND.guideCode,
        );
        assert.equal(await checkIn.getByText("Sello pendiente").count(), 0);
        await context.setOffline(false);
        await page.getByRole("button", { name: "Registrar mi visita" })
          .click();
        await checkIn.getByText(
          `¡Listo! Registramos tu visita a ${SECOND.name}.`,
        ).waitFor();
        assert.equal(await countVisits(kv), 2);
      },
    );

    await t.step("a code on the passport is recorded", async () => {
      await page.goto(`${origin}/mi-pasaporte`);
      await page.getByLabel("Código del atractivo").fill(THIRD.guideCode);
      await page.getByRole("button", { name: "Registrar mi visita" }).click();
      await page.locator(".visit-list > li", { hasText: THIRD.name })
        .waitFor();
      assert.equal(await countVisits(kv), 3);
      assert.deepEqual(watch.problems, []);
    });
    await t.step(
      "«Estoy aquí» where the place takes a position (another tourist)",
      async () => {
        const there = await openPhone(BARRANCA.location);
        await there.page.goto(`${origin}/turismo/atractivos/${BARRANCA.slug}`);
        await ready(there.page);
        await there.page.getByRole("button", { name: "Estoy aquí" }).click();
        await there.page.locator(".check-in").getByText(
          `¡Listo! Registramos tu visita a ${BARRANCA.name}.`,
        ).waitFor();
        await there.page.locator(".check-in .rating-form").waitFor();
        assert.equal(await countVisits(kv), 4);
        assert.deepEqual(there.watch.problems, []);
        await there.context.close();
      },
    );
    await context.close();
  },
});
