/**
 * Replace satori's `<image href="data:image/svg+xml...">` elements with
 * inline nested `<svg>` elements before rasterising.
 *
 * resvg-wasm re-initialises a full parser for every nested SVG *image*
 * (~50 ms each on a 2-core box), while the same markup inlined as a nested
 * `<svg>` costs well under a millisecond. Only trusted markup is inlined:
 * twemoji files (registered by emoji.ts) and the `<svg>` elements of our own
 * VDOM, which satori serialises as `data:image/svg+xml;utf8,...`. User text
 * never becomes markup, so it can never reach this code as an element.
 */
import { LRUCache } from "lru-cache";

interface InlineSvg {
  /** viewBox of the inner document. */
  viewBox: string;
  /** Presentation attributes of the inner root (fill, stroke, ...). */
  rootAttrs: string;
  /** Inner markup (children of the root). */
  body: string;
}

const BASE64_PREFIX = "data:image/svg+xml;base64,";
const UTF8_PREFIX = "data:image/svg+xml;utf8,";

/** Parsed trusted documents keyed by their full data URI. */
const trusted = new LRUCache<string, InlineSvg>({ max: 1024 });

const ATTR_RE = /([:\w-]+)\s*=\s*"([^"]*)"/g;

function parseAttrs(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of source.matchAll(ATTR_RE)) out.set(m[1], m[2]);
  return out;
}

const DROP_ROOT_ATTRS = new Set([
  "xmlns",
  "xmlns:xlink",
  "version",
  "width",
  "height",
  "x",
  "y",
  "viewBox",
  "preserveAspectRatio",
  "style",
  "id",
  "class",
]);

let counter = 0;

/** Parse a standalone SVG document; null if it is not one we understand. */
function parseSvg(markup: string): InlineSvg | null {
  const m = /^\s*(?:<\?xml[^>]*\?>\s*)?<svg\b([^>]*)>([\s\S]*)<\/svg>\s*$/
    .exec(markup);
  if (!m) return null;
  const attrs = parseAttrs(m[1]);
  let viewBox = attrs.get("viewBox");
  if (!viewBox) {
    const w = parseFloat(attrs.get("width") ?? "");
    const h = parseFloat(attrs.get("height") ?? "");
    if (!(w > 0 && h > 0)) return null;
    viewBox = `0 0 ${w} ${h}`;
  }
  const rootAttrs = [...attrs]
    .filter(([k]) => !DROP_ROOT_ATTRS.has(k) && !k.startsWith("on"))
    .map(([k, v]) => ` ${k}="${v}"`).join("");
  // Make ids unique so several inlined documents cannot collide.
  const prefix = `og${(counter++).toString(36)}-`;
  const body = m[2]
    .replace(/\bid="([^"]+)"/g, `id="${prefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}$1"`);
  return { viewBox, rootAttrs, body };
}

/** Mark an SVG document (by its data URI) as safe to inline. */
export function registerTrustedSvg(dataUri: string, markup: string): void {
  if (trusted.has(dataUri)) return;
  const parsed = parseSvg(markup);
  if (!parsed) return;
  trusted.set(dataUri, parsed);
}

function lookup(href: string): InlineSvg | null {
  if (href.startsWith(BASE64_PREFIX)) return trusted.get(href) ?? null;
  if (href.startsWith(UTF8_PREFIX)) {
    // Satori's serialisation of our own VDOM <svg> elements.
    let markup: string;
    try {
      markup = decodeURIComponent(unescapeXml(href.slice(UTF8_PREFIX.length)));
    } catch {
      return null;
    }
    return parseSvg(markup);
  }
  return null;
}

function unescapeXml(value: string): string {
  return value.replace(
    /&(quot|apos|lt|gt|amp|#39);/g,
    (_, e: string) =>
      ({ quot: '"', apos: "'", lt: "<", gt: ">", amp: "&", "#39": "'" })[e] ??
        "",
  );
}

const IMAGE_RE = /<image\b([^>]*?)\/>/g;

/** Inline every trusted SVG image of a satori document. */
export function inlineSvgImages(svg: string): string {
  return svg.replace(IMAGE_RE, (whole, attrSource: string) => {
    const attrs = parseAttrs(attrSource);
    const href = attrs.get("href") ?? attrs.get("xlink:href");
    if (!href) return whole;
    const inner = lookup(href);
    if (!inner) return whole;
    const pos = ["x", "y", "width", "height"]
      .map((k) => attrs.has(k) ? ` ${k}="${attrs.get(k)}"` : "").join("");
    const par = attrs.get("preserveAspectRatio") ?? "xMidYMid meet";
    const nested =
      `<svg${pos} viewBox="${inner.viewBox}" preserveAspectRatio="${par}"${inner.rootAttrs}>${inner.body}</svg>`;
    const wrap = ["clip-path", "mask", "opacity", "transform", "filter"]
      .filter((k) => attrs.has(k))
      .map((k) => ` ${k}="${attrs.get(k)}"`).join("");
    return wrap ? `<g${wrap}>${nested}</g>` : nested;
  });
}
