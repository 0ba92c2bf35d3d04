/**
 * Accessibility and layout in headless Chromium, against the real app on a
 * loopback port: axe-core finds nothing on any page (every rule, every
 * impact) at phone and desktop width; on a phone no floating control covers
 * text anywhere on the page; without a model the chat is neither shown nor
 * loaded. Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { saveTicket } from "@/lib/db/tickets.ts";
import {
  DEFAULT_LANG,
  getLangs,
  t as translate,
} from "@/lib/i18n/catalogue.ts";
import { localizePath } from "@/lib/i18n/paths.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  browserSkipReason,
  describeViolations,
  launchBrowser,
  PHONE,
  runAxe,
  watchPage,
} from "../browser.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  createTestContext,
  randomTicket,
  randomUserId,
  serveApp,
  SHIPPED,
  type TestContext,
  verifyVisits,
} from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };

const REPLY = "Te recomiendo la **Plaza Principal de Tequila** 🌵:\n\n" +
  "- Entrada **gratuita**.\n- A 100 m, la **Parroquia de Santiago Apóstol**.\n\n" +
  "Más en [Plaza Principal](/turismo/atractivos/plaza-principal).";

/** A page of the portal to check, by name; `{route}` etc. are filled in. */
type PageSpec = {
  name: string;
  path: string;
  status?: number;
  /** The page's language (default Spanish). */
  lang?: string;
  /** False for the staff workspace's pages, which carry no chat. */
  chat?: boolean;
};

/**
 * The pages every check visits. Extend this list with each new page
 * (`{withVisits}`, `{noVisits}`: the two routes' codes).
 */
const PAGES: PageSpec[] = [
  { name: "home", path: "/" },
  { name: "attractions", path: "/turismo/atractivos" },
  { name: "attraction", path: "/turismo/atractivos/plaza-principal" },
  { name: "map", path: "/turismo/mapa" },
  { name: "route with visits", path: "/ruta/{withVisits}" },
  { name: "route without visits", path: "/ruta/{noVisits}" },
  { name: "passport (guest, with visits)", path: "/mi-pasaporte" },
  { name: "services", path: "/turismo/servicios" },
  {
    name: "a service provider",
    path: `/turismo/servicios/${SHIPPED.providers[0].slug}`,
  },
  { name: "practical information", path: "/turismo/informacion-practica" },
  { name: "privacy notice", path: "/aviso-de-privacidad" },
  { name: "open data", path: "/datos" },
  { name: "staff sign-in", path: "/auth/personal", chat: false },
  { name: "not found", path: "/turismo/atractivos/no-existe", status: 404 },
];

/**
 * The same pages in every other language (`/en/...`); the staff console
 * stays Spanish-only.
 */
const ALL_PAGES: PageSpec[] = [
  ...PAGES,
  ...getLangs().filter((lang) => lang !== DEFAULT_LANG).flatMap((lang) =>
    PAGES.filter((spec) => !spec.path.startsWith("/auth/")).map((spec) => ({
      ...spec,
      name: `${spec.name} (${lang})`,
      path: localizePath(lang, spec.path),
      lang,
    }))
  ),
];
/**
 * What a floating control covers on the page, scrolled from the top to the
 * end in steps of half a screen (at most 80 steps, the end included): at
 * each position, the chat button's box and the box of every visible
 * `position: fixed | sticky` element are tested against the client rects
 * (`Range.getClientRects`) of every visible text node in the viewport and
 * the boxes of form fields, outside the control itself. Visually hidden
 * text (1 px boxes) and hidden elements do not count. Returns one line per
 * covered text: the scroll position, the control and the text.
 */
