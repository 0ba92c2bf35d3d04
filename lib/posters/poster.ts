/**
 * The printable QR poster of an attraction (an A4 SVG, in mm): drawn by
 * `deno task posters` (scripts/posters.ts) for every attraction, and by the
 * staff console for one, with the attraction's current guide code. Never
 * served on a public path: the codes stay off the web.
 *
 * Bilingual: every line in Spanish, and under it the same line in the
 * portal's second language (English), smaller; the words come from
 * `locales/<lang>/poster.json`, the attraction's name from the data set as
 * seen in that language.
 */
import QRCode from "qrcode";
import { contrastRatio, parseHex, type Rgb } from "@/lib/branding/color.ts";
import type { Branding, TourismData } from "@/lib/data/tourism_data.ts";
import { localizeData } from "@/lib/data/translations.ts";
import {
  DEFAULT_LANG,
  getLangs,
  type Lang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";

/** What one poster shows. */
export interface PosterInput {
  branding: Branding;
  /** The footer line, e.g. "Tequila, Jalisco, México". */
  place: string;
  name: string;
  /** The guide code as it should be typed (upper case). */
  code: string;
  url: string;
  /**
   * The language printed under the Spanish, and the attraction's name in it
   * (absent: a Spanish-only poster).
   */
  second?: { lang: Lang; name: string };
}

/**
 * The language a poster prints under the Spanish: the portal's first other
 * language (English), or none when it speaks only Spanish.
 */
export function getPosterSecondLang(): Lang | undefined {
  return getLangs().find((lang) => lang !== DEFAULT_LANG);
}

/** `poster.<key>` in `lang`. */
function say(lang: Lang, key: string, values?: MessageValues): string {
  return t(lang, `poster.${key}`, values);
}

const SANS = "Inter, Arial, Helvetica, sans-serif";
const MONO = "'DejaVu Sans Mono', Menlo, Consolas, 'Courier New', monospace";
// The content box: 190 x 250 mm centred on A4, so it also fits on Letter.
const BOX = { x: 10, y: 23.5, w: 190, h: 250 };
// mm, quiet zone included; any link needs version 4 or more (33+ modules), so
// the modules span at least 77 mm: scannable from a metre away.
const QR_SIZE = 96;
const QR_QUIET = 4; // modules
// The header band's height (mm), the accent rule under it 2 more.
const BAND = 30;
// The largest size of a name on two lines: one line may be larger.
const TWO_LINE_SIZE = 12.5;

/** The link a poster's QR holds: the attraction page with the code filled in. */
export function posterUrl(baseUrl: string, slug: string, code: string): string {
  return `${baseUrl}/turismo/atractivos/${encodeURIComponent(slug)}?codigo=${
    encodeURIComponent(code)
  }`;
}

/** Escapes text for XML (and HTML) content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]);
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** An A4 poster (SVG, in mm) for one attraction. */
export function posterSvg(p: PosterInput): string {
  const { colors } = p.branding;
  const white: Rgb = [255, 255, 255];
  const onWhite = (hex: string) => readable(hex, white);
  const primary = parseHex(colors.primary) ?? [0, 0, 0];
  const bandText =
    [colors.background, "#ffffff", "#000000"].find((c) =>
      contrastRatio(parseHex(c)!, primary) >= 4.5
    ) ?? "#ffffff";
  const cx = BOX.x + BOX.w / 2;
  const inner = BOX.w - 16;
  const out: string[] = [];

  // Header band: logo, brand name and tagline.
  const textX = BOX.x + 36;
  const brandSize = fitSize(p.branding.name, 9, BOX.x + BOX.w - 8 - textX, 1.1);
  const tagSize = fitSize(p.branding.tagline, 5, BOX.x + BOX.w - 8 - textX);
  out.push(
    `<clipPath id="box"><rect x="${BOX.x}" y="${BOX.y}" width="${BOX.w}" height="${BOX.h}" rx="5"/></clipPath>`,
    `<rect x="${BOX.x}" y="${BOX.y}" width="${BOX.w}" height="${BAND}" fill="${colors.primary}" clip-path="url(#box)"/>`,
    `<rect x="${BOX.x}" y="${
      BOX.y + BAND
    }" width="${BOX.w}" height="2" fill="${colors.accent}"/>`,
    `<image x="${BOX.x + 8}" y="${BOX.y + 4}" width="22" height="22" href="${
      logoDataUrl(p.branding.logoSvg)
    }"/>`,
    text(p.branding.name, textX, BOX.y + 14, brandSize, bandText, "bold"),
    text(p.branding.tagline, textX, BOX.y + 22.5, tagSize, bandText),
    `<rect x="${BOX.x}" y="${BOX.y}" width="${BOX.w}" height="${BOX.h}" rx="5" fill="none" stroke="${colors.primary}" stroke-width="0.8"/>`,
  );

  const second = p.second;
  const muted = onWhite(colors.secondary);
  /** The second language's line under a Spanish one: smaller, in italics. */
  const under = (content: string, at: number, size: number) =>
    text(
      content,
      cx,
      at,
      fitSize(content, size, inner),
      muted,
      "normal",
      "middle",
      "italic",
    );

  // The top block (the name, its second language, the call to check in
  // and how) and the QR share the room above the code: the gaps between
  // them grow to fill it (twice their base at most) or shrink to fit, so a
  // long two-line name still leaves air around each line.
  const otherName = second && second.name !== p.name ? second.name : "";
  const name = fitLines(p.name, inner);
  const otherSize = otherName ? fitSize(otherName, 6, inner) : 0;
  const codeSize = Math.min(second ? 15 : 18, inner / (p.code.length * 0.75));
  const ruleY = BOX.y + BOX.h - 13;
  const below = QR_SIZE + 7 + (second ? 4.6 : 0) + 3 + codeSize * 0.75 +
    (second ? 6.5 : 7.5);
  const bandEnd = BOX.y + BAND + 2;
  const room = ruleY - 4 - below - bandEnd;
  const fixed = name.size * 0.95 + (name.lines.length - 1) * name.size * 1.15 +
    (otherName ? otherSize * 1.3 : 0) + 6.75 +
    (second ? 6 + 5.5 + 5 : 7.5);
  // The QR's quiet zone (4 modules, about 8 mm) is air above it already.
  const gaps = { band: 5, name: 8, call: 2.5, qr: 1.5 };
  const grow = Math.min(
    2,
    Math.max(
      0.3,
      (room - fixed) / (gaps.band + gaps.name + gaps.call + gaps.qr),
    ),
  );
  let y = bandEnd + gaps.band * grow;
  for (const [i, line] of name.lines.entries()) {
    y += name.size * (i === 0 ? 0.95 : 1.15);
    out.push(
      text(line, cx, y, name.size, onWhite(colors.text), "bold", "middle"),
    );
  }
  if (otherName) out.push(under(otherName, y += otherSize * 1.3, 6));
  y += gaps.name * grow + 6.75;
  const scan = say(DEFAULT_LANG, "scan");
  out.push(
    text(
      say(DEFAULT_LANG, "checkIn"),
      cx,
      y,
      9,
      onWhite(colors.primary),
      "bold",
      "middle",
    ),
  );
  if (second) out.push(under(say(second.lang, "checkIn"), y += 6, 5.5));
  out.push(
    text(
      scan,
      cx,
      y += (second ? 5.5 : 7.5) + gaps.call * grow,
      fitSize(scan, 5, inner),
      onWhite(colors.text),
      "normal",
      "middle",
    ),
  );
  if (second) out.push(under(say(second.lang, "scan"), y += 5, 4.2));

  y += gaps.qr * grow;
  out.push(qrSvg(p.url, cx - QR_SIZE / 2, y));
  y += QR_SIZE + 7;

  const urlSize = Math.max(2.2, fitSize(p.url, 3.4, inner));
  out.push(
    text(
      say(DEFAULT_LANG, "orType"),
      cx,
      y,
      5,
      onWhite(colors.text),
      "normal",
      "middle",
    ),
  );
  if (second) out.push(under(say(second.lang, "orType"), y += 4.6, 4.2));
  // Letter spacing also follows the last letter: shift by half to centre.
  const spacing = codeSize * 0.15;
  const code = `<text x="${cx + spacing / 2}" y="${
    (y + 3 + codeSize * 0.75).toFixed(2)
  }" font-family="${MONO}" font-size="${
    codeSize.toFixed(2)
  }" font-weight="bold" letter-spacing="${
    spacing.toFixed(2)
  }" text-anchor="middle" fill="${onWhite(colors.primary)}">${
    escapeXml(p.code)
  }</text>`;
  out.push(
    code,
    text(
      p.url,
      cx,
      y + 3 + codeSize * 0.75 + (second ? 6.5 : 7.5),
      urlSize,
      "#555555",
      "normal",
      "middle",
    ),
  );

  // Footer: the municipality.
  const footer = `${p.branding.name} · ${p.place}`;
  const footerY = BOX.y + BOX.h - 6;
  out.push(
    `<line x1="${BOX.x + 8}" y1="${footerY - 7}" x2="${
      BOX.x + BOX.w - 8
    }" y2="${footerY - 7}" stroke="${colors.accent}" stroke-width="0.5"/>`,
    text(
      footer,
      cx,
      footerY,
      fitSize(footer, 4, inner),
      onWhite(colors.secondary),
      "normal",
      "middle",
    ),
  );

  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 210 297" font-family="${SANS}">`,
    `<title>${escapeXml(say(DEFAULT_LANG, "title", { name: p.name }))}</title>`,
    `<rect width="210" height="297" fill="#ffffff"/>`,
    ...out,
    `</svg>`,
    ``,
  ].join("\n");
}

