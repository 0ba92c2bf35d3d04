/**
 * The portal offline, in headless Chromium: the web app manifest and the
 * service worker meet Chromium's install criteria; after one online visit
 * the home page, the attraction list, every attraction page (one never
 * opened), the passport and the route page open with the network switched
 * off (`context.setOffline`), with their styles, fonts and island chunks;
 * any other page shows the offline page in its language; nothing of the
 * staff console, sign-in or the API is ever in a cache; the precache stays
 * within its 1 MB budget; sign-out leaves no personal page behind; a new
 * worker waits for the next visit. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { DataStore } from "@/lib/data/data_store.ts";
import { loadTourismData } from "@/lib/data/mod.ts";
import { PRECACHE_LIMIT_BYTES } from "@/scripts/build.ts";
import {
  browserSkipReason,
  CHROMIUM_PATH,
  describeViolations,
  launchBrowser,
  PHONE,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { signInAtProvider, startAppWithProvider } from "../oidc_provider.ts";
import { TEST_TILE_ORIGIN } from "../map_tiles.ts";
import { copyShippedData, SHIPPED, ticketBody } from "../test_utils.ts";

const FIRST = SHIPPED.attractions[0];
/** An attraction page the tests never open online. */
const NEVER_OPENED = SHIPPED.attractions[SHIPPED.attractions.length - 1];

/** Waits until the page's service worker is active, and returns its script URL. */
async function waitForWorker(page: Page): Promise<string> {
  return await page.evaluate(async () => {
    const registration = await Promise.race([
      navigator.serviceWorker.ready,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error("no service worker")), 20_000)
      ),
    ]);
    return registration.active!.scriptURL;
  });
}

/** Every cache's name with the URLs it holds, read in the page. */
async function listCaches(page: Page): Promise<Record<string, string[]>> {
  return await page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((request) => request.url);
    }
    return out;
  });
}

/** Waits until a cache holds every URL of `paths` (the worker warms them). */
async function waitForCached(
  page: Page,
  origin: string,
  paths: string[],
): Promise<void> {
  const urls = paths.map((path) => `${origin}${path}`);
  for (let i = 0; i < 200; i++) {
    const cached = Object.values(await listCaches(page)).flat();
    if (urls.every((url) => cached.includes(url))) return;
    await page.waitForTimeout(100);
  }
  assert.fail(
    `never cached: ${urls.join(", ")}; cached: ${
      JSON.stringify(await listCaches(page))
    }`,
  );
}

/** Asks the controlling worker its version (build and data set). */
async function getWorkerVersion(page: Page): Promise<string | null> {
  return await page.evaluate(() => {
    const controller = navigator.serviceWorker.controller;
    if (!controller) return null;
    return new Promise<string>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data.version);
      controller.postMessage({ type: "version" }, [channel.port2]);
    });
  });
}

/**
 * Opens `url` offline and checks it came whole from the service worker: the
 * page, its stylesheets, fonts and scripts each answered 200 by the worker,
 * no request failed, the Inter font and the site's styles in use.
 */
async function openOffline(page: Page, url: string): Promise<void> {
  const failed: string[] = [];
  const notFromWorker: string[] = [];
  const onFailed = (
    request: {
      url(): string;
      resourceType(): string;
      failure(): { errorText: string } | null;
    },
  ) => {
    // "other": the browser's own favicon request, which no worker answers;
    // a map's tiles are another host's, never kept (docs/OFFLINE.md).
    if (
      request.resourceType() !== "other" &&
      !request.url().startsWith(`${TEST_TILE_ORIGIN}/`)
    ) {
      failed.push(
        `${request.resourceType()} ${request.url()} (${request.failure()?.errorText})`,
      );
    }
  };
  const onResponse = (
    response: {
      url(): string;
      status(): number;
      fromServiceWorker(): boolean;
      request(): { resourceType(): string };
    },
  ) => {
    const type = response.request().resourceType();
    if (!["document", "stylesheet", "script", "font"].includes(type)) return;
    if (response.status() !== 200 || !response.fromServiceWorker()) {
      notFromWorker.push(`${response.status()} ${response.url()}`);
    }
  };
  page.on("requestfailed", onFailed);
  page.on("response", onResponse);
  try {
    await page.goto(url, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready);
    // The map's chunk loads after "load": wait for it here, on its own page,
    // or the next page's navigation aborts it and blames that page.
    await page.waitForLoadState("networkidle");
    const styled = await page.evaluate(() => ({
      inter: document.fonts.check('16px "Inter"'),
      font: getComputedStyle(document.body).fontFamily,
      sheets: document.styleSheets.length,
    }));
    assert.match(styled.font, /Inter/, `${url}: the site's stylesheet`);
    assert.ok(styled.inter, `${url}: the Inter font loaded`);
    assert.ok(styled.sheets >= 2, `${url}: both stylesheets`);
    assert.deepEqual(failed, [], `${url}: failed requests`);
    assert.deepEqual(notFromWorker, [], `${url}: not from the worker`);
  } finally {
    page.off("requestfailed", onFailed);
    page.off("response", onResponse);
  }
}

