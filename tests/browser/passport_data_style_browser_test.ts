/**
 * The passport's "Tus datos" section as a phone and a desktop show it, in
 * headless Chromium: the site's form style (16 px fields, so an iPhone does
 * not zoom in), 44 px targets, room between the buttons, and an erase
 * button that looks destructive, unlike the download, with AA contrast; axe
 * finds nothing in it. Skipped, with the reason printed, when Chromium is
 * missing.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import {
  browserSkipReason,
  describeViolations,
  runAxe,
  startBrowserApp,
} from "../browser.ts";
import { SHIPPED, ticketBody } from "../test_utils.ts";

/** The section's words in each language, as the page shows them. */
const WORDS = {
  es: {
    path: "/mi-pasaporte",
    locale: "es-MX",
    title: "Tus datos",
    download: "Descargar mis datos",
    rename: "Cambiar nombre",
    erase: "Borrar mi pasaporte y mis datos",
    confirm: "Sí, borrar mi pasaporte y mis datos",
    cancel: "Cancelar",
  },
  en: {
    path: "/en/mi-pasaporte",
    locale: "en-US",
    title: "Your data",
    download: "Download my data",
    rename: "Change name",
    erase: "Delete my passport and my data",
    confirm: "Yes, delete my passport and my data",
    cancel: "Cancel",
  },
};

const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  desktop: { width: 1280, height: 800 },
};

/** How an element is painted: its text, background and border colours (sRGB 0–255, alpha 0–1). */
interface Paint {
  color: number[];
  background: number[];
  border: number[];
  /** The first opaque background behind it (itself or an ancestor). */
  behind: number[];
}

/** Reads `locator`'s colours as painted, whatever CSS colour syntax they use. */
function readPaint(locator: Locator): Promise<Paint> {
  return locator.evaluate((el) => {
    const canvas = new OffscreenCanvas(1, 1);
    const context = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgba = (css: string) => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#000";
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const style = getComputedStyle(el);
    let behind = [255, 255, 255, 1];
    for (let node: Element | null = el; node; node = node.parentElement) {
      const color = rgba(getComputedStyle(node).backgroundColor);
      if (color[3] === 1) {
        behind = color;
        break;
      }
    }
    return {
      color: rgba(style.color),
      background: rgba(style.backgroundColor),
      border: rgba(style.borderTopColor),
      behind,
    };
  });
}

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance([r, g, b]: number[]): number {
  const [R, G, B] = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * R + 0.7152 * G + 0.0722 * B;
}

