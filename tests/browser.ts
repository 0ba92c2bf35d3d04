/**
 * Headless Chromium for the browser tests: Debian's /usr/bin/chromium driven
 * by playwright-core, against the real app served on a loopback port
 * (`serveApp` in test_utils.ts). When Chromium is missing the tests are
 * skipped with the reason printed, never passed silently
 * (`.ci/setup-chromium.sh` installs it).
 */
import assert from "node:assert/strict";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
} from "playwright-core";
import { ensureBuild } from "@/scripts/build.ts";
import { createTestContext, serveApp, type TestContext } from "./test_utils.ts";
import { TEST_TILE_ORIGIN } from "./map_tiles.ts";

export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Why the browser tests cannot run here (printed), or undefined when they can. */
export const browserSkipReason: string | undefined = await Deno.stat(
  CHROMIUM_PATH,
).then(
  () => undefined,
  () =>
    `no Chromium at ${CHROMIUM_PATH} (run .ci/setup-chromium.sh or apt-get install chromium)`,
);
if (browserSkipReason) {
  console.warn(`Skipping the browser tests: ${browserSkipReason}`);
}

/** Launches headless Chromium with the flags that keep it quiet and offline. */
export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The app in process on a loopback port, and Chromium to open it. */
export interface BrowserApp extends AsyncDisposable {
  ctx: TestContext;
  origin: string;
  browser: Browser;
}

/**
 * The set-up of a browser test against the app in process: the islands
 * built, a test context (`options` as `createTestContext` takes them), the
 * app served on a loopback port, Chromium launched. Use with
 * `await using`: it closes the browser, then the server, then the context.
 */
export async function startBrowserApp(
  options?: Parameters<typeof createTestContext>[0],
): Promise<BrowserApp> {
  await ensureBuild();
  await using stack = new AsyncDisposableStack();
  const ctx = stack.use(await createTestContext(options));
  const server = stack.use(serveApp((req, info) => ctx.app.fetch(req, info)));
  const browser = await launchBrowser();
  const owned = stack.move();
  return {
    ctx,
    origin: server.origin,
    browser,
    async [Symbol.asyncDispose]() {
      await browser.close();
      await owned.disposeAsync();
    },
  };
}

/**
 * Records what must never happen on a page: console errors, uncaught
 * exceptions, dialogs (an injected `alert` would open one) and any request
 * that leaves the app's origin. `allow` skips expected console errors. The
 * maps' tiles at the tests' loopback tile address (map_tiles.ts), where
 * nothing listens, are not "outside the app" and their refusals are no
 * problem; `tiles` names a tile server a test started itself.
 */
export function watchPage(
  page: Page,
  origin: string,
  { tiles = TEST_TILE_ORIGIN }: { tiles?: string } = {},
): { problems: string[]; dialogs: string[]; allow(pattern: RegExp): void } {
  const problems: string[] = [];
  // Nothing listens at the tests' tile address: its refusals are expected.
  const allowed: RegExp[] = [new RegExp(`\\(${TEST_TILE_ORIGIN}/`)];
  const dialogs: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = `${message.text()} (${message.location().url})`;
    if (!allowed.some((pattern) => pattern.test(text))) {
      problems.push(`console error: ${text}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error}`));
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  page.on("request", (request) => {
    const url = request.url();
    if (
      !url.startsWith(`${origin}/`) && !url.startsWith("data:") &&
      !url.startsWith(`${tiles}/`) && !url.startsWith(`${TEST_TILE_ORIGIN}/`)
    ) {
      problems.push(`request outside the app: ${url}`);
    }
  });
  return {
    problems,
    dialogs,
    allow: (pattern) => allowed.push(pattern),
  };
}

/** A phone's viewport in CSS pixels. */
export const PHONE = { width: 390, height: 844 };

const SCREENSHOT_DIR = new URL("../test-output/screenshots/", import.meta.url);

/**
 * Saves a PNG under test-output/screenshots/ (git-ignored), of the whole
 * page unless `fullPage` is false. For the whole page the
 * viewport is stretched to the page's height first, so fixed elements (the
 * chat button) sit at the bottom as on a real screen, not mid-page.
 */
export async function saveScreenshot(
  page: Page,
  name: string,
  { fullPage = true } = {},
): Promise<void> {
  await Deno.mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = new URL(`${name}.png`, SCREENSHOT_DIR).pathname;
  if (!fullPage) return void await page.screenshot({ path });
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() =>
    document.documentElement.scrollHeight
  );
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}

/** One axe-core rule a page breaks, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/** axe-core's browser build, from the npm package (read once). */
let axeSource: Promise<string> | undefined;

/**
 * Runs axe-core (`npm:axe-core`) on the page as it is now, with its default
 * rules (WCAG A/AA and best practices, every impact), and returns what it
 * finds. axe is evaluated in the page through the DevTools protocol, which
 * the pages' CSP (no inline script) does not govern, so the page is checked
 * as visitors get it, CSP on.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const loaded = () => page.evaluate(() => "axe" in globalThis);
  if (!await loaded()) {
    axeSource ??= Deno.readTextFile(
      new URL("axe.min.js", import.meta.resolve("axe-core")),
    );
    await page.evaluate(await axeSource);
    if (!await loaded()) throw new Error("axe-core did not load");
  }
  return await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any -- axe's own types are not loaded in the page
    const axe = (globalThis as any).axe;
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations.map((
      // deno-lint-ignore no-explicit-any
      v: any,
    ) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      nodes: v.nodes.map((n: any) => ({
        target: n.target.join(" "),
        html: n.html.slice(0, 160),
        summary: n.failureSummary ?? "",
      })),
    }));
  });
}

/** Violations as lines for an assertion message: rule, impact, count, elements. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations.map((v) =>
    `${v.id} (${v.impact}, ${v.nodes.length}): ${v.help}\n${
      v.nodes.map((n) => `    ${n.target}: ${n.html}`).join("\n")
    }`
  ).join("\n");
}

/** Axe finds nothing on the page as it is now; `state` names it in the failure. */
export async function assertAxeClean(page: Page, state: string): Promise<void> {
  const violations = await runAxe(page);
  assert.deepEqual(
    violations,
    [],
    `${state}:\n${describeViolations(violations)}`,
  );
}

/**
 * Makes `POST /api/turismo/check-in` fail as with no signal (the rest of the
 * site works) while the returned switch's `cut` is true. The route stays for
 * `target`'s life: removing one just as a request starts can leave that
 * request paused in the browser (seen: 15 s, until the page's time-out).
 */
export async function cutCheckIns(
  target: Page | BrowserContext,
): Promise<{ cut: boolean }> {
  const control = { cut: true };
  await target.route(
    "**/api/turismo/check-in",
    (route) => control.cut ? route.abort() : route.continue(),
  );
  return control;
}

/**
 * Waits (bounded) until the service worker controls `page` and keeps it:
 * on a busy machine its install (the precache, twenty pages one at a time)
 * may end after the test's last online reload, so it reloads once more.
 */
export async function waitUntilKeptOffline(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  for (let attempt = 1; attempt <= 60; attempt++) {
    const kept = await page.evaluate(async () =>
      navigator.serviceWorker.controller !== null &&
      (await caches.match(location.href)) !== undefined
    );
    if (kept) return;
    if (attempt % 10 === 0) await page.reload();
    await page.waitForTimeout(250);
  }
  throw new Error(`${page.url()} was never kept for use offline`);
}