Deno.test({
  name:
    "offline in Chromium: installable, pages open with no network after one visit, the offline page, no staff/API response cached, precache ≤ 1 MB",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { origin, browser, ctx } = app;
    const context = await browser.newContext({ locale: "es-MX" });
    const page = await context.newPage();
    const watch = watchPage(page, origin);
    // Chromium logs the failed network attempt of a page it then gets
    // from the worker, and the 404 of the staff console for a stranger.
    watch.allow(/ERR_INTERNET_DISCONNECTED|Failed to fetch|404|\/api\//);
    // When the page called register(): after the load event, or not.
    await page.addInitScript(() => {
      const register = navigator.serviceWorker.register.bind(
        navigator.serviceWorker,
      );
      navigator.serviceWorker.register = (...args) => {
        (globalThis as unknown as { registeredAt: string }).registeredAt =
          document.readyState;
        return register(...args);
      };
    });

    await t.step(
      "one visit to any page registers the worker after the load event",
      async () => {
        await page.goto(`${origin}/turismo/informacion-practica`);
        await waitForWorker(page);
        assert.equal(
          await page.evaluate(() =>
            (globalThis as unknown as { registeredAt: string }).registeredAt
          ),
          "complete",
        );
        assert.equal(
          await page.evaluate(() => navigator.serviceWorker.controller),
          null,
          "no worker takes over the page it was registered from",
        );
      },
    );

    await t.step(
      "the install criteria: manifest parsed without errors, icons fetched, the page controlled after a reload",
      async () => {
        await page.reload();
        assert.ok(
          await page.evaluate(() =>
            navigator.serviceWorker.controller?.scriptURL
          ),
          "the worker controls the page after a reload",
        );
        const cdp = await context.newCDPSession(page);
        const manifest = await cdp.send("Page.getAppManifest");
        assert.equal(manifest.url, `${origin}/manifest.webmanifest`);
        assert.deepEqual(manifest.errors, []);
        const parsed = JSON.parse(manifest.data!);
        assert.equal(parsed.start_url, "/mi-pasaporte");
        assert.equal(parsed.display, "standalone");
        assert.match(parsed.theme_color, /^#[0-9A-Fa-f]{6}$/);
        const icons = parsed.icons as {
          src: string;
          sizes: string;
          purpose: string;
        }[];
        for (
          const [size, purpose] of [[192, "any"], [512, "any"], [
            512,
            "maskable",
          ]]
        ) {
          assert.ok(
            icons.some((icon) =>
              icon.sizes === `${size}x${size}` && icon.purpose === purpose
            ),
            `a ${size} px ${purpose} icon`,
          );
        }
        for (const icon of icons) {
          const size = await page.evaluate(async (src) => {
            const res = await fetch(src);
            const bitmap = await createImageBitmap(await res.blob());
            return `${res.status} ${
              res.headers.get("content-type")
            } ${bitmap.width}x${bitmap.height}`;
          }, icon.src);
          assert.equal(size, `200 image/png ${icon.sizes}`, icon.src);
        }
        await cdp.detach();
        // Chromium offers no install in an incognito profile (what a
        // context of `browser.newContext()` is): asked in a profile on disk.
        const profile = await Deno.makeTempDir({ prefix: "turismo-profile-" });
        const persistent = await chromium.launchPersistentContext(profile, {
          executablePath: CHROMIUM_PATH,
          args: ["--no-sandbox", "--disable-gpu", "--no-first-run"],
        });
        try {
          const installPage = await persistent.newPage();
          await installPage.goto(`${origin}/`);
          await waitForWorker(installPage);
          await installPage.reload();
          const session = await persistent.newCDPSession(installPage);
          const { installabilityErrors } = await session.send(
            "Page.getInstallabilityErrors",
          );
          assert.deepEqual(installabilityErrors, []);
        } finally {
          await persistent.close();
          await Deno.remove(profile, { recursive: true });
        }
      },
    );

    await t.step(
      "staff, sign-in and API answers visited online are never cached",
      async () => {
        await page.goto(`${origin}/panel`);
        await page.goto(`${origin}/auth/personal`);
        await page.evaluate(async () => {
          await fetch("/api/turismo/og/ABCD-1234").catch(() => {});
          await fetch("/api/session-token", { method: "POST" }).catch(() => {});
        });
        await page.goto(`${origin}/turismo/servicios`);
        await waitForCached(page, origin, [
          "/",
          "/turismo/atractivos",
          `/turismo/atractivos/${NEVER_OPENED.slug}`,
          "/mi-pasaporte",
        ]);
        const cached = Object.values(await listCaches(page)).flat();
        const forbidden = cached.filter((url) =>
          /\/(?:panel|auth|api)(?:\/|$)/.test(new URL(url).pathname)
        );
        assert.deepEqual(forbidden, []);
        // Pages outside the kept set are not stored either.
        assert.ok(!cached.includes(`${origin}/turismo/servicios`));
      },
    );

    await t.step(
      "with no network: home, list, an attraction never opened and the passport open with their styles, fonts and islands",
      async () => {
        await context.setOffline(true);
        for (
          const path of [
            "/",
            "/turismo/atractivos",
            `/turismo/atractivos/${NEVER_OPENED.slug}`,
            "/mi-pasaporte",
          ]
        ) {
          await openOffline(page, `${origin}${path}`);
        }
        await page.goto(`${origin}/turismo/atractivos/${NEVER_OPENED.slug}`);
        await page.getByRole("heading", { level: 1, name: NEVER_OPENED.name })
          .waitFor();
        await saveScreenshot(page, "offline-attraction", { fullPage: false });
      },
    );

    await t.step(
      "with no network, another page shows the offline page in Spanish",
      async () => {
        await page.goto(`${origin}/turismo/servicios/no-guardada`);
        await page.getByRole("heading", { level: 1, name: "Sin conexión" })
          .waitFor();
        assert.match(
          await page.locator("main").innerText(),
          /Los 17 atractivos, cada uno con su página/,
        );
        assert.equal(page.url(), `${origin}/turismo/servicios/no-guardada`);
        await saveScreenshot(page, "offline-page", { fullPage: false });
      },
    );

    await t.step(
      "English pages used once are kept in English too, and the offline page speaks English",
      async () => {
        await context.setOffline(false);
        await page.goto(`${origin}/en/turismo/informacion-practica`);
        await waitForCached(page, origin, [
          "/en/",
          "/en/turismo/atractivos",
          `/en/turismo/atractivos/${NEVER_OPENED.slug}`,
          "/en/mi-pasaporte",
        ]);
        await context.setOffline(true);
        await openOffline(
          page,
          `${origin}/en/turismo/atractivos/${NEVER_OPENED.slug}`,
        );
        assert.equal(await page.locator("html").getAttribute("lang"), "en-US");
        await page.goto(`${origin}/en/turismo/servicios`);
        await page.getByRole("heading", { level: 1, name: "You're offline" })
          .waitFor();
        await context.setOffline(false);
      },
    );

    await t.step(
      "the precache, in Workbox's own cache, holds the build's files within 1 MB",
      async () => {
        const precache = await page.evaluate(async () => {
          const name = (await caches.keys()).find((key) =>
            key.startsWith("workbox-precache-v2-")
          );
          if (!name) return null;
          const cache = await caches.open(name);
          let bytes = 0;
          const urls = [];
          for (const request of await cache.keys()) {
            const response = await cache.match(request);
            bytes += (await response!.arrayBuffer()).byteLength;
            urls.push(new URL(request.url).pathname);
          }
          return { name, bytes, urls };
        });
        assert.ok(precache, "Workbox's precache exists");
        assert.equal(precache.name, `workbox-precache-v2-${origin}/`);
        console.info(
          `  precache: ${precache.bytes} bytes (${
            (precache.bytes / 1024).toFixed(1)
          } KB) in ${precache.urls.length} files`,
        );
        assert.ok(
          precache.bytes <= PRECACHE_LIMIT_BYTES,
          `${precache.bytes} bytes`,
        );
        const has = (pattern: RegExp) =>
          precache.urls.some((url) => pattern.test(url));
        assert.ok(
          has(/^\/static\/build\/client-\w+\.js$/),
          "the islands' entry",
        );
        assert.ok(has(/^\/static\/build\/CheckIn-\w+\.js$/), "an island chunk");
        assert.ok(has(/^\/static\/build\/styles-\w+\.css$/), "the stylesheet");
        assert.ok(has(/\/fonts\/inter-latin-400-normal-\w+\.woff2$/), "fonts");
        assert.ok(has(/\/icons\/maskable-512-\w+\.png$/), "icons");
        assert.ok(has(/^\/sin-conexion/) && has(/^\/en\/sin-conexion/));
        assert.ok(!has(/\/og\//), "no share card");
      },
    );

    await t.step(
      "axe finds nothing on the offline page, in both languages",
      async () => {
        const axeContext = await browser.newContext({
          bypassCSP: true,
          viewport: PHONE,
        });
        try {
          const axePage = await axeContext.newPage();
          for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
            await axePage.setViewportSize(viewport);
            for (const path of ["/sin-conexion", "/en/sin-conexion"]) {
              await axePage.goto(`${origin}${path}`);
              const violations = await runAxe(axePage);
              assert.equal(
                violations.length,
                0,
                `${path} at ${viewport.width} px:\n${
                  describeViolations(violations)
                }`,
              );
            }
          }
        } finally {
          await axeContext.close();
        }
      },
    );

    assert.deepEqual(watch.problems, []);
    assert.deepEqual(watch.dialogs, []);
    await context.close();
    void ctx;
  },
});

Deno.test({
  name:
    "offline in Chromium: the own route page opens offline, and sign-out leaves no personal page in any cache",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    // The last step holds the route page's answer back until the tourist
    // has signed out and is on the home page (the sign-out's answer, with
    // its Clear-Site-Data, already handled): the passport's worker is still
    // fetching it then.
    let routePath = "";
    let holding = false;
    let signOutSent = false;
    const routeAsked = Promise.withResolvers<void>();
    const signedOut = Promise.withResolvers<void>();
    await using app = await startAppWithProvider({
      beforeAnswer: (req) => {
        if (!holding) return undefined;
        const { pathname } = new URL(req.url);
        if (req.method === "POST" && pathname === "/auth/signout") {
          signOutSent = true;
        } else if (signOutSent && pathname === "/") {
          setTimeout(signedOut.resolve, 500);
        }
        if (pathname !== routePath) return undefined;
        routeAsked.resolve();
        return signedOut.promise;
      },
    });
    const { origin, ctx } = app;
    const browser = await launchBrowser();
    let context: BrowserContext | undefined;
    try {
      let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;

      await t.step("a signed-in tourist with a ticket", async () => {
        const signIn = await browser.newContext({ locale: "es-MX" });
        const page = await signIn.newPage();
        await page.goto(`${origin}/mi-pasaporte`);
        await signInAtProvider(page);
        await page.getByText("Hola, Turista maria").waitFor();
        // Their visit and share ticket, made through the API.
        const { token, userId } = await page.evaluate(async () => {
          const res = await fetch("/api/session-token", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{}",
          });
          return await res.json() as { token: string; userId: string };
        });
        const headers = {
          "Content-Type": "application/json",
          Authorization: `Bearer ${token}`,
        };
        const verify = await ctx.app.request("/api/turismo/verify-visit", {
          method: "POST",
          headers,
          body: JSON.stringify({ userId, code: FIRST.guideCode }),
        });
        assert.equal(verify.status, 200);
        const ticket = await ctx.app.request("/api/turismo/ticket", {
          method: "POST",
          headers,
          body: JSON.stringify(
            ticketBody({ name: "Turista maria", shareCode: "mari-2026" }),
          ),
        });
        assert.ok(ticket.status < 300, await ticket.text());
        routePath = "/ruta/mari-2026";
        // The same tourist on a browser that never saw the portal's worker.
        storageState = await signIn.storageState();
        await signIn.close();
      });

      context = await browser.newContext({
        locale: "es-MX",
        storageState: storageState!,
      });
      const page = await context.newPage();
      const personalText = async () =>
        await page.evaluate(async () => {
          const found: string[] = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
              const text = await (await cache.match(request))!.text();
              if (text.includes("Turista maria")) found.push(request.url);
            }
          }
          return found;
        });

      await t.step(
        "one visit: the passport and the route page never opened are kept for offline use",
        async () => {
          await page.goto(`${origin}/turismo/atractivos`);
          await waitForWorker(page);
          await waitForCached(page, origin, ["/mi-pasaporte", routePath]);
          await context!.setOffline(true);
          await openOffline(page, `${origin}/mi-pasaporte`);
          await page.getByText("Hola, Turista maria").waitFor();
          await openOffline(page, `${origin}${routePath}`);
          await page.getByText(FIRST.name).first().waitFor();
          await context!.setOffline(false);
        },
      );

      await t.step("sign-out clears every personal page", async () => {
        assert.notDeepEqual(await personalText(), []);
        holding = true;
        await page.goto(`${origin}/mi-pasaporte`);
        // The worker stored the passport and is fetching its route page
        // again, whose answer comes only after the sign-out is sent.
        await Promise.race([
          routeAsked.promise,
          new Promise((_, reject) =>
            setTimeout(
              () => reject(new Error("the worker never asked for the route")),
              10_000,
            )
          ),
        ]);
        await page.getByRole("button", { name: "Cerrar sesión" }).click();
        await page.waitForURL(`${origin}/`);
        // The route page's answer, let go half a second after the home
        // page was asked for, has reached the worker.
        await signedOut.promise;
        await new Promise((resolve) => setTimeout(resolve, 500));
        // The home page starts the worker again: let it warm what it keeps.
        await waitForWorker(page);
        await waitForCached(page, origin, ["/mi-pasaporte"]);
        assert.deepEqual(await personalText(), []);
        const cached = Object.values(await listCaches(page)).flat();
        assert.ok(!cached.includes(`${origin}${routePath}`), "no route page");
        await context!.setOffline(true);
        await page.goto(`${origin}/mi-pasaporte`);
        assert.doesNotMatch(await page.locator("main").innerText(), /maria/);
      });
    } finally {
      signedOut.resolve(); // Nothing stays held when a step failed.
      await context?.close();
      await browser.close();
    }
  },
});

