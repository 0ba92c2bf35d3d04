/**
 * The staff console as its own workspace, in headless Chromium: the staff
 * layout at a phone's and a desktop's width (the office, the member, the
 * sections, sign-out; no tourist menu, chat, footer or language offer;
 * axe finds nothing), a bookmark opened after the browser was closed (a
 * new browser context given only the cookies a closed browser keeps: the
 * persistent ones), and the same bookmark once the session has run out,
 * which leads to the plain staff sign-in. The app runs in process with a
 * clock the test moves and a model configured (so tourist pages carry the
 * chat). Skipped, with the reason printed, when Chromium is missing.
 */
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { STAFF_IDLE_MS } from "@/lib/db/staff_sessions.ts";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import {
  browserSkipReason,
  describeViolations,
  PHONE,
  runAxe,
  saveScreenshot,
  startBrowserApp,
  watchPage,
} from "../browser.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import { SHIPPED } from "../test_utils.ts";

const DESKTOP = { width: 1280, height: 800 };
const ANA = "ana@municipio.gob.mx";
const OFFICE = SHIPPED.privacy.office;

/** What the tourist site's layout shows, none of it on a staff page. */
const TOURIST_PARTS = [
  ".site-nav",
  ".site-footer",
  ".chat",
  ".chat__launcher",
  "[data-island]",
  ".lang-switch",
  "a[hreflang]",
  "link[rel=alternate]",
  "script",
];

/** How many of the tourist layout's parts `page` shows, by selector (only those it has). */
async function findTouristParts(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const selector of TOURIST_PARTS) {
    if (await page.locator(selector).count() > 0) found.push(selector);
  }
  if (await page.getByText("English", { exact: true }).count() > 0) {
    found.push('"English"');
  }
  return found;
}

/** Whether the page scrolls sideways (something wider than the screen). */
function isWiderThanScreen(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth >
      document.documentElement.clientWidth
  );
}

