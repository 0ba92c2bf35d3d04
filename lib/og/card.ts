/**
 * Share-card renderer: a 1200x630 PNG summarising a tourist's progress,
 * branded for the municipality.
 *
 * Pipeline: plain-object VDOM -> satori (SVG, text as paths) -> resvg-wasm
 * (pixels) -> our own PNG encoder (native zlib; see png.ts).
 *
 * All assets are part of the module graph: Inter via static `bytes` imports,
 * fallback fonts and twemoji via literal dynamic imports (see fonts.ts and
 * emoji.ts), resvg's wasm via a `bytes` import of
 * `@resvg/resvg-wasm/index_bg.wasm`. Nothing reads the file system or the
 * network at run time.
 */
import satori from "satori";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "bytes" };
import { emojiDataUri, hasTwemoji } from "./emoji.ts";
import {
  FAMILY,
  FAMILY_EXT,
  fontsFor,
  hasGlyph,
  isZeroWidth,
  type Weight,
} from "./fonts.ts";
import { inlineSvgImages } from "./inline_svg.ts";
import { encodeRgbPng } from "./png.ts";
import {
  cleanText,
  DEFAULT_NAME,
  firstEmoji,
  graphemes,
  isEmoji,
  isRtl,
  MAX_NAME_GRAPHEMES,
  pickNameSize,
} from "./text.ts";

export interface ShareCardBranding {
  name: string;
  tagline: string;
  colors: {
    primary: string;
    secondary: string;
    accent: string;
    background: string;
    text: string;
  };
  /** Trusted operator SVG markup. */
  logoSvg: string;
}

export interface ShareCard {
  /** Tourist's name: untrusted user text (max 120 chars kept). */
  name: string;
  /** Places visited. */
  visitCount: number;
  /** Places in the route, e.g. 17. */
  totalAttractions: number;
  /** Earned badges; `icon` is one emoji. */
  badges: { id: string; name: string; icon: string }[];
  branding: ShareCardBranding;
}

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** Badge emoji shown on the card; more are summarised as "+N". */
const MAX_BADGE_ICONS = 6;

// ---------------------------------------------------------------------------
// One-time initialisation (safe under concurrent first calls).

let ready: Promise<void> | undefined;

function init(): Promise<void> {
  ready ??= initWasm(resvgWasm).catch((err) => {
    ready = undefined;
    throw err;
  });
  return ready;
}

// ---------------------------------------------------------------------------
// Colours.

type Rgb = [number, number, number];

const DEFAULT_COLORS: ShareCardBranding["colors"] = {
  primary: "#0E6E5C",
  secondary: "#C2410C",
  accent: "#F2B705",
  background: "#FFF8EE",
  text: "#1F2937",
};

