/**
 * Text contrast measured against what Chromium really paints behind the
 * text, for the browser tests. axe-core reads background colours from CSS
 * and gives up on gradients, images and overlays; this check instead takes
 * two looks at the page: it reads every visible text's computed colour (and
 * its opacity), then makes all text transparent and screenshots the page,
 * so the pixels under each text's boxes are its real background. The
 * contrast (WCAG 2) of the colour against those pixels must reach 4.5:1, or
 * 3:1 for large text (24 px, or 18.66 px bold), for at least 95 % of the
 * pixels behind the text (a few anti-aliased edge pixels do not fail it).
 *
 * The PNG is decoded by the page's own Chromium (`createImageBitmap`): no
 * decoder library needed.
 */
import type { Page } from "playwright-core";

/** One text (or form field) that does not stand out enough from its background. */
export interface LowContrast {
  /** Where: the element's tag, id and classes, with two ancestors. */
  selector: string;
  /** The text's start (or `<input>` for a field's value or placeholder). */
  text: string;
  /** The text colour as painted (`#rrggbb`, with its alpha when below 1). */
  color: string;
  /** The background colour at the measured (worst 5 %) pixel. */
  background: string;
  /** The contrast there, rounded down to two decimals. */
  ratio: number;
  /** What it needs: 4.5, or 3 for large text (times the margin asked). */
  required: number;
}

/** What a page's measure found, and how many texts it measured. */
export interface ContrastResult {
  /** Texts and fields measured (a page that measures none measured nothing). */
  checked: number;
  found: LowContrast[];
}

/** A text to measure, as the page reports it. */
interface Sample {
  selector: string;
  text: string;
  /** r, g, b (0–255) and alpha (0–1, opacity included). */
  rgba: [number, number, number, number];
  required: number;
  /** Boxes in the viewport (the screenshot): x, y, width, height. */
  boxes: [number, number, number, number][];
}

/** The share of background pixels that may fall short (edge anti-aliasing). */
const TOLERATED_SHARE = 0.05;

/** How to measure. */
export interface ContrastOptions {
  /**
   * A factor on what each text needs (4.5:1, 3:1 large): 1.05 asks 4.725:1,
   * for a text that must pass with room to spare. 1 unless given.
   */
  margin?: number;
}

/**
 * Measures every visible text, link, button label and form field's value on
 * the page, and returns those whose contrast against their painted
 * background falls short, with how many were measured. The viewport
 * is stretched to the page's height while measuring (as for a full-page
 * screenshot) and set back after. Skipped: text that is not rendered,
 * transparent, off the page, clipped away, visually hidden (`.sr-only`),
 * `aria-hidden`, inside a disabled control, or without a letter or digit
 * (emoji, separators).
 */
export async function findLowContrast(
  page: Page,
  { margin = 1 }: ContrastOptions = {},
): Promise<ContrastResult> {
  const viewport = page.viewportSize();
  if (!viewport) throw new Error("the page has no viewport");
  try {
    // A page that moves while measured (a late image, an island) is
    // measured again: the boxes must be where the screenshot shows them.
    for (let attempt = 1;; attempt++) {
      await stretchToPage(page, viewport);
      const samples = await page.evaluate(collectSamples);
      await page.evaluate(hideText);
      const png = await page.screenshot({
        animations: "disabled",
        caret: "hide",
        scale: "css",
      });
      await page.evaluate(showText);
      const again = await page.evaluate(collectSamples);
      const boxesOf = (list: Sample[]) =>
        JSON.stringify(list.map((s) => s.boxes));
      // Moved, or grown past the viewport.
      const fits = await page.evaluate(() =>
        document.documentElement.scrollHeight <= innerHeight
      );
      if (!fits || boxesOf(again) !== boxesOf(samples)) {
        if (attempt < 3) continue;
        throw new Error(`${page.url()} kept moving while measured`);
      }
      const result = await page.evaluate(measureSamples, {
        png: png.toString("base64"),
        samples,
        tolerated: TOLERATED_SHARE,
        margin,
      });
      if (result) return result;
      if (attempt >= 3) {
        throw new Error(`${page.url()}: the screenshot is not the viewport`);
      }
    }
  } finally {
    await page.setViewportSize(viewport);
  }
}