Deno.test({
  name:
    "offline in Chromium: a new worker (new build or data set) waits for the next visit",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using copy = await copyShippedData();
    const data = new DataStore(await loadTourismData(copy.path), {
      path: copy.path,
    });
    await using app = await startBrowserApp({ data });
    const { origin, browser } = app;
    const context = await browser.newContext({ locale: "es-MX" });
    const page = await context.newPage();
    let before = "";

    await t.step("the first worker controls the page", async () => {
      await page.goto(`${origin}/`);
      await waitForWorker(page);
      await page.reload();
      before = (await getWorkerVersion(page))!;
      assert.ok(before);
    });

    await t.step(
      "a new worker installs and waits: the open page keeps the old one",
      async () => {
        const raw = JSON.parse(await Deno.readTextFile(copy.path));
        raw.branding.tagline = "Tierra de agave, ahora sin conexión";
        await Deno.writeTextFile(copy.path, JSON.stringify(raw));
        assert.ok(await data.reload(), "the data set changed");
        const state = await page.evaluate(async () => {
          let changed = false;
          navigator.serviceWorker.addEventListener(
            "controllerchange",
            () => changed = true,
          );
          const registration = await navigator.serviceWorker.ready;
          await registration.update();
          for (let i = 0; i < 100 && !registration.waiting; i++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { waiting: !!registration.waiting, changed };
        });
        assert.deepEqual(state, { waiting: true, changed: false });
        assert.equal(await getWorkerVersion(page), before);
      },
    );

    await t.step("the next visit gets the new worker", async () => {
      // The waiting worker takes over once no tab uses the old one. A visit
      // that starts before the browser has noticed the closed tab is still
      // served by the old worker and keeps it in use, so each try is a tab
      // of its own that closes again, as a tourist's next visit would be.
      await page.close();
      let after = before;
      for (let i = 0; i < 40 && after === before; i++) {
        const next = await context.newPage();
        await next.goto(`${origin}/turismo/atractivos`);
        after = (await getWorkerVersion(next)) ?? before;
        await next.close();
        if (after === before) {
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      assert.notEqual(after, before);
    });
    await context.close();
  },
});