Deno.test({
  name:
    "the staff workspace in Chromium: its own layout, a bookmark after a browser restart, the ended-session page",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using fake = startFakeOpenAI();
    await using app = await startBrowserApp({
      openai: fake.client({ maxRetries: 0, timeout: 10_000 }),
    });
    const { ctx, origin, browser } = app;

    /** Opens a fresh sign-in link in `context` and presses its button. */
    async function signIn(context: BrowserContext): Promise<Page> {
      const { url } = await createStaffSignInLink(ctx.deps.kv, {
        email: ANA,
        role: "admin",
        baseUrl: origin,
        now: ctx.clock.now(),
      });
      const page = await context.newPage();
      await page.goto(url);
      await page.getByRole("button", { name: "Entrar al panel" }).click();
      await page.waitForURL(`${origin}/panel`);
      return page;
    }

    await t.step(
      "the check sees the tourist layout where it is (a tourist page)",
      async () => {
        const context = await browser.newContext({ viewport: DESKTOP });
        const page = await context.newPage();
        await page.goto(`${origin}/turismo/atractivos`);
        await page.locator(".chat:not([hidden])").waitFor();
        const found = await findTouristParts(page);
        for (const part of [".site-nav", ".site-footer", ".chat"]) {
          assert.ok(found.includes(part), part);
        }
        await context.close();
      },
    );

    for (
      const [size, viewport] of [["desktop", DESKTOP], [
        "phone",
        PHONE,
      ]] as const
    ) {
      await t.step(
        `${size}: office, member, sections and sign-out; nothing of the tourist site; axe finds nothing`,
        async () => {
          const context = await browser.newContext({
            locale: "es-MX",
            viewport,
            // For axe only: the pages' CSP forbids its injected script.
            bypassCSP: true,
            ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}),
          });
          const page = await signIn(context);
          const watch = watchPage(page, origin);
          const failures: string[] = [];
          for (
            const path of [
              "/panel",
              "/panel/atractivos",
              "/panel/contenido",
              "/panel/fotos",
              "/panel/premios",
              "/panel/codigos",
              "/panel/notas",
              "/panel/preguntas",
              "/panel/exportar",
              "/panel/solicitudes",
              "/panel/sesiones",
              "/panel/personal",
              "/panel/auditoria",
            ]
          ) {
            await page.goto(`${origin}${path}`);
            await page.getByRole("heading", { level: 1 }).waitFor();
            const banner = page.getByRole("banner");
            assert.ok(await banner.getByText(OFFICE).isVisible(), path);
            assert.match(
              await banner.innerText(),
              /ana@municipio\.gob\.mx · Administración/,
              path,
            );
            assert.ok(
              await banner.getByRole("button", { name: "Salir" }).isVisible(),
              path,
            );
            const nav = page.getByRole("navigation", { name: "Panel" });
            assert.equal(await nav.getByRole("link").count(), 13, path);
            // The current section is marked and in view (on a phone the
            // strip of sections opens scrolled to it).
            const box = await nav.locator('[aria-current="page"]')
              .boundingBox();
            assert.ok(
              box && box.x >= 0 && box.x + box.width <= viewport.width,
              `${path}: the current section in view`,
            );
            assert.deepEqual(await findTouristParts(page), [], path);
            assert.equal(
              await page.getByRole("contentinfo").count(),
              0,
              `${path}: no footer`,
            );
            assert.equal(await isWiderThanScreen(page), false, path);
            const violations = await runAxe(page);
            if (violations.length) {
              failures.push(`${path}:\n${describeViolations(violations)}`);
            }
          }
          // The current section, in view and marked.
          const current = page.getByRole("navigation", { name: "Panel" })
            .locator('[aria-current="page"]');
          assert.equal(await current.innerText(), "Auditoría");
          await page.goto(`${origin}/panel`);
          await saveScreenshot(page, `staff-workspace-${size}`, {
            fullPage: false,
          });
          assert.deepEqual(failures, [], failures.join("\n\n"));
          assert.deepEqual(watch.problems, []);
          await context.close();
        },
      );
    }

    let kept: Awaited<ReturnType<BrowserContext["cookies"]>> = [];
    await t.step(
      "a bookmark after a browser restart opens the panel",
      async () => {
        const context = await browser.newContext({
          locale: "es-MX",
          viewport: DESKTOP,
        });
        await signIn(context);
        // A closed browser keeps only persistent cookies (expires set).
        kept = (await context.cookies(origin)).filter((cookie) =>
          cookie.expires > 0
        );
        await context.close();
        const staff = kept.find((cookie) => cookie.name === "staff");
        assert.ok(staff, "the staff cookie outlives the browser");
        assert.ok(staff.httpOnly);
        assert.equal(staff.sameSite, "Strict");

        const reopened = await browser.newContext({
          locale: "es-MX",
          viewport: DESKTOP,
        });
        await reopened.addCookies(kept);
        const page = await reopened.newPage();
        const watch = watchPage(page, origin);
        const res = await page.goto(`${origin}/panel`);
        assert.equal(res?.status(), 200);
        await page.getByRole("heading", { name: "Tablero", level: 1 })
          .waitFor();
        assert.deepEqual(watch.problems, []);
        await reopened.close();
      },
    );

    for (
      const [size, viewport] of [["desktop", DESKTOP], [
        "phone",
        PHONE,
      ]] as const
    ) {
      await t.step(
        `${size}: once the session ran out, the bookmark leads to the staff sign-in, every time`,
        async () => {
          if (viewport === DESKTOP) ctx.clock.advance(STAFF_IDLE_MS);
          const reopened = await browser.newContext({
            locale: "es-MX",
            viewport,
            bypassCSP: true,
          });
          await reopened.addCookies(kept);
          const page = await reopened.newPage();
          const watch = watchPage(page, origin);
          for (let i = 0; i < 2; i++) {
            const res = await page.goto(`${origin}/panel`);
            assert.equal(res?.status(), 200);
            assert.equal(page.url(), `${origin}/auth/personal?sesion=vencida`);
            await page.getByRole("heading", {
              name: "Tu sesión del panel terminó",
              level: 1,
            }).waitFor();
            await page.getByText(
              "Pide a la persona que administra el portal un nuevo enlace de acceso.",
              { exact: false },
            ).waitFor();
          }
          assert.ok(
            await page.getByRole("banner").getByText(OFFICE).isVisible(),
          );
          assert.deepEqual(await findTouristParts(page), []);
          assert.equal(
            await page.getByRole("navigation", { name: "Panel" }).count(),
            0,
          );
          assert.equal(await isWiderThanScreen(page), false);
          const violations = await runAxe(page);
          assert.deepEqual(violations, [], describeViolations(violations));
          await saveScreenshot(page, `staff-session-ended-${size}`, {
            fullPage: false,
          });
          assert.deepEqual(watch.problems, []);
          await reopened.close();
        },
      );
    }
  },
});