/**
 * Stretches the viewport to the page's height (twice, in case the stretch
 * changes it), scrolled to the top, and waits for what the stretch brought
 * into view: lazy images (5 s at most) and fonts.
 */
async function stretchToPage(
  page: Page,
  viewport: { width: number; height: number },
): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const height = await page.evaluate(() =>
      document.documentElement.scrollHeight
    );
    await page.setViewportSize({
      width: viewport.width,
      height: Math.max(viewport.height, height),
    });
    await page.evaluate(async () => {
      scrollTo({ top: 0, behavior: "instant" });
      const pending = [...document.images].filter((img) => !img.complete)
        .map((img) =>
          new Promise((resolve) => {
            img.addEventListener("load", resolve, { once: true });
            img.addEventListener("error", resolve, { once: true });
          })
        );
      await Promise.race([
        Promise.all(pending),
        new Promise((resolve) => setTimeout(resolve, 5_000)),
      ]);
      await document.fonts.ready;
    });
  }
}

/** The `LowContrast` list as lines for an assertion message. */
export function describeLowContrast(found: LowContrast[]): string {
  return found.map((f) =>
    `    ${f.selector} "${f.text}": ${f.color} on ${f.background} = ${f.ratio}:1 (needs ${f.required}:1)`
  ).join("\n");
}

/**
 * In the page: the texts to measure, their painted colour and boxes. Runs
 * in Chromium (serialised by Playwright): self-contained.
 */
