/**
 * The share card's render pipeline: model (card_model.ts) -> layout
 * (card_view.tsx) -> satori (SVG, text as paths) -> resvg-wasm (pixels) ->
 * our own PNG encoder (native zlib; see png.ts).
 *
 * All assets are part of the module graph: Inter via static `bytes` imports,
 * fallback fonts and twemoji via literal dynamic imports (see fonts.ts and
 * emoji.ts), resvg's wasm via a `bytes` import (see resvg.ts). Nothing reads
 * the file system or the network at run time.
 */
import satori from "satori";
import { Resvg } from "@resvg/resvg-wasm";
import { cardModel, pageCardModel } from "./card_model.ts";
import {
  type AnyCard,
  isPageCard,
  type PageCard,
  type ShareCard,
} from "./card_types.ts";
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  type CardModel,
  CardView,
} from "./card_view.tsx";
import { emojiDataUri } from "./emoji.ts";
import { fontsFor } from "./fonts.ts";
import { inlineSvgImages } from "./inline_svg.ts";
import { type PageCardModel, PageCardView } from "./page_card_view.tsx";
import { DEFAULT_COLORS } from "./palette.ts";
import { encodeRgbPng } from "./png.ts";

type SatoriElement = Parameters<typeof satori>[0];

/**
 * Render the share card as a 1200x630 PNG, the size link previews expect.
 * 60-150 ms of synchronous work: the server calls it in pool.ts's workers.
 */
export async function renderShareCard(card: ShareCard): Promise<Uint8Array> {
  return rasterize(await renderShareCardSvg(card));
}

/** Render a page's card (home, attraction) as a 1200x630 PNG: same pipeline. */
export async function renderPageCard(card: PageCard): Promise<Uint8Array> {
  return rasterize(await renderPageCardSvg(card));
}

/** Either card, by its shape: what the pool's workers call. */
export function renderCard(card: AnyCard): Promise<Uint8Array> {
  return isPageCard(card) ? renderPageCard(card) : renderShareCard(card);
}

/** A page's card as satori's SVG, with trusted SVG images inlined. */
export async function renderPageCardSvg(card: PageCard): Promise<string> {
  const model = await pageCardModel(card);
  const fonts = await fontsFor([
    { text: model.title, weight: 700 },
    { text: model.brandName, weight: 700 },
    { text: model.pill, weight: 700 },
    { text: model.eyebrow, weight: 700 },
    { text: model.facts.join(" "), weight: 700 },
    { text: model.cta, weight: 700 },
    { text: model.headerNote, weight: 400 },
    { text: model.text, weight: 400 },
    { text: model.ctaNote, weight: 400 },
  ]);
  const svg = await satori(pageElement(model), {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
    loadAdditionalAsset,
  });
  return inlineSvgImages(svg);
}

/** The card as satori's SVG, with trusted SVG images inlined (debugging). */
export async function renderShareCardSvg(card: ShareCard): Promise<string> {
  return inlineSvgImages(await toSvg(await cardModel(card)));
}

/**
 * The card's element tree, as passed to satori. Exposed for the benchmark's
 * baseline pipeline (same tree, naive rendering) and for debugging.
 */
export async function buildShareCardElement(
  card: ShareCard,
): Promise<SatoriElement> {
  return element(await cardModel(card));
}

/**
 * Optional warm-up for server start: initialises resvg-wasm, satori's layout
 * engine and HarfBuzz, parses the Inter fonts and loads the twemoji table, so
 * the first real request does not pay ~0.3-1 s of one-time setup.
 */
export async function warmUpShareCard(): Promise<void> {
  await renderShareCard({
    name: "Visitante",
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

/** A page card's element tree, as passed to satori (tests read its text). */
export async function buildPageCardElement(
  card: PageCard,
): Promise<SatoriElement> {
  return pageElement(await pageCardModel(card));
}

function element(model: CardModel): SatoriElement {
  // A Preact VNode; satori reads only its `type` and `props`.
  return CardView({ model }) as unknown as SatoriElement;
}

function pageElement(model: PageCardModel): SatoriElement {
  return PageCardView({ model }) as unknown as SatoriElement;
}

async function toSvg(model: CardModel): Promise<string> {
  const fonts = await fontsFor([
    { text: model.name, weight: 700 },
    { text: model.brandName, weight: 700 },
    { text: model.tagline, weight: 400 },
  ]);
  return await satori(element(model), {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
    loadAdditionalAsset,
  });
}

async function loadAdditionalAsset(
  code: string,
  segment: string,
): Promise<string | []> {
  if (code === "emoji") return (await emojiDataUri(segment)) ?? [];
  // Text fallbacks are resolved up front by fontsFor(); nothing to add here.
  return [];
}

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