/** WCAG 2 contrast ratio of two opaque colours. */
function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` (with alpha) laid over the opaque `under`. */
function over(color: number[], under: number[]): number[] {
  const a = color[3];
  return [0, 1, 2].map((i) => color[i] * a + under[i] * (1 - a));
}

/** The gap in CSS pixels between two boxes (0 when they touch or overlap). */
async function gapBetween(a: Locator, b: Locator): Promise<number> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  assert.ok(x && y, "both are on screen");
  const dx = Math.max(
    0,
    Math.max(x.x, y.x) - Math.min(x.x + x.width, y.x + y.width),
  );
  const dy = Math.max(
    0,
    Math.max(x.y, y.y) - Math.min(x.y + x.height, y.y + y.height),
  );
  return Math.max(dx, dy);
}

/** A guest passport in `page`'s browser, with two stamps and a ticket (so the rename form shows). */
async function openPassport(page: Page, origin: string): Promise<void> {
  const opened = await page.request.post(`${origin}/api/session-token`, {
    data: { guest: true },
    headers: { origin },
  });
  const { token, userId } = await opened.json();
  const auth = { authorization: `Bearer ${token}` };
  for (const attraction of SHIPPED.attractions.slice(0, 2)) {
    const res = await page.request.post(`${origin}/api/turismo/verify-visit`, {
      data: { code: attraction.guideCode, userId },
      headers: auth,
    });
    assert.equal(res.status(), 200);
  }
  const created = await page.request.post(`${origin}/api/turismo/ticket`, {
    data: ticketBody({ name: "Ana López" }),
    headers: auth,
  });
  assert.equal(created.status(), 200);
}

Deno.test({
  name:
    "GET /mi-pasaporte in Chromium: 'Tus datos' in the site's form style, 44 px targets, a destructive erase",
  ignore: browserSkipReason !== undefined,
  async fn(t) {
    await using app = await startBrowserApp();
    const { origin, browser } = app;

    for (const [lang, words] of Object.entries(WORDS)) {
      for (const [device, viewport] of Object.entries(VIEWPORTS)) {
        // axe is injected as a script: this context lets it past the CSP.
        const context = await browser.newContext({
          locale: words.locale,
          viewport,
          bypassCSP: true,
        });
        const page = await context.newPage();
        await openPassport(page, origin);
        await page.goto(`${origin}${words.path}`);
        await page.waitForLoadState("networkidle");
        const section = page.locator("section", {
          has: page.getByRole("heading", { name: words.title, exact: true }),
        });
        const download = section.getByRole("link", { name: words.download });
        const rename = section.getByRole("button", { name: words.rename });
        const erase = section.getByRole("link", { name: words.erase });
        const input = section.getByRole("textbox");

        await t.step(
          `${lang}, ${device}: its fields are 16 px or more`,
          async () => {
            assert.ok(await input.count() > 0, "the rename field shows");
            for (const field of await input.all()) {
              const size = await field.evaluate((el) =>
                parseFloat(getComputedStyle(el).fontSize)
              );
              assert.ok(size >= 16, `font-size ${size}px`);
            }
          },
        );

        await t.step(
          `${lang}, ${device}: every target is 44 px high or more`,
          async () => {
            const targets = section.locator(
              "a, button, input, select, textarea",
            );
            assert.ok(await targets.count() >= 4);
            for (const target of await targets.all()) {
              const box = await target.boundingBox();
              assert.ok(box, "on screen");
              assert.ok(
                box.height >= 44,
                `${await target.evaluate((el) =>
                  el.outerHTML.slice(0, 80)
                )}: ${box.height}px`,
              );
            }
          },
        );

        await t.step(
          `${lang}, ${device}: erase keeps its distance from the other buttons`,
          async () => {
            assert.ok(await gapBetween(erase, rename) >= 8, "erase and rename");
            assert.ok(
              await gapBetween(erase, download) >= 8,
              "erase and download",
            );
          },
        );

        await t.step(
          `${lang}, ${device}: erase looks destructive, unlike the download, with AA contrast`,
          async () => {
            const [eraseLooks, downloadLooks] = [
              await readPaint(erase),
              await readPaint(download),
            ];
            assert.notDeepEqual(
              [eraseLooks.color, eraseLooks.background, eraseLooks.border],
              [
                downloadLooks.color,
                downloadLooks.background,
                downloadLooks.border,
              ],
            );
            // Red: its outline (or fill) is far more red than green or blue.
            const [r, g, b] = eraseLooks.border;
            assert.ok(
              r > 140 && r > 2 * g && r > 2 * b,
              `border ${eraseLooks.border}`,
            );
            const fill = over(eraseLooks.background, eraseLooks.behind);
            const text = over(eraseLooks.color, fill);
            const textRatio = contrast(text, fill);
            assert.ok(textRatio >= 4.5, `text ${textRatio.toFixed(2)}:1`);
            const edgeRatio = contrast(
              over(eraseLooks.border, eraseLooks.behind),
              eraseLooks.behind,
            );
            assert.ok(edgeRatio >= 3, `outline ${edgeRatio.toFixed(2)}:1`);
          },
        );

        await t.step(
          `${lang}, ${device}: axe finds nothing in the section`,
          async () => {
            await section.evaluate((el) => el.setAttribute("data-checked", ""));
            const inside = [];
            for (const violation of await runAxe(page)) {
              const nodes = [];
              for (const node of violation.nodes) {
                const within = await page.evaluate(
                  (target) =>
                    document.querySelector(target)?.closest("[data-checked]") !=
                      null,
                  node.target,
                );
                if (within) nodes.push(node);
              }
              if (nodes.length) inside.push({ ...violation, nodes });
            }
            assert.deepEqual(inside, [], describeViolations(inside));
          },
        );

        await t.step(
          `${lang}, ${device}: the confirmation's buttons keep apart, 44 px, AA`,
          async () => {
            await erase.click();
            const confirm = page.getByRole("button", { name: words.confirm });
            const cancel = page.getByRole("link", { name: words.cancel });
            await confirm.waitFor();
            assert.ok(
              await gapBetween(confirm, cancel) >= 8,
              "confirm and cancel",
            );
            for (const target of [confirm, cancel]) {
              assert.ok((await target.boundingBox())!.height >= 44);
            }
            const looks = await readPaint(confirm);
            const fill = over(looks.background, looks.behind);
            const ratio = contrast(over(looks.color, fill), fill);
            assert.ok(ratio >= 4.5, `text ${ratio.toFixed(2)}:1`);
          },
        );
        await context.close();
      }
    }
  },
});