function collectSamples(): Sample[] {
  const canvas = new OffscreenCanvas(1, 1);
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  const colors = new Map<string, [number, number, number, number]>();
  /** Any CSS colour (color-mix, oklab, …) as sRGB bytes, by painting it. */
  const toRgba = (css: string) => {
    let rgba = colors.get(css);
    if (!rgba) {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = "#000";
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
      rgba = [r, g, b, a / 255];
      colors.set(css, rgba);
    }
    return rgba;
  };
  const opacities = new Map<Element, number>();
  const opacityOf = (el: Element | null): number => {
    if (!el) return 1;
    let value = opacities.get(el);
    if (value === undefined) {
      value = Number(getComputedStyle(el).opacity) *
        opacityOf(el.parentElement);
      opacities.set(el, value);
    }
    return value;
  };
  const describe = (el: Element) => {
    const parts: string[] = [];
    for (
      let node: Element | null = el;
      node && node !== document.body && parts.length < 3;
      node = node.parentElement
    ) {
      parts.unshift(
        `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ""}${
          node.classList.length ? `.${[...node.classList].join(".")}` : ""
        }`,
      );
    }
    return parts.join(" > ");
  };
  /** A box cut down to what its scrolling or clipping ancestors show. */
  const clip = (rect: DOMRect, el: Element) => {
    let [left, top, right, bottom] = [
      rect.left,
      rect.top,
      rect.right,
      rect.bottom,
    ];
    for (
      let node: Element | null = el;
      node && node !== document.documentElement;
      node = node.parentElement
    ) {
      const style = getComputedStyle(node);
      if (style.overflowX === "visible" && style.overflowY === "visible") {
        continue;
      }
      const box = node.getBoundingClientRect();
      const x = box.left + node.clientLeft;
      const y = box.top + node.clientTop;
      if (style.overflowX !== "visible") {
        left = Math.max(left, x);
        right = Math.min(right, x + node.clientWidth);
      }
      if (style.overflowY !== "visible") {
        top = Math.max(top, y);
        bottom = Math.min(bottom, y + node.clientHeight);
      }
    }
    // What the viewport (the screenshot) shows.
    left = Math.max(left, 0);
    top = Math.max(top, 0);
    right = Math.min(right, innerWidth);
    bottom = Math.min(bottom, innerHeight);
    return right - left >= 2 && bottom - top >= 2
      ? [left, top, right - left, bottom - top] as [
        number,
        number,
        number,
        number,
      ]
      : undefined;
  };
  const isSkipped = (el: Element) =>
    !el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ||
    el.closest(
        "script, style, noscript, template, [aria-hidden='true'], :disabled, [aria-disabled='true']",
      ) !== null;
  const requiredFor = (style: CSSStyleDeclaration) => {
    const size = parseFloat(style.fontSize);
    const bold = Number(style.fontWeight) >= 700;
    return size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  };
  const samples: Sample[] = [];
  const add = (
    el: Element,
    text: string,
    color: string,
    rects: Iterable<DOMRect>,
  ) => {
    const [r, g, b, a] = toRgba(color);
    const fillOpacity = el instanceof SVGElement
      ? Number(getComputedStyle(el).fillOpacity)
      : 1;
    const alpha = a * fillOpacity * opacityOf(el);
    if (alpha < 0.02) return;
    const boxes = [...rects].map((rect) => clip(rect, el)).filter((box) =>
      box !== undefined
    );
    if (!boxes.length) return;
    samples.push({
      selector: describe(el),
      text: text.replace(/\s+/g, " ").trim().slice(0, 60),
      rgba: [r, g, b, alpha],
      required: requiredFor(getComputedStyle(el)),
      boxes,
    });
  };

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? "";
    const owner = node.parentElement;
    if (!owner || !/[\p{L}\p{N}]/u.test(text) || isSkipped(owner)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    // SVG text (the charts) is painted with `fill`, not `color`.
    const style = getComputedStyle(owner);
    const paint = owner instanceof SVGElement ? style.fill : style.color;
    if (paint === "none" || paint.startsWith("url(")) continue;
    add(owner, text, paint, range.getClientRects());
  }
  const fields = document.querySelectorAll<
    HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
  >("input, textarea, select");
  for (const field of fields) {
    if (isSkipped(field)) continue;
    if (
      field instanceof HTMLInputElement &&
      /^(hidden|checkbox|radio|range|color|file|image)$/.test(field.type)
    ) continue;
    const placeholder = "placeholder" in field && !field.value
      ? field.placeholder
      : "";
    const text = field instanceof HTMLSelectElement
      ? field.selectedOptions[0]?.text ?? ""
      : field.value || placeholder;
    if (!/[\p{L}\p{N}]/u.test(text)) continue;
    const style = getComputedStyle(field);
    const color = placeholder
      ? getComputedStyle(field, "::placeholder").color
      : style.color;
    // The content box: inside the border and the padding.
    const box = field.getBoundingClientRect();
    const inset = (side: string) =>
      parseFloat(style.getPropertyValue(`border-${side}-width`)) +
      parseFloat(style.getPropertyValue(`padding-${side}`));
    const content = new DOMRect(
      box.left + inset("left"),
      box.top + inset("top"),
      box.width - inset("left") - inset("right"),
      box.height - inset("top") - inset("bottom"),
    );
    add(field, `<${field.tagName.toLowerCase()}> ${text}`, color, [content]);
  }
  return samples;
}

