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

/** The page's paint times, from the Performance API, once it has loaded. */
function readPaintTimes(page: Page): Promise<PaintTimes> {
  return page.evaluate(() =>
    new Promise<PaintTimes>((resolve) => {
      const nav = performance.getEntriesByType(
        "navigation",
      )[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      new PerformanceObserver((list) => {
        // deno-lint-ignore no-explicit-any -- LargestContentfulPaint is not in Deno's DOM types
        const last = list.getEntries().at(-1) as any;
        const image = last.url
          ? performance.getEntriesByName(
            last.url,
          )[0] as PerformanceResourceTiming | undefined
          : undefined;
        resolve({
          lcpBytes: image?.encodedBodySize ?? 0,
          ttfb: nav.responseStart,
          fcp: fcp?.startTime ?? NaN,
          lcp: last.startTime,
          lcpElement: `${last.element?.tagName ?? "?"} ${
            (last.url as string).split("/").pop() ?? ""
          }`.trim(),
        });
      }).observe({ type: "largest-contentful-paint", buffered: true });
    })
  );
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
      data: new DataStore(
        await parseTourismData(mutateShipped((data) => {
          data.attractions[0].photos = photos.map((photo) => photo.id);
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
