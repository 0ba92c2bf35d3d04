/**
 * No guide code stays on the phone, in Chromium with the service worker in
 * control: a sign's QR link (`?codigo=`) opened and checked in, a code typed
 * on the passport and verified, one refused. Afterwards every Cache Storage
 * key, response URL, header and text body, every IndexedDB record (the
 * queue's, the stamps', Workbox's), both Web Storages and the address are
 * read in the page, and none holds a code. With no signal, a sign's link
 * still opens its page (kept without the code) with the code filled in.
 * Skipped, with the reason
 * printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import {
  browserSkipReason,
  PHONE,
  startBrowserApp,
  waitUntilKeptOffline,
  watchPage,
} from "../browser.ts";
import { SHIPPED } from "../test_utils.ts";

const [PLAZA, SECOND, THIRD] = SHIPPED.attractions;

/** One place the page can read, and what it holds, as text. */
type Found = { where: string; text: string };

/**
 * Everything the page can read of what the phone keeps for the site. Runs
 * in the page: self-contained. A body is read when it is text (a font or
 * an icon is not where a code would go).
 */
async function readPhone(): Promise<Found[]> {
  const found: Found[] = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      const type = response?.headers.get("content-type") ?? "";
      const body = response && /text|json|javascript|svg|xml/.test(type)
        ? await response.text()
        : "";
      found.push({
        where: `Cache Storage "${name}": ${request.url}`,
        text: [
          request.url,
          response?.url ?? "",
          JSON.stringify([...(response?.headers ?? [])]),
          body,
        ].join("\n"),
      });
    }
  }
  const settle = <T>(request: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const db = await settle(indexedDB.open(name));
    for (const store of [...db.objectStoreNames]) {
      const tx = db.transaction(store);
      const [keys, values] = await Promise.all([
        settle(tx.objectStore(store).getAllKeys()),
        settle(tx.objectStore(store).getAll()),
      ]);
      found.push({
        where: `IndexedDB "${name}" / "${store}" (${values.length} records)`,
        text: JSON.stringify({ keys, values }),
      });
    }
    db.close();
  }
  found.push({
    where: "localStorage",
    text: JSON.stringify({ ...localStorage }),
  });
  found.push({
    where: "sessionStorage",
    text: JSON.stringify({ ...sessionStorage }),
  });
  found.push({ where: "the address", text: location.href });
  return found;
}

Deno.test({
  name:
    "no guide code stays on the phone in Chromium: not in Cache Storage, IndexedDB, Web Storage or the address",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using running = await startBrowserApp({ cachePages: true });
    const { origin, browser } = running;
    const path = `/turismo/atractivos/${PLAZA.slug}`;
    const pageUrl = `${origin}${path}`;
    const context = await browser.newContext({
      locale: "es-MX",
      viewport: PHONE,
      hasTouch: true,
      isMobile: true,
    });
    const tab = await context.newPage();
    const watch = watchPage(tab, origin);
    // The code typed twice is refused with a 409, which the browser logs.
    watch.allow(/409/);

    await t.step(
      "a sign's link, opened through the service worker, is kept without its code",
      async () => {
        await tab.goto(pageUrl);
        await waitUntilKeptOffline(tab);
        // The copy the install kept goes: the next one is the link's.
        await tab.evaluate(async (url) => {
          for (const name of await caches.keys()) {
            await (await caches.open(name)).delete(url);
          }
        }, pageUrl);
        await tab.goto(`${pageUrl}?codigo=${PLAZA.guideCode.toLowerCase()}`);
        assert.ok(
          await tab.evaluate(() => navigator.serviceWorker.controller !== null),
          "the service worker answered the link",
        );
        await tab.getByText(`Tienes el código de ${PLAZA.name}`).waitFor();
        await tab.waitForFunction(() => !location.href.includes("codigo"));
        assert.equal(tab.url(), pageUrl);
        // The worker stores the page after answering: wait for it.
        const kept = await tab.waitForFunction(async (path) => {
          const urls = [];
          for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) {
              if (new URL(request.url).pathname === path) {
                urls.push(request.url);
              }
            }
          }
          return urls.length > 0 && urls;
        }, path);
        assert.deepEqual(await kept.jsonValue(), [pageUrl]);
      },
    );

    await t.step("checked in with the link's code", async () => {
      await tab.locator(".check-in button[type=submit]:not([disabled])").tap();
      await tab.locator(".check-in .notice--ok").waitFor();
    });

    await t.step(
      "on the passport, a code typed and verified, then one refused",
      async () => {
        await tab.goto(`${origin}/mi-pasaporte`);
        const input = tab.getByLabel("Código del atractivo");
        const button = tab.getByRole("button", { name: "Registrar mi visita" });
        const status = tab.locator(".verify-result");
        await tab.locator(".verify-form button:not([disabled])").waitFor();
        await input.fill(SECOND.guideCode);
        await button.click();
        await status.getByText(`¡Visita registrada: ${SECOND.name}!`).waitFor();
        // Already stamped through the link: refused.
        await input.fill(PLAZA.guideCode);
        await button.click();
        await status.locator(".notice").waitFor();
        // Listed below the form on the next visit, by its day, not its code.
        await tab.reload();
        const refused = tab.locator(".queued-codes__refused");
        await refused.getByText("El código que guardaste el").waitFor();
        assert.ok(!(await refused.innerText()).includes(PLAZA.guideCode));
      },
    );

    await t.step(
      "nowhere on the phone: every cache key and body, every IndexedDB record, Web Storage, the address",
      async () => {
        const found = await tab.evaluate(readPhone);
        // What was read: the link's page, the queue of the three check-ins.
        assert.ok(
          found.some((each) => each.text.startsWith(`${pageUrl}\n`)),
          "the attraction page is in a cache",
        );
        const queue = found.find((each) =>
          each.where.startsWith('IndexedDB "pasaporte-cola"')
        );
        assert.match(queue?.where ?? "", /\(3 records\)/);
        const holding = [];
        for (const { guideCode } of [PLAZA, SECOND]) {
          for (const code of [guideCode, guideCode.toLowerCase()]) {
            for (const { where, text } of found) {
              if (text.includes(code)) holding.push(`${code} in ${where}`);
            }
          }
        }
        assert.deepEqual(holding, []);
        assert.ok(!tab.url().includes("codigo"));
      },
    );

    await t.step(
      "with no signal, a sign's link opens its kept page with the code filled in",
      async () => {
        await context.setOffline(true);
        const third = `${origin}/turismo/atractivos/${THIRD.slug}`;
        await tab.goto(`${third}?codigo=${THIRD.guideCode}`);
        await tab.getByText(`Tienes el código de ${THIRD.name}`).waitFor();
        assert.equal(
          await tab.getByLabel("Código del atractivo").inputValue(),
          THIRD.guideCode,
        );
        await tab.waitForFunction(() => !location.href.includes("codigo"));
        assert.equal(tab.url(), third);
        await context.setOffline(false);
        assert.deepEqual(watch.problems, []);
        await context.close();
      },
    );
  },
});