/** The page that prints every poster, one per sheet (A4 or Letter). */
export function indexHtml(
  brand: string,
  posters: { slug: string; name: string }[],
): string {
  const sheets = posters.map(({ slug, name }) =>
    `<section class="sheet"><img src="${escapeXml(slug)}.svg" alt="${
      escapeXml(say(DEFAULT_LANG, "alt", { name }))
    }"></section>`
  );
  const title = escapeXml(say(DEFAULT_LANG, "indexTitle", { brand }));
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
  @page { margin: 0; }
  html, body { margin: 0; }
  body { font-family: ${SANS}; background: #e8e8e8; color: #1f2426; }
  .hint { max-width: 210mm; margin: 1.5rem auto; padding: 0 1rem; }
  .sheet { width: 210mm; max-width: 100%; margin: 1rem auto; background: #fff;
    box-shadow: 0 1px 4px rgb(0 0 0 / 0.25); }
  .sheet img { display: block; width: 100%; height: auto; }
  @media print {
    body { background: none; }
    .hint { display: none; }
    .sheet { width: 100vw; height: 100vh; max-width: none; margin: 0;
      box-shadow: none; overflow: hidden; break-after: page; }
    .sheet:last-child { break-after: auto; }
    .sheet img { width: 100%; height: 100%; object-fit: contain; }
  }
</style>
</head>
<body>
<div class="hint">
<h1>${title}</h1>
<p>${escapeXml(say(DEFAULT_LANG, "indexHint", { count: posters.length }))}</p>
</div>
${sheets.join("\n")}
</body>
</html>
`;
}

function qrSvg(url: string, x: number, y: number): string {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: "M" });
  const n = modules.size;
  const scale = QR_SIZE / (n + 2 * QR_QUIET);
  // One path: a rectangle per horizontal run of dark modules.
  let d = "";
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n;) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && modules.get(row, col)) col++;
      d += `M${start + QR_QUIET} ${row + QR_QUIET}h${col - start}v1h${
        start - col
      }z`;
    }
  }
  return `<g transform="translate(${x} ${y}) scale(${
    scale.toFixed(5)
  })"><rect width="${n + 2 * QR_QUIET}" height="${
    n + 2 * QR_QUIET
  }" fill="#ffffff"/><path d="${d}" fill="#000000" shape-rendering="crispEdges"/></g>`;
}

