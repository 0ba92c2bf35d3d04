/**
 * An attraction page with photos on a 390 px phone in headless Chromium
 * (issue 42 item 4): the first photo is in view and loaded at once (the
 * WebP of the width the phone needs), the others wait as lazy images, the
 * page never scrolls sideways and axe finds nothing. It also measures the
 * page's first contentful paint and largest contentful paint with the
 * Performance API and prints them (docs/PERFORMANCE.md, "Photos"): a
 * figure, never a timed assertion. Skipped, with the reason printed, when
 * Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import type { StoredPhoto } from "@/lib/photos/mod.ts";
import {
  assertAxeClean,
  browserSkipReason,
  PHONE,
  saveScreenshot,
  startBrowserApp,
  waitUntilKeptOffline,
  watchPage,
} from "../browser.ts";
import { makeJpeg } from "../photo_fixtures.ts";
import { createTestContext, mutateShipped, SHIPPED } from "../test_utils.ts";

const STAFF = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
} as const;

const ALTS = [
  ["La fachada al amanecer", "The facade at dawn"],
  ["El patio con sus arcos", "The arched courtyard"],
  ["La vista desde el mirador", "The view from the lookout"],
] as const;

/** Mobile throttling as Lighthouse's default: 150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU 4x slower. */
const SLOW_PHONE = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  cpuRate: 4,
};

interface PaintTimes {
  /** Navigation start to the first byte of the page. */
  ttfb: number;
  fcp: number;
  lcp: number;
  /** What the largest contentful paint was: a tag and, for an image, its URL's file name. */
  lcpElement: string;
  /** The bytes of that image, as sent. */
  lcpBytes: number;
}

/**
 * The page's paint times, from the Performance API, once it has loaded:
 * both entries through buffered observers (a paint entry may be queued
 * after the load event, so reading it at once can miss it).
 */