/** Parse #rgb / #rrggbb (alpha variants ignored); null if not a hex colour. */
function parseHex(value: unknown): Rgb | null {
  if (typeof value !== "string") return null;
  const m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim());
  if (!m) return null;
  let hex = m[1];
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join("");
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function toHex([r, g, b]: Rgb): string {
  return "#" +
    [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

/** `amount` of `a` over `b`. */
function mix(a: Rgb, b: Rgb, amount: number): Rgb {
  return [0, 1, 2].map((i) => a[i] * amount + b[i] * (1 - amount)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

interface Palette {
  primary: string;
  secondary: string;
  accent: string;
  background: string;
  text: string;
  muted: string;
  surface: string;
  border: string;
  track: string;
  primaryTint: string;
  onPrimary: string;
  onPrimaryMuted: string;
  /** Primary, darkened if needed to be readable on the background. */
  primaryInk: string;
  secondaryInk: string;
}

function palette(colors: Partial<ShareCardBranding["colors"]> | undefined) {
  const pick = (key: keyof ShareCardBranding["colors"]): Rgb =>
    parseHex(colors?.[key]) ?? parseHex(DEFAULT_COLORS[key])!;
  const primary = pick("primary");
  const secondary = pick("secondary");
  const accent = pick("accent");
  const background = pick("background");
  let text = pick("text");
  if (contrast(text, background) < 4.5) {
    text = luminance(background) > 0.4 ? [17, 24, 39] : [255, 255, 255];
  }
  const white: Rgb = [255, 255, 255];
  const black: Rgb = [17, 24, 39];
  const onPrimary = contrast(white, primary) >= contrast(black, primary)
    ? white
    : black;
  const ink = (c: Rgb): Rgb => {
    let out = c;
    for (let i = 0; i < 6 && contrast(out, background) < 4.5; i++) {
      out = mix(out, luminance(background) > 0.4 ? black : white, 0.75);
    }
    return out;
  };
  const surfaceBase = luminance(background) > 0.4
    ? white
    : mix(white, background, 0.08);
  const p: Palette = {
    primary: toHex(primary),
    secondary: toHex(secondary),
    accent: toHex(accent),
    background: toHex(background),
    text: toHex(text),
    muted: toHex(mix(text, background, 0.68)),
    surface: toHex(surfaceBase),
    border: toHex(mix(primary, background, 0.16)),
    track: toHex(
      mix(luminance(background) > 0.4 ? primary : white, background, 0.14),
    ),
    primaryTint: toHex(mix(primary, background, 0.1)),
    onPrimary: toHex(onPrimary),
    onPrimaryMuted: toHex(mix(onPrimary, primary, 0.78)),
    primaryInk: toHex(ink(primary)),
    secondaryInk: toHex(ink(secondary)),
  };
  return p;
}

// ---------------------------------------------------------------------------
// VDOM helpers (plain objects: satori never parses markup from strings).

type Style = Record<string, string | number>;
interface VNode {
  type: string;
  props: Record<string, unknown> & { style?: Style; children?: Child };
}
type Child = VNode | string | (VNode | string)[];

function h(type: string, props: VNode["props"], children?: Child): VNode {
  return {
    type,
    props: children === undefined ? props : { ...props, children },
  };
}

function div(style: Style, children?: Child): VNode {
  return h("div", { style: { display: "flex", ...style } }, children);
}

/** A text leaf: `text` is always a plain child string. */
function text(
  style: Style,
  value: string,
  extra: Record<string, unknown> = {},
) {
  return h("div", { ...extra, style: { display: "block", ...style } }, value);
}

/** Logo box size in px. */
const LOGO_SIZE = 68;

interface Logo {
  src: string;
  width: number;
  height: number;
}

const logoCache = new Map<string, Logo | null>();

function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/**
 * The operator's SVG logo, rasterised once (per markup) to a PNG at its exact
 * display size. Embedding it as an SVG image would make resvg spin up a
 * nested parser on every render (~50 ms), and inlining operator markup could
 * leak its <style> rules into the card. Invalid markup yields no logo.
 */
function logoImage(svg: unknown): Logo | null {
  if (typeof svg !== "string" || !svg.trim() || svg.length > 500_000) {
    return null;
  }
  if (logoCache.has(svg)) return logoCache.get(svg)!;
  let logo: Logo | null = null;
  try {
    const probe = new Resvg(svg, { font: { loadSystemFonts: false } });
    const wide = probe.width >= probe.height;
    probe.free();
    const resvg = new Resvg(svg, {
      font: { loadSystemFonts: false },
      fitTo: { mode: wide ? "width" : "height", value: LOGO_SIZE },
    });
    const image = resvg.render();
    logo = {
      src: `data:image/png;base64,${bytesToBase64(image.asPng())}`,
      width: image.width,
      height: image.height,
    };
    image.free();
    resvg.free();
  } catch {
    logo = null;
  }
  if (logoCache.size >= 16) logoCache.delete(logoCache.keys().next().value!);
  logoCache.set(svg, logo);
  return logo;
}

function toCount(value: unknown, max = 9999): number {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n) || n < 0) return 0;
  return Math.min(Math.floor(n), max);
}

const nf = new Intl.NumberFormat("es-MX");

// ---------------------------------------------------------------------------
// Layout.

const PAD_X = 64;
const RIGHT_COL = 312;
const GAP = 48;
/** Width available to the tourist's name. */
const NAME_WIDTH = CARD_WIDTH - PAD_X * 2 - RIGHT_COL - GAP;

interface Model {
  name: string;
  visits: number;
  total: number;
  percent: number;
  badgeIcons: string[];
  badgeCount: number;
  brandName: string;
  tagline: string;
  logo: Logo | null;
  colors: Palette;
}

/**
 * Drop what no font or twemoji file can draw (Hangul, Thai, Hebrew, emoji
 * newer than twemoji 15, ...) so the card never shows "missing glyph" boxes.
 */
async function renderable(text: string): Promise<string> {
  if (!/[^ -\u024F]/.test(text)) return text; // fast path: latin
  const out: string[] = [];
  for (const g of graphemes(text)) {
    const cps = [...g].map((ch) => ch.codePointAt(0)!);
    if (cps.every((cp) => hasGlyph(cp) || isZeroWidth(cp))) {
      out.push(g);
    } else if (isEmoji(g)) {
      if (await hasTwemoji(g)) out.push(g);
    } else {
      out.push(
        [...g].filter((ch) => {
          const cp = ch.codePointAt(0)!;
          return hasGlyph(cp) || isZeroWidth(cp);
        }).join(""),
      );
    }
  }
  return out.join("").replace(/ {2,}/g, " ").trim();
}

async function model(card: ShareCard): Promise<Model> {
  const total = toCount(card?.totalAttractions);
  const visits = Math.min(toCount(card?.visitCount), total);
  // Floored like the route page: 100% only when every attraction is visited.
  const percent = total > 0 ? Math.floor((visits / total) * 100) : 0;
  const badges = Array.isArray(card?.badges) ? card.badges : [];
  const icons: string[] = [];
  for (const badge of badges) {
    if (icons.length >= MAX_BADGE_ICONS) break;
    const icon = firstEmoji(badge?.icon);
    if (icon && await hasTwemoji(icon)) icons.push(icon);
  }
  const branding = card?.branding ?? ({} as Partial<ShareCardBranding>);
  return {
    name: (await renderable(cleanText(card?.name, MAX_NAME_GRAPHEMES))) ||
      DEFAULT_NAME,
    visits,
    total,
    percent,
    badgeIcons: icons,
    badgeCount: badges.length,
    brandName: await renderable(cleanText(branding.name, 60)),
    tagline: await renderable(cleanText(branding.tagline, 90)),
    logo: logoImage(branding.logoSvg),
    colors: palette(branding.colors),
  };
}

function label(c: Palette, value: string): VNode {
  return text({
    fontSize: 15,
    fontWeight: 700,
    letterSpacing: 2,
    color: c.muted,
    textTransform: "uppercase",
  }, value);
}

function header(m: Model): VNode {
  const c = m.colors;
  const logo = m.logo
    ? div({
      width: LOGO_SIZE,
      height: LOGO_SIZE,
      marginRight: 20,
      alignItems: "center",
      justifyContent: "center",
    }, [
      h("img", {
        src: m.logo.src,
        width: m.logo.width,
        height: m.logo.height,
        style: { width: m.logo.width, height: m.logo.height },
      }),
    ])
    : null;
  const brand = div({
    flexDirection: "column",
    justifyContent: "center",
    flex: 1,
    minWidth: 0,
  }, [
    text({
      fontSize: 28,
      fontWeight: 700,
      color: c.primaryInk,
      lineHeight: 1.15,
      lineClamp: 1,
      textOverflow: "ellipsis",
      whiteSpace: "nowrap",
    }, m.brandName || "Turismo municipal"),
    ...(m.tagline
      ? [text({
        fontSize: 19,
        color: c.muted,
        lineHeight: 1.3,
        marginTop: 4,
        whiteSpace: "nowrap",
        textOverflow: "ellipsis",
      }, m.tagline)]
      : []),
  ]);
  const pill = div({
    alignItems: "center",
    padding: "10px 18px",
    borderRadius: 999,
    backgroundColor: c.primaryTint,
    color: c.primaryInk,
    marginLeft: 24,
  }, [
    text(
      { fontSize: 15, fontWeight: 700, letterSpacing: 2 },
      "PASAPORTE TURÍSTICO",
    ),
  ]);
  return div({ alignItems: "center", height: LOGO_SIZE }, [
    ...(logo ? [logo] : []),
    brand,
    pill,
  ]);
}

function nameBlock(m: Model): VNode {
  // Always allow (and clamp to) two lines: the size pick is an estimate.
  const { fontSize } = pickNameSize(m.name, NAME_WIDTH);
  const lines = 2;
  const lineHeight = Math.round(fontSize * 1.12);
  const rtl = isRtl(m.name);
  return div({ flexDirection: "column", width: NAME_WIDTH }, [
    label(m.colors, "Viajero de la ruta"),
    text(
      {
        marginTop: 10,
        fontSize,
        fontWeight: 700,
        lineHeight: `${lineHeight}px`,
        letterSpacing: fontSize >= 60 ? -1.5 : -1,
        color: m.colors.text,
        width: NAME_WIDTH,
        maxHeight: lineHeight * lines,
        overflowWrap: "anywhere",
        wordBreak: "break-word",
        lineClamp: lines,
        textOverflow: "ellipsis",
        direction: rtl ? "rtl" : "ltr",
        textAlign: "left",
      },
      m.name,
      { lang: rtl ? "ar" : undefined },
    ),
  ]);
}

/**
 * A rounded surface with a 2px outline. Drawn as two nested rounded boxes:
 * satori renders CSS borders on rounded boxes as clipped strokes, and every
 * clip path costs resvg a full-canvas mask layer (~10 ms each).
 */
function panel(
  c: Palette,
  radius: number,
  outer: Style,
  inner: Style,
  children: Child,
): VNode {
  return div({
    padding: 2,
    borderRadius: radius,
    backgroundColor: c.border,
    ...outer,
  }, [
    div({
      flex: 1,
      flexDirection: "column",
      borderRadius: radius - 2,
      backgroundColor: c.surface,
      ...inner,
    }, children),
  ]);
}

function statBox(c: Palette, title: string, body: VNode[], flex = 1): VNode {
  return panel(c, 20, { flex, minWidth: 0 }, {
    padding: "16px 22px",
    minWidth: 0,
  }, [
    label(c, title),
    div({ alignItems: "center", marginTop: 8, height: 52 }, body),
  ]);
}

/** Inner width of the badges box (see the flex ratios in stats()). */
const BADGE_BOX_INNER = 330;
/** Width of one badge chip plus its gap. */
const CHIP_STEP = 54;

function stats(m: Model): VNode {
  const c = m.colors;
  const visits = statBox(c, "Lugares visitados", [
    text(
      { fontSize: 44, fontWeight: 700, color: c.primaryInk, lineHeight: 1 },
      nf.format(m.visits),
    ),
    text(
      {
        fontSize: 24,
        color: c.text,
        marginLeft: 10,
        marginTop: 10,
        lineHeight: 1,
      },
      `de ${nf.format(m.total)} ${m.total === 1 ? "lugar" : "lugares"}`,
    ),
  ]);
  // Fit the icon chips next to the count: ~27px per count character at
  // 44px bold, 54px per chip, room for a "+N" when not all are shown.
  const countText = nf.format(m.badgeCount);
  const room = BADGE_BOX_INNER - countText.length * 27 - 14;
  let shown = m.badgeIcons;
  if (
    shown.length < m.badgeCount || shown.length * CHIP_STEP > room
  ) {
    const plusWidth = 18 + String(m.badgeCount).length * 13;
    shown = shown.slice(
      0,
      Math.max(0, Math.floor((room - plusWidth) / CHIP_STEP)),
    );
  }
  const more = m.badgeCount - shown.length;
  const badgeBody: VNode[] = m.badgeCount === 0
    ? [
      text(
        { fontSize: 24, color: c.muted, lineHeight: 1 },
        "¡La primera te espera!",
      ),
    ]
    : [
      text({
        fontSize: 44,
        fontWeight: 700,
        color: c.secondaryInk,
        lineHeight: 1,
      }, countText),
      div({ alignItems: "center", marginLeft: 14 }, [
        ...shown.map((icon) =>
          div({
            width: 48,
            height: 48,
            borderRadius: 999,
            backgroundColor: c.primaryTint,
            alignItems: "center",
            justifyContent: "center",
            marginRight: 6,
          }, [text({ fontSize: 28, lineHeight: 1 }, icon)])
        ),
        ...(more > 0
          ? [
            text({
              fontSize: 20,
              fontWeight: 700,
              color: c.muted,
              marginLeft: 4,
            }, `+${nf.format(more)}`),
          ]
          : []),
      ]),
    ];
  const badges = statBox(
    c,
    m.badgeCount === 1 ? "Insignia ganada" : "Insignias ganadas",
    badgeBody,
    1.25,
  );
  return div({ width: NAME_WIDTH, gap: 20 }, [visits, badges]);
}

function progressPanel(m: Model): VNode {
  const c = m.colors;
  const left = Math.max(m.total - m.visits, 0);
  const remaining = m.total === 0
    ? "Tu ruta está por comenzar"
    : left === 0
    ? "¡Ruta completada!"
    : `${nf.format(left)} ${left === 1 ? "lugar" : "lugares"} por descubrir`;
  return panel(c, 28, { width: RIGHT_COL }, {
    justifyContent: "center",
    padding: "26px 30px",
  }, [
    label(c, "Ruta completada"),
    div({ alignItems: "flex-end", marginTop: 6 }, [
      text({
        fontSize: 104,
        fontWeight: 700,
        color: c.primaryInk,
        lineHeight: 1,
        letterSpacing: -4,
      }, String(m.percent)),
      text({
        fontSize: 44,
        fontWeight: 700,
        color: c.primaryInk,
        lineHeight: 1,
        marginLeft: 4,
        marginBottom: 10,
      }, "%"),
    ]),
    div({
      marginTop: 22,
      width: "100%",
      height: 18,
      borderRadius: 999,
      backgroundColor: c.track,
    }, [
      div({
        width: `${m.percent}%`,
        height: "100%",
        borderRadius: 999,
        backgroundColor: c.primary,
      }),
    ]),
    text(
      { fontSize: 18, color: c.muted, marginTop: 16, lineHeight: 1.3 },
      remaining,
    ),
  ]);
}

/** A right arrow drawn as SVG (Inter's latin subset has no U+2192). */
function arrow(color: string): VNode {
  return h("svg", {
    width: 30,
    height: 30,
    viewBox: "0 0 24 24",
    style: { marginLeft: 12, marginTop: 2 },
  }, [
    h("path", {
      d: "M4 12h15M13 6l6 6-6 6",
      fill: "none",
      stroke: color,
      "stroke-width": 2.6,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    }),
  ]);
}

function footer(m: Model): VNode {
  const c = m.colors;
  return div({
    height: 96,
    backgroundColor: c.primary,
    alignItems: "center",
    justifyContent: "space-between",
    padding: `0 ${PAD_X}px`,
  }, [
    div({ flexDirection: "column" }, [
      div({ alignItems: "center" }, [
        text({
          fontSize: 30,
          fontWeight: 700,
          color: c.onPrimary,
          lineHeight: 1.2,
        }, "Descubre tu ruta"),
        arrow(c.onPrimary),
      ]),
      text(
        {
          fontSize: 18,
          color: c.onPrimaryMuted,
          marginTop: 4,
          lineHeight: 1.2,
        },
        "Visita, colecciona insignias y completa tu pasaporte.",
      ),
    ]),
    div({ alignItems: "center", gap: 10 }, [
      div({
        width: 16,
        height: 16,
        borderRadius: 999,
        backgroundColor: c.accent,
      }),
      div({
        width: 16,
        height: 16,
        borderRadius: 999,
        backgroundColor: c.secondary,
      }),
      div({
        width: 16,
        height: 16,
        borderRadius: 999,
        backgroundColor: c.background,
      }),
    ]),
  ]);
}

function view(m: Model): VNode {
  const c = m.colors;
  return div({
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    flexDirection: "column",
    backgroundColor: c.background,
    color: c.text,
    fontFamily: `${FAMILY}, "${FAMILY_EXT}"`,
  }, [
    div({ width: "100%", height: 10 }, [
      div({ flex: 3, backgroundColor: c.primary }),
      div({ flex: 1, backgroundColor: c.accent }),
      div({ flex: 1, backgroundColor: c.secondary }),
    ]),
    div({
      flexDirection: "column",
      flex: 1,
      padding: `36px ${PAD_X}px 40px`,
      minHeight: 0,
    }, [
      header(m),
      div({ flex: 1, marginTop: 34, minHeight: 0 }, [
        div({ flexDirection: "column", width: NAME_WIDTH, marginRight: GAP }, [
          div({
            flex: 1,
            flexDirection: "column",
            justifyContent: "center",
            paddingBottom: 12,
          }, [nameBlock(m)]),
          stats(m),
        ]),
        progressPanel(m),
      ]),
    ]),
    footer(m),
  ]);
}

// ---------------------------------------------------------------------------
// Rendering.

async function loadAdditionalAsset(
  code: string,
  segment: string,
): Promise<string | []> {
  if (code === "emoji") return (await emojiDataUri(segment)) ?? [];
  // Text fallbacks are resolved up front by fontsFor(); nothing to add here.
  return [];
}

async function toSvg(m: Model): Promise<string> {
  const fonts = await fontsFor([
    { text: m.name, weight: 700 as Weight },
    { text: m.brandName, weight: 700 as Weight },
    { text: m.tagline, weight: 400 as Weight },
  ]);
  return await satori(view(m) as unknown as SatoriElement, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
    loadAdditionalAsset,
  });
}

type SatoriElement = Parameters<typeof satori>[0];

/** Rasterise satori's SVG and encode it as PNG. */
function rasterize(svg: string): Uint8Array {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false }, // text is already paths
    shapeRendering: 2, // geometricPrecision: anti-aliased edges
    imageRendering: 0,
  });
  try {
    const image = resvg.render();
    try {
      return encodeRgbPng(image.pixels, image.width, image.height);
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

/**
 * The card's element tree (plain objects, as passed to satori). Exposed for
 * the benchmark's baseline pipeline and for debugging.
 */
export async function buildShareCardElement(
  card: ShareCard,
): Promise<SatoriElement> {
  await init(); // the logo is rasterised with resvg
  return view(await model(card)) as unknown as SatoriElement;
}

/** The card as satori's SVG, with trusted SVG images inlined (debugging). */
export async function renderShareCardSvg(card: ShareCard): Promise<string> {
  await init();
  return inlineSvgImages(await toSvg(await model(card)));
}

/** Render the share card as a 1200x630 PNG. */
export async function renderShareCard(card: ShareCard): Promise<Uint8Array> {
  return rasterize(await renderShareCardSvg(card));
}

/**
 * Optional warm-up for server start: initialises resvg-wasm, satori's layout
 * engine and HarfBuzz, parses the Inter fonts and loads the twemoji table, so
 * the first real request does not pay ~0.3-1 s of one-time setup.
 */
export async function warmUpShareCard(): Promise<void> {
  await renderShareCard({
    name: "Viajero",
    visitCount: 1,
    totalAttractions: 2,
    badges: [{ id: "warm-up", name: "", icon: "🧭" }],
    branding: {
      name: "",
      tagline: "",
      colors: { ...DEFAULT_COLORS },
      logoSvg: "",
    },
  });
}

/** Bump when the design changes so cached images are not reused. */
export const SHARE_CARD_VERSION = 1;

/**
 * A cache key for {@link RenderCache}: SHA-256 over everything that affects
 * the image (the displayed values, not raw input noise like badge ids).
 */
export async function shareCardCacheKey(card: ShareCard): Promise<string> {
  const b = card?.branding;
  const payload = JSON.stringify([
    SHARE_CARD_VERSION,
    String(card?.name ?? ""),
    card?.visitCount,
    card?.totalAttractions,
    (Array.isArray(card?.badges) ? card.badges : []).map((x) => x?.icon),
    b?.name,
    b?.tagline,
    b?.colors,
    b?.logoSvg,
  ]);
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(payload),
  );
  return "og:" + Array.from(
    new Uint8Array(digest),
    (x) => x.toString(16).padStart(2, "0"),
  ).join("");
}