function text(
  content: string,
  x: number,
  y: number,
  size: number,
  fill: string,
  weight: "normal" | "bold" = "normal",
  anchor: "start" | "middle" = "start",
  style: "normal" | "italic" = "normal",
): string {
  const attrs = [
    `x="${x}"`,
    `y="${y.toFixed(2)}"`,
    `font-size="${size.toFixed(2)}"`,
    weight === "bold" ? `font-weight="bold"` : "",
    style === "italic" ? `font-style="italic"` : "",
    anchor === "middle" ? `text-anchor="middle"` : "",
    `fill="${fill}"`,
  ].filter(Boolean).join(" ");
  return `<text ${attrs}>${escapeXml(content)}</text>`;
}

/** The colour itself when it is readable on `bg`, else black or white. */
function readable(hex: string, bg: Rgb): string {
  const rgb = parseHex(hex);
  if (rgb && contrastRatio(rgb, bg) >= 4.5) return hex;
  return contrastRatio([0, 0, 0], bg) >= contrastRatio([255, 255, 255], bg)
    ? "#000000"
    : "#ffffff";
}

/**
 * A generous width estimate (in the units of `size`), so text fits with the
 * widest likely fallback font (DejaVu Sans, bold); we cannot measure here.
 */
function estimateWidth(content: string, size: number, bold = 1.0): number {
  let em = 0;
  for (const c of content) {
    if (/[\sil.,:;'’!|()\[\]jtfrIÍíJ]/.test(c)) em += 0.36;
    else if (/[mwMWÑ@%]/.test(c)) em += 0.95;
    else if (/[A-ZÁÉÓÚÜ0-9]/.test(c)) em += 0.74;
    else em += 0.62;
  }
  return em * size * bold;
}

function fitSize(
  content: string,
  size: number,
  width: number,
  bold = 1.0,
): number {
  return Math.min(size, size * width / estimateWidth(content, size, bold));
}

function wrap(content: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of content.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && estimateWidth(next, size, 1.1) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The name on one line, or two balanced ones, as large as fits (three at worst). */
function fitLines(
  content: string,
  width: number,
): { lines: string[]; size: number } {
  const words = content.split(/\s+/).filter(Boolean);
  const w = (line: string, size: number) => estimateWidth(line, size, 1.1);
  for (let size = 14; size >= 8; size -= 0.5) {
    if (w(content, size) <= width) return { lines: [words.join(" ")], size };
    if (size > TWO_LINE_SIZE) continue;
    let best: string[] | undefined;
    let bestWidth = Infinity;
    for (let i = 1; i < words.length; i++) {
      const lines = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
      const widest = Math.max(...lines.map((l) => w(l, size)));
      if (widest <= width && widest < bestWidth) {
        [best, bestWidth] = [lines, widest];
      }
    }
    if (best) return { lines: best, size };
  }
  const lines = wrap(content, 8, width).slice(0, 3);
  const widest = Math.max(...lines.map((l) => w(l, 8)));
  return { lines, size: Math.min(8, 8 * width / widest) };
}

/** The logo as a data URL: its ids and markup stay apart from the poster's. */
function logoDataUrl(logoSvg: string): string {
  let svg = logoSvg.trim();
  if (!/^<svg[^>]*\sxmlns=/.test(svg)) {
    svg = svg.replace(/^<svg/, `<svg xmlns="http://www.w3.org/2000/svg"`);
  }
  const bytes = new TextEncoder().encode(svg);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/**
 * The poster of one attraction of `data` with `code`, linking to
 * `baseUrl` (an origin); null when no attraction has `slug`.
 */
export function attractionPosterSvg(
  data: TourismData,
  { slug, code, baseUrl }: { slug: string; code: string; baseUrl: string },
): string | null {
  const attraction = data.attractions.find((a) => a.slug === slug);
  if (!attraction) return null;
  const { branding, municipality } = data;
  const lang = getPosterSecondLang();
  return posterSvg({
    branding,
    place:
      `${municipality.name}, ${municipality.state}, ${municipality.country}`,
    name: attraction.name,
    code,
    url: posterUrl(baseUrl, slug, code),
    second: lang === undefined ? undefined : {
      lang,
      name: localizeData(data, lang).attractions.find((a) => a.slug === slug)!
        .name,
    },
  });
}