function readPaintTimes(page: Page): Promise<PaintTimes> {
  return page.evaluate(() => {
    const observe = <T>(type: string) =>
      new Promise<T>((resolve) =>
        new PerformanceObserver((list) =>
          resolve(list.getEntries().at(-1) as T)
        ).observe({ type, buffered: true })
      );
    // deno-lint-ignore no-explicit-any -- LargestContentfulPaint is not in Deno's DOM types
    const lcpEntry = observe<any>("largest-contentful-paint");
    const fcpEntry = new Promise<PerformanceEntry>((resolve) =>
      new PerformanceObserver((list) => {
        const fcp = list.getEntriesByName("first-contentful-paint")[0];
        if (fcp) resolve(fcp);
      }).observe({ type: "paint", buffered: true })
    );
    return Promise.all([lcpEntry, fcpEntry]).then(([last, fcp]) => {
      const nav = performance.getEntriesByType(
        "navigation",
      )[0] as PerformanceNavigationTiming;
      const image = last.url
        ? performance.getEntriesByName(
          last.url,
        )[0] as PerformanceResourceTiming | undefined
        : undefined;
      return {
        lcpBytes: image?.encodedBodySize ?? 0,
        ttfb: nav.responseStart,
        fcp: fcp.startTime,
        lcp: last.startTime,
        lcpElement: `${last.element?.tagName ?? "?"} ${
          (last.url as string).split("/").pop() ?? ""
        }`.trim(),
      };
    });
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

Deno.test({
  name:
    "an attraction page with photos at 390 px: the first in view and loaded, the rest lazy, no sideways scroll, axe clean; its FCP and LCP measured",
  ignore: browserSkipReason !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using setup = await createTestContext();
    const photos: StoredPhoto[] = [];
    for (const [i, [altEs, altEn]] of ALTS.entries()) {
      photos.push(
        await setup.deps.photos.upload({
          file: { bytes: await makeJpeg(2000 + i * 8, 1500), name: `${i}.jpg` },
          altEs,
          altEn,
          credit: "Oficina de Turismo",
          staff: STAFF,
        }),
      );
    }
    const attraction = SHIPPED.attractions[0];
    await using app = await startBrowserApp({
      kv: setup.deps.kv,
      cachePages: true,
      // Before the tequila fair (events[1]): it is among the coming events.
      clockStart: new Date("2026-11-20T18:00:00Z"),
      data: new DataStore(
        await parseTourismData(mutateShipped((data) => {
          data.attractions[0].photos = photos.map((photo) => photo.id);
          data.providers[0].photos = [photos[1].id, photos[2].id];
          data.routes[0].photos = [photos[2].id];
          data.events[1].photos = [photos[0].id];
        })),
      ),
    });
    const { origin, browser } = app;
    const path = `/turismo/atractivos/${attraction.slug}`;

    await t.step(
      "the first photo is in view and loaded, the others lazy",
      async () => {
        for (const [lang, prefix] of [["es", ""], ["en", "/en"]] as const) {
          const context = await browser.newContext({
            locale: lang === "es" ? "es-MX" : "en-US",
            viewport: PHONE,
            bypassCSP: true,
          });
          const page = await context.newPage();
          const watch = watchPage(page, origin);
          const response = await page.goto(`${origin}${prefix}${path}`);
          assert.equal(response?.status(), 200);
          await page.waitForLoadState("load");
          const images = page.locator(".photo-gallery img");
          assert.equal(await images.count(), 3);
          const first = await images.first().evaluate(async (img) => {
            const image = img as HTMLImageElement;
            await image.decode().catch(() => {});
            const box = image.getBoundingClientRect();
            return {
              loaded: image.complete && image.naturalWidth > 0,
              src: image.currentSrc,
              top: box.top,
              bottom: box.bottom,
              width: box.width,
              loading: image.loading,
              priority: image.fetchPriority,
              alt: image.alt,
            };
          });
          console.log(`first photo at 390 px (${lang}):`, first);
          assert.ok(first.loaded, "the first photo is loaded");
          assert.match(
            first.src,
            new RegExp(`/fotos/${photos[0].id}-480\\.webp$`),
            "the WebP of the phone's width",
          );
          // It starts on the first screen and at least half of it shows there.
          const shown = Math.min(first.bottom, PHONE.height) - first.top;
          assert.ok(
            first.top >= 0 && shown >= (first.bottom - first.top) / 2,
            `in view: ${first.top}-${first.bottom} of ${PHONE.height}`,
          );
          assert.equal(first.loading, "eager");
          assert.equal(first.priority, "high");
          assert.equal(first.alt, lang === "es" ? ALTS[0][0] : ALTS[0][1]);
          const rest = await images.evaluateAll((all) =>
            all.slice(1).map((img) => {
              const image = img as HTMLImageElement;
              return {
                loading: image.loading,
                priority: image.fetchPriority,
                alt: image.alt,
                below: image.getBoundingClientRect().top >= innerHeight,
              };
            })
          );
          assert.deepEqual(
            rest,
            ALTS.slice(1).map(([es, en]) => ({
              loading: "lazy",
              priority: "auto",
              alt: lang === "es" ? es : en,
              below: true,
            })),
          );
          const overflow = await page.evaluate(() => ({
            scroll: document.documentElement.scrollWidth,
            view: innerWidth,
          }));
          assert.ok(
            overflow.scroll <= overflow.view,
            `no sideways scroll: ${overflow.scroll} > ${overflow.view}`,
          );
          if (lang === "es") {
            await saveScreenshot(page, "attraction-photos-phone");
          }
          await assertAxeClean(page, `${prefix}${path} with photos`);
          assert.deepEqual(watch.problems, []);
          await context.close();
        }
      },
    );

    await t.step(
      "offline, the kept page still shows the photos it showed online",
      async () => {
        const context = await browser.newContext({
          locale: "es-MX",
          viewport: PHONE,
        });
        const page = await context.newPage();
        await page.goto(`${origin}${path}`);
        await waitUntilKeptOffline(page);
        // Under the worker's control, each photo is seen once online.
        await page.reload();
        const images = page.locator(".photo-gallery img");
        const loadAll = () =>
          images.evaluateAll(async (all) => {
            for (const img of all as HTMLImageElement[]) {
              img.scrollIntoView();
              await img.decode().catch(() => {});
            }
            return all.map((img) => {
              const image = img as HTMLImageElement;
              return { loaded: image.naturalWidth > 0, alt: image.alt };
            });
          });
        const online = await loadAll();
        assert.ok(online.every((image) => image.loaded), "loaded online");
        // Not the browser's HTTP cache (a phone evicts it): the worker's.
        const cdp = await context.newCDPSession(page);
        await cdp.send("Network.clearBrowserCache");
        await context.setOffline(true);
        await page.reload();
        assert.deepEqual(
          await loadAll(),
          ALTS.map(([es]) => ({ loaded: true, alt: es })),
        );
        await context.setOffline(false);
        await context.close();
      },
    );

    await t.step(
      "a provider's page and the practical page (routes, events) with photos: loaded as the visitor scrolls, no sideways scroll, axe clean",
      async () => {
        const pages = [
          {
            path: `/turismo/servicios/${SHIPPED.providers[0].slug}`,
            alts: [ALTS[1][0], ALTS[2][0]],
            eager: 1,
          },
          {
            path: "/turismo/informacion-practica",
            alts: [ALTS[2][0], ALTS[0][0]],
            eager: 0,
          },
        ];
        for (const { path, alts, eager } of pages) {
          const context = await browser.newContext({
            locale: "es-MX",
            viewport: PHONE,
            bypassCSP: true,
          });
          const page = await context.newPage();
          const watch = watchPage(page, origin);
          assert.equal((await page.goto(`${origin}${path}`))?.status(), 200);
          await page.waitForLoadState("load");
          const images = page.locator("img[src^='/fotos/']");
          assert.deepEqual(
            await images.evaluateAll((all) =>
              all.map((img) => (img as HTMLImageElement).alt)
            ),
            alts,
            path,
          );
          assert.deepEqual(
            await images.evaluateAll((all) =>
              all.map((img) => (img as HTMLImageElement).loading)
            ),
            alts.map((_, i) => i < eager ? "eager" : "lazy"),
            path,
          );
          // Each photo loads once scrolled to, at the width it is shown.
          for (const image of await images.all()) {
            await image.scrollIntoViewIfNeeded();
            const shown = await image.evaluate(async (img) => {
              const photo = img as HTMLImageElement;
              await photo.decode();
              return {
                loaded: photo.complete && photo.naturalWidth > 0,
                right: photo.getBoundingClientRect().right,
              };
            });
            assert.ok(shown.loaded, path);
            assert.ok(shown.right <= PHONE.width, `${path}: ${shown.right}`);
          }
          const scroll = await page.evaluate(() =>
            document.documentElement.scrollWidth
          );
          assert.ok(scroll <= PHONE.width, `${path}: ${scroll} px wide`);
          await assertAxeClean(page, `${path} with photos`);
          assert.deepEqual(watch.problems, []);
          await context.close();
        }
      },
    );

    await t.step(
      "first contentful paint and LCP, measured (printed)",
      async () => {
        const runs = { plain: [] as PaintTimes[], slow: [] as PaintTimes[] };
        for (let i = 0; i < 5; i++) {
          for (const kind of ["plain", "slow"] as const) {
            runs[kind].push(await measure(browser, `${origin}${path}`, kind));
          }
        }
        for (const [kind, times] of Object.entries(runs)) {
          const summary = {
            ttfb: median(times.map((x) => x.ttfb)),
            fcp: median(times.map((x) => x.fcp)),
            lcp: median(times.map((x) => x.lcp)),
            lcpElements: [...new Set(times.map((x) => x.lcpElement))],
            lcpBytes: median(times.map((x) => x.lcpBytes)),
            runs: times.map((x) => [Math.round(x.fcp), Math.round(x.lcp)]),
          };
          console.log(
            `attraction page with photos, 390x844, ${kind}:`,
            summary,
          );
          for (const run of times) {
            assert.ok(run.fcp > 0 && run.lcp > 0, JSON.stringify(run));
          }
        }
      },
    );
  },
});

/** One cold load (a new browser context: nothing cached) of `url` on the phone. */
async function measure(
  browser: Browser,
  url: string,
  kind: "plain" | "slow",
): Promise<PaintTimes> {
  const context = await browser.newContext({
    locale: "es-MX",
    viewport: PHONE,
  });
  const page = await context.newPage();
  if (kind === "slow") {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: SLOW_PHONE.latency,
      downloadThroughput: SLOW_PHONE.downloadThroughput,
      uploadThroughput: SLOW_PHONE.uploadThroughput,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", {
      rate: SLOW_PHONE.cpuRate,
    });
  }
  await page.goto(url, { waitUntil: "load" });
  const times = await readPaintTimes(page);
  await context.close();
  return times;
}
