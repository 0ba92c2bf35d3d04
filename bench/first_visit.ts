/**
 * A tourist's first visit on a phone, with and without the service worker,
 * in real headless Chromium against the service started as `deno task
 * start` runs it (every default on, its own KV file). Navigation timing's
 * `responseStart` is not used: under DevTools' latency emulation it leaves
 * the latency out, so the clock from the tap to `load` is reported too.
 *
 * Each round opens two new browser contexts in turn (the order alternates):
 * the baseline blocks service workers (`serviceWorkers: "block"`, the page
 * as it was before the worker), the product allows them. Both emulate a
 * phone on a slow mobile network (150 ms latency, 1.6 Mbit/s down, 750
 * kbit/s up, the CPU slowed 4x). Measured per context: the home page's
 * navigation (first byte, DOMContentLoaded, load, largest contentful
 * paint), then, 1 s after load (while the worker warms its caches), the
 * tap to the attraction list, and the bytes in the worker's caches at the
 * end. The
 * throttling applies to the page's requests; the worker's own warm-up
 * fetches are a separate target in Chromium and go at loopback speed, so
 * they weigh on the phone's CPU here, not on its network. Medians over the
 * rounds, and the product's ratio to the baseline.
 *
 *     deno run -A bench/first_visit.ts [--rounds=9]
 */
import { parseArgs } from "node:util";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { launchBrowser } from "@/tests/browser.ts";
import { startServiceOnKvFile } from "@/tests/service_process.ts";
import { ensureBuild } from "@/scripts/build.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string", default: "9" } },
});
const ROUNDS = Math.max(1, Number(values.rounds));

/** A slow mobile connection, as DevTools' throttling takes it (bytes per second). */
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

interface Visit {
  /** From the tap (goto) to the load event, by the clock: the emulated latency included. */
  wallLoadMs: number;
  domContentLoadedMs: number;
  loadMs: number;
  lcpMs: number;
  /** The attraction list opened 1 s after the home page's load: its load time. */
  secondPageLoadMs: number;
  /** Bytes in the worker's caches at the end (0 for the baseline). */
  cachedBytes: number;
}

type Mode = "baseline" | "product";

async function throttle(context: BrowserContext, page: Page) {
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  return cdp;
}

async function visit(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  origin: string,
  mode: Mode,
): Promise<Visit> {
  const context = await browser.newContext({
    serviceWorkers: mode === "product" ? "allow" : "block",
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: "es-MX",
  });
  try {
    const page = await context.newPage();
    await throttle(context, page);
    const tapped = Date.now();
    await page.goto(`${origin}/`, { waitUntil: "load" });
    const wallLoadMs = Date.now() - tapped;
    const timing = await page.evaluate(() =>
      new Promise<
        { dcl: number; load: number; lcp: number }
      >((resolve) => {
        const [nav] = performance.getEntriesByType(
          "navigation",
        ) as PerformanceNavigationTiming[];
        let lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() =>
          resolve({
            dcl: nav.domContentLoadedEventEnd,
            load: nav.loadEventEnd,
            lcp,
          }), 50);
      })
    );
    await page.waitForTimeout(1000);
    const started = Date.now();
    await page.goto(`${origin}/turismo/atractivos`, { waitUntil: "load" });
    const secondPageLoadMs = Date.now() - started;
    await page.waitForTimeout(9000 - secondPageLoadMs);
    const cachedBytes = await page.evaluate(async () => {
      let total = 0;
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          const response = await cache.match(request);
          total += (await response?.arrayBuffer())?.byteLength ?? 0;
        }
      }
      return total;
    });
    return {
      wallLoadMs,
      domContentLoadedMs: timing.dcl,
      loadMs: timing.load,
      lcpMs: timing.lcp,
      secondPageLoadMs,
      cachedBytes,
    };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[middle]
    : (sorted[middle - 1] + sorted[middle]) / 2;
}

await ensureBuild();
await using started = await startServiceOnKvFile({ prefix: "first-visit-" });
const browser = await launchBrowser();
const results: Record<Mode, Visit[]> = { baseline: [], product: [] };
try {
  // One visit of each, not counted: the service's page cache and the
  // browser's first-run costs are warm for both.
  await visit(browser, started.service.url, "baseline");
  await visit(browser, started.service.url, "product");
  for (let round = 0; round < ROUNDS; round++) {
    const order: Mode[] = round % 2 ? ["product", "baseline"] : [
      "baseline",
      "product",
    ];
    for (const mode of order) {
      results[mode].push(await visit(browser, started.service.url, mode));
    }
    console.error(`round ${round + 1}/${ROUNDS} done`);
  }
} finally {
  await browser.close();
}

const rows: [string, keyof Visit, string][] = [
  ["home page, tap to load (clock)", "wallLoadMs", "ms"],
  ["DOMContentLoaded", "domContentLoadedMs", "ms"],
  ["load", "loadMs", "ms"],
  ["largest contentful paint", "lcpMs", "ms"],
  ["next page (list), 1 s after load", "secondPageLoadMs", "ms"],
  ["bytes in the worker's caches", "cachedBytes", "B"],
];
console.log(
  `First visit on a phone (slow 4G: 150 ms, 1.6 Mbit/s down; CPU 4x slower), ${ROUNDS} rounds, medians; the service as \`deno task start\` runs it`,
);
console.log(
  "| measure | without a worker (baseline) | with the worker | ratio |",
);
console.log("| --- | ---: | ---: | ---: |");
for (const [label, key, unit] of rows) {
  const base = median(results.baseline.map((r) => r[key]));
  const product = median(results.product.map((r) => r[key]));
  const ratio = base > 0 ? `${(product / base).toFixed(2)}x` : "n/a";
  const say = (n: number) =>
    unit === "B"
      ? `${Math.round(n).toLocaleString("en")} B`
      : `${n.toFixed(0)} ms`;
  console.log(`| ${label} | ${say(base)} | ${say(product)} | ${ratio} |`);
}
