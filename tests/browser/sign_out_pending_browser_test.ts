/**
 * Signing out with a stamp still pending, in headless Chromium with a
 * signed-in tourist (OpenID provider on loopback): a code typed while the
 * check-in could not reach the server waits in the device's queue, which
 * sign-out deletes. So sign-out sends it first; when it still cannot be
 * sent, the tourist is told it would be lost, in the page's language, and
 * may stay signed in. Skipped, with the reason printed, when Chromium is
 * missing.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { keys } from "@/lib/db/keys.ts";
import { browserSkipReason, cutCheckIns, launchBrowser } from "../browser.ts";
import { signInAtProvider, startAppWithProvider } from "../oidc_provider.ts";
import { countEntries } from "../kv_dump.ts";
import { SHIPPED } from "../test_utils.ts";

const [FIRST, SECOND] = SHIPPED.attractions;

/** How many visits KV holds. */
const countVisits = (kv: Deno.Kv) => countEntries(kv, keys.visits());

/** A new browser profile signed in as maria at the provider. */
async function signIn(
  browser: Browser,
  origin: string,
  lang: "es" | "en",
): Promise<{ context: BrowserContext; page: Page; dialogs: Dialogs }> {
  const context = await browser.newContext({
    locale: lang === "es" ? "es-MX" : "en-US",
  });
  const page = await context.newPage();
  const dialogs = watchDialogs(page);
  const passport = lang === "es" ? "/mi-pasaporte" : "/en/mi-pasaporte";
  await page.goto(`${origin}${passport}`);
  await signInAtProvider(page, {
    linkName: lang === "es" ? "Iniciar sesión" : "Sign in",
  });
  return { context, page, dialogs };
}

type Dialogs = { seen: string[]; accept: boolean; errors: string[] };

/** Records every dialog and answers it as `accept` says; records page errors. */
function watchDialogs(page: Page): Dialogs {
  const dialogs: Dialogs = { seen: [], accept: false, errors: [] };
  page.on("dialog", (dialog) => {
    dialogs.seen.push(`${dialog.type()}: ${dialog.message()}`);
    (dialogs.accept ? dialog.accept() : dialog.dismiss()).catch(() => {});
  });
  page.on("pageerror", (error) => dialogs.errors.push(String(error)));
  return dialogs;
}

/** How many check-ins wait in the device's queue. */
async function countPending(page: Page): Promise<number> {
  return await page.evaluate(() =>
    new Promise<number>((resolve, reject) => {
      const open = indexedDB.open("pasaporte-cola");
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (db.objectStoreNames.length === 0) return resolve(0);
        const store = db.transaction(db.objectStoreNames[0])
          .objectStore(db.objectStoreNames[0]);
        const all = store.getAll();
        all.onsuccess = () => {
          resolve(
            (all.result as { status: string }[])
              .filter((item) => item.status === "pending").length,
          );
          db.close();
        };
      };
    })
  );
}

Deno.test({
  name:
    "sign-out in Chromium with a stamp pending: sent first, or the tourist is told it would be lost and may stay",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startAppWithProvider();
    const { origin, ctx } = app;
    const kv = ctx.deps.kv;
    const browser = await launchBrowser();
    try {
      const { context, page, dialogs } = await signIn(browser, origin, "es");

      const checkIns = await cutCheckIns(page);
      await t.step(
        "a code typed while check-ins cannot go out is pending",
        async () => {
          await page.getByLabel("Código del atractivo").fill(FIRST.guideCode);
          await page.getByRole("button", { name: "Registrar mi visita" })
            .click();
          await page.locator(".verify-result")
            .getByText("No hay conexión: guardamos tu código").waitFor();
          assert.equal(await countPending(page), 1);
          assert.equal(await countVisits(kv), 0);
        },
      );

      await t.step(
        "still unsent at sign-out: the tourist is asked, says no, and stays signed in with the stamp pending",
        async () => {
          dialogs.accept = false;
          // Two taps while the first is being handled: one question, and
          // the second tap does not sign out behind it.
          await page.getByRole("button", { name: "Cerrar sesión" }).dblclick();
          for (let i = 0; i < 100 && dialogs.seen.length === 0; i++) {
            await page.waitForTimeout(100);
          }
          assert.deepEqual(dialogs.seen, [
            "confirm: Tienes 1 sello pendiente que aún no pudimos enviar. Si cierras sesión ahora, lo perderás. ¿Quieres cerrar sesión de todos modos?",
          ]);
          assert.equal(new URL(page.url()).pathname, "/mi-pasaporte");
          await page.reload();
          await page.getByText("Hola, Turista maria").waitFor();
          assert.equal(await countPending(page), 1);
          assert.equal(await countVisits(kv), 0);
        },
      );

      await t.step(
        "with the signal back, sign-out sends the stamp first and asks nothing",
        async () => {
          dialogs.seen.length = 0;
          // The page would also send it on its own at the next load or
          // `online` event: sign-out must not wait for either.
          checkIns.cut = false;
          await page.getByRole("button", { name: "Cerrar sesión" }).click();
          await page.waitForURL(`${origin}/`);
          assert.deepEqual(dialogs.seen, []);
          assert.equal(await countVisits(kv), 1);
          assert.deepEqual(dialogs.errors, []);
        },
      );
      await context.close();

      await t.step(
        "in English, two stamps unsent: told so in English; signing out anyway loses them",
        async () => {
          const english = await signIn(browser, origin, "en");
          const { page } = english;
          await cutCheckIns(page);
          for (
            const code of [SECOND.guideCode, SHIPPED.attractions[2].guideCode]
          ) {
            await page.getByLabel("Attraction code").fill(code);
            await page.getByRole("button", { name: "Check in" }).click();
            await page.locator(".verify-result")
              .getByText("You're offline: we saved your code").waitFor();
          }
          assert.equal(await countPending(page), 2);
          english.dialogs.accept = true;
          await page.getByRole("button", { name: "Sign out" }).click();
          await page.waitForURL(`${origin}/en/`);
          assert.deepEqual(english.dialogs.seen, [
            "confirm: You have 2 pending stamps we couldn't send yet. If you sign out now, you'll lose them. Sign out anyway?",
          ]);
          assert.equal(await countPending(page), 0);
          assert.equal(await countVisits(kv), 1);
          assert.deepEqual(english.dialogs.errors, []);
          await english.context.close();
        },
      );
    } finally {
      await browser.close();
    }
  },
});