function findCoveredText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MAX_STEPS = 80;
    const root = document.documentElement;
    const found: string[] = [];
    const visible = (el: Element) =>
      el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${
        el.classList.length ? `.${[...el.classList].join(".")}` : ""
      }`;
    const overlaps = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const check = (y: number) => {
      const controls = [
        ...document.querySelectorAll(".chat__launcher"),
        ...[...document.body.querySelectorAll("*")].filter((el) =>
          ["fixed", "sticky"].includes(getComputedStyle(el).position)
        ),
      ].filter((el) => visible(el));
      const viewport = new DOMRect(0, 0, root.clientWidth, innerHeight);
      const content: { rect: DOMRect; owner: Element; text: string }[] = [];
      const walker = document.createTreeWalker(
        document.body,
        NodeFilter.SHOW_TEXT,
      );
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent?.trim();
        const owner = node.parentElement;
        if (!text || !owner || !visible(owner)) continue;
        if (owner.closest("script, style, noscript, template")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          content.push({ rect, owner, text: text.slice(0, 50) });
        }
      }
      for (
        const field of document.querySelectorAll("input, textarea, select")
      ) {
        if (!visible(field)) continue;
        content.push({
          rect: field.getBoundingClientRect(),
          owner: field,
          text: `<${field.tagName.toLowerCase()}>`,
        });
      }
      for (const control of controls) {
        const box = control.getBoundingClientRect();
        if (!overlaps(box, viewport)) continue;
        for (const { rect, owner, text } of content) {
          if (rect.width <= 1 || rect.height <= 1) continue;
          if (control.contains(owner) || owner.contains(control)) continue;
          if (!overlaps(rect, viewport) || !overlaps(rect, box)) continue;
          found.push(`at ${y}px, ${describe(control)} covers "${text}"`);
        }
      }
    };
    const end = Math.max(0, root.scrollHeight - innerHeight);
    const step = Math.max(1, Math.floor(innerHeight / 2));
    const positions = new Set<number>();
    for (let y = 0; y < end && positions.size < MAX_STEPS; y += step) {
      positions.add(y);
    }
    positions.add(end);
    for (const y of positions) {
      scrollTo({ top: y, behavior: "instant" });
      check(Math.round(scrollY));
    }
    scrollTo({ top: 0, behavior: "instant" });
    return found;
  });
}

Deno.test({
  name:
    "accessibility in Chromium: axe finds nothing, no floating control covers text on a phone, no chat without a model",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    const started = performance.now();
    await ensureBuild();
    await using fake = startFakeOpenAI();
    fake.respondWith({ type: "reply", content: REPLY });
    await using ctx = await createTestContext({
      openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
    });
    await using server = serveApp((req, info) => ctx.app.fetch(req, info));
    const { origin } = server;
    const browser: Browser = await launchBrowser();

    // Two routes: one with six verified visits (two rated), one with none.
    const userId = randomUserId();
    const withVisits = await saveTicket(
      ctx.deps.kv,
      randomTicket({ name: "María José Hernández", userId }),
    );
    await verifyVisits(ctx, userId, 6, 26 * 60 * 60 * 1000);
    const noVisits = await saveTicket(ctx.deps.kv, randomTicket());
    const pathOf = (spec: PageSpec) =>
      spec.path.replace("{withVisits}", withVisits.shareCode)
        .replace("{noVisits}", noVisits.shareCode);

    /** A browser context whose visitor holds a guest passport with three visits. */
    async function newGuestContext(
      options: { viewport: typeof PHONE; bypassCSP?: boolean },
    ): Promise<BrowserContext> {
      const context = await browser.newContext({ locale: "es-MX", ...options });
      const page = await context.newPage();
      await page.goto(`${origin}/healthz`);
      const { userId } = await page.evaluate(async () =>
        (await fetch("/api/session-token", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ guest: true }),
        })).json()
      );
      assert.ok(userId, "a guest passport");
      await verifyVisits(ctx, userId, 3);
      await page.close();
      return context;
    }

    /** Opens `path` and waits for the islands (the chat among them) and the fonts. */
    async function open(context: BrowserContext, spec: PageSpec) {
      const page = await context.newPage();
      const watch = watchPage(page, origin);
      if (spec.status === 404) watch.allow(/status of 404/);
      const response = await page.goto(`${origin}${pathOf(spec)}`);
      assert.equal(response?.status(), spec.status ?? 200, spec.name);
      if (spec.chat !== false) {
        await page.locator(".chat:not([hidden])").waitFor();
      }
      await page.evaluate(() => document.fonts.ready);
      return { page, watch };
    }

    try {
      await t.step(
        "without a model the chat is neither shown nor loaded",
        async () => {
          await using bare: TestContext = await createTestContext();
          await using bareServer = serveApp((req, info) =>
            bare.app.fetch(req, info)
          );
          const context = await browser.newContext({ viewport: PHONE });
          for (
            const path of [
              "/",
              "/mi-pasaporte",
              "/turismo/atractivos/plaza-principal",
            ]
          ) {
            const page = await context.newPage();
            const watch = watchPage(page, bareServer.origin);
            const requested: string[] = [];
            page.on("request", (request) => requested.push(request.url()));
            await page.goto(`${bareServer.origin}${path}`);
            await page.waitForLoadState("networkidle");
            assert.equal(
              await page.locator(".chat, .chat__launcher").count(),
              0,
            );
            assert.equal(
              await page.locator('[data-island="ChatWidget"]').count(),
              0,
            );
            assert.deepEqual(
              requested.filter((url) => /ChatWidget|markdown/.test(url)),
              [],
              `${path} loads no chat script`,
            );
            // The other islands still run (here: the check-in or the ticket
            // form; the home page has neither).
            if (path !== "/") {
              await page.locator(
                "form.ticket-form button:not([disabled]), .check-in button:not([disabled])",
              ).first().waitFor();
            }
            assert.deepEqual(watch.problems, []);
            await page.close();
          }
          await context.close();
        },
      );

      await t.step(
        "on a phone no floating control covers text, from the top to the end of every page, and axe finds nothing",
        async () => {
          const context = await newGuestContext({ viewport: PHONE });
          const failures: string[] = [];
          for (const spec of ALL_PAGES) {
            const { page, watch } = await open(context, spec);
            const launcher = page.getByRole("button", {
              name: translate(spec.lang ?? DEFAULT_LANG, "chat.launcher"),
            });
            assert.equal(
              await launcher.isVisible(),
              spec.chat !== false,
              `${spec.name}: the button`,
            );
            const covered = await findCoveredText(page);
            assert.deepEqual(
              covered,
              [],
              `${spec.name}: ${covered.join("\n")}`,
            );
            const violations = await runAxe(page);
            if (violations.length) {
              failures.push(
                `${spec.name} (phone):\n${describeViolations(violations)}`,
              );
            }
            assert.deepEqual(watch.problems, [], spec.name);
            await page.close();
          }
          await context.close();
          assert.deepEqual(failures, [], failures.join("\n\n"));

          // The check sees what it looks for: the button floating at the
          // corner, as it did before, covers text.
          const floating = await browser.newContext({
            viewport: PHONE,
            bypassCSP: true,
          });
          const { page } = await open(floating, PAGES[2]);
          await page.addStyleTag({
            content: ".chat { position: fixed; right: 1rem; bottom: 1rem; }",
          });
          assert.notDeepEqual(await findCoveredText(page), []);
          // And axe sees an image without alt text.
          await page.evaluate(() => {
            document.querySelector("main")?.append(
              Object.assign(document.createElement("img"), {
                src: "/static/no-alt.png",
              }),
            );
          });
          assert.ok(
            (await runAxe(page)).some((v) => v.id === "image-alt"),
            "axe finds the image without alt text",
          );
          await floating.close();
        },
      );

      await t.step(
        "axe-core finds no violation on any page in every language at desktop width (the phone's pages above), chat open at both",
        async () => {
          const failures: string[] = [];
          for (const viewport of [PHONE, DESKTOP]) {
            const size = viewport === PHONE ? "phone" : "desktop";
            const context = await newGuestContext({ viewport });
            for (const spec of viewport === PHONE ? [] : ALL_PAGES) {
              const { page } = await open(context, spec);
              const violations = await runAxe(page);
              if (violations.length) {
                failures.push(
                  `${spec.name} (${size}):\n${describeViolations(violations)}`,
                );
              }
              await page.close();
            }
            // The chat open, with a question answered.
            const { page } = await open(context, PAGES[0]);
            await page.getByRole("button", { name: "Asistente turístico" })
              .click();
            // Empty: the privacy notes above the input and by the location.
            await page.locator(".chat__privacy").waitFor();
            const empty = await runAxe(page);
            if (empty.length) {
              failures.push(
                `chat open, empty (${size}):\n${describeViolations(empty)}`,
              );
            }
            const input = page.getByLabel("Escribe tu pregunta");
            await input.fill("¿Qué visito primero?");
            await input.press("Enter");
            await page.locator(".chat-msg--assistant a").first().waitFor();
            const violations = await runAxe(page);
            if (violations.length) {
              failures.push(
                `chat open (${size}):\n${describeViolations(violations)}`,
              );
            }
            await context.close();
          }
          assert.deepEqual(failures, [], failures.join("\n\n"));
        },
      );
    } finally {
      await browser.close();
      console.info(
        `accessibility browser tests took ${
          ((performance.now() - started) / 1000).toFixed(1)
        } s`,
      );
    }
  },
});