/** In the page: every text and marker transparent, so a screenshot shows only backgrounds. */
function hideText(): Promise<void> {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`
    *, *::before, *::after, *::marker, *::placeholder, *::first-letter, *::first-line {
      color: transparent !important;
      -webkit-text-fill-color: transparent !important;
      -webkit-text-stroke-color: transparent !important;
      text-decoration-color: transparent !important;
      text-emphasis-color: transparent !important;
      caret-color: transparent !important;
      text-shadow: none !important;
      transition: none !important;
      animation: none !important;
    }
    svg text, svg tspan {
      fill: transparent !important;
    }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  // deno-lint-ignore no-explicit-any -- a marker for showText
  (globalThis as any).__contrastSheet = sheet;
  return new Promise((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
  );
}

/** In the page: the text back as it was. */
function showText(): void {
  // deno-lint-ignore no-explicit-any
  const sheet = (globalThis as any).__contrastSheet;
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) =>
    s !== sheet
  );
}

/**
 * In the page: decodes the screenshot of the backgrounds and measures each
 * sample's contrast over the pixels under its boxes (at most about 400 per
 * box, an inner pixel's margin left out).
 */
async function measureSamples(
  { png, samples, tolerated, margin }: {
    png: string;
    samples: Sample[];
    tolerated: number;
    margin: number;
  },
): Promise<ContrastResult | null> {
  const binary = atob(png);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const bitmap = await createImageBitmap(
    new Blob([bytes], { type: "image/png" }),
    { colorSpaceConversion: "none", premultiplyAlpha: "none" },
  );
  if (bitmap.width !== innerWidth || bitmap.height !== innerHeight) return null;
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d", { willReadFrequently: true })!;
  context.drawImage(bitmap, 0, 0);
  const { data, width, height } = context.getImageData(
    0,
    0,
    bitmap.width,
    bitmap.height,
  );
  // sRGB to linear light, by byte (composited text colours are rounded).
  const linear = Array.from({ length: 256 }, (_, c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const luminance = (r: number, g: number, b: number) =>
    0.2126 * linear[Math.round(r)] + 0.7152 * linear[Math.round(g)] +
    0.0722 * linear[Math.round(b)];
  const hex = (r: number, g: number, b: number) =>
    `#${
      [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join(
        "",
      )
    }`;
  const found: LowContrast[] = [];
  let checked = 0;
  const seen = new Set<string>();
  for (const sample of samples) {
    const [tr, tg, tb, alpha] = sample.rgba;
    const measured: { ratio: number; pixel: number }[] = [];
    for (const [x, y, w, h] of sample.boxes) {
      const x0 = Math.max(0, Math.ceil(x + 1));
      const y0 = Math.max(0, Math.ceil(y + 1));
      const x1 = Math.min(width, Math.floor(x + w - 1));
      const y1 = Math.min(height, Math.floor(y + h - 1));
      if (x1 <= x0 || y1 <= y0) continue;
      const step = Math.max(
        1,
        Math.floor(Math.sqrt((x1 - x0) * (y1 - y0) / 400)),
      );
      for (let py = y0; py < y1; py += step) {
        for (let px = x0; px < x1; px += step) {
          const i = (py * width + px) * 4;
          const [br, bg, bb] = [data[i], data[i + 1], data[i + 2]];
          // Translucent text is seen mixed with what is behind it.
          const fg = luminance(
            alpha * tr + (1 - alpha) * br,
            alpha * tg + (1 - alpha) * bg,
            alpha * tb + (1 - alpha) * bb,
          );
          const back = luminance(br, bg, bb);
          measured.push({
            ratio: (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05),
            pixel: i,
          });
        }
      }
    }
    if (!measured.length) continue;
    checked++;
    measured.sort((a, b) => a.ratio - b.ratio);
    const worst = measured[Math.floor(measured.length * tolerated)];
    const required = sample.required * margin;
    if (worst.ratio >= required) continue;
    const key = `${sample.selector}|${sample.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const i = worst.pixel;
    found.push({
      selector: sample.selector,
      text: sample.text,
      color: hex(tr, tg, tb) +
        (alpha < 1 ? ` at ${Math.round(alpha * 100)} %` : ""),
      background: hex(data[i], data[i + 1], data[i + 2]),
      ratio: Math.floor(worst.ratio * 100) / 100,
      required,
    });
  }
  return { checked, found };
}
