/**
 * Share-card rendering benchmark:
 *
 *   deno bench -A bench/og_bench.ts
 *
 * Group "share card" compares, for the SAME card (same element tree):
 *   - baseline: the straightforward pipeline, written inline here: fonts
 *     read from disk and handed to satori fresh on every call (so satori
 *     re-parses them), emoji as SVG data URIs, then
 *     `new Resvg(svg).render().asPng()` with default options;
 *   - renderShareCard, cold (no cache);
 *   - a card answered from `ShareCards`' memory (a ticket's card rendered
 *     before: the data set's branding, not this card's).
 *
 * Group "breakdown" isolates each optimisation against the same baseline.
 */
import satori from "satori";
import { Resvg } from "@resvg/resvg-wasm";
import type { ShareCard } from "@/lib/og/card_types.ts";
import {
  buildShareCardElement,
  renderShareCard,
  renderShareCardSvg,
} from "@/lib/og/render_card.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { ShareCards } from "@/lib/og/share_cards.ts";
import { encodeRgbPng } from "@/lib/og/png.ts";
import { sampleCard } from "@/lib/og/testdata/cards.ts";

const CARD: ShareCard = sampleCard();

// The element tree is shared so that every variant draws the same pixels.
// (buildShareCardElement also initialises resvg-wasm once.)
const element = await buildShareCardElement(CARD);

// --- Baseline: a naive pipeline, inline -------------------------------------

const FONT_FILES = [
  ["Inter", 400, "@fontsource/inter/files/inter-latin-400-normal.woff"],
  ["Inter", 700, "@fontsource/inter/files/inter-latin-700-normal.woff"],
  [
    "Inter latin-ext",
    400,
    "@fontsource/inter/files/inter-latin-ext-400-normal.woff",
  ],
  [
    "Inter latin-ext",
    700,
    "@fontsource/inter/files/inter-latin-ext-700-normal.woff",
  ],
] as const;

/** Read fonts from disk every time, as a naive handler would. */
async function readFontsFresh() {
  return await Promise.all(
    FONT_FILES.map(async ([name, weight, specifier]) => ({
      name,
      weight,
      style: "normal" as const,
      data: (await Deno.readFile(new URL(import.meta.resolve(specifier))))
        .buffer as ArrayBuffer,
    })),
  );
}

async function naiveEmoji(code: string, segment: string) {
  if (code !== "emoji") return [];
  const hex = [...segment].map((c) => c.codePointAt(0)!.toString(16))
    .filter((h) => h !== "fe0f").join("-");
  try {
    const svg = await Deno.readTextFile(
      new URL(import.meta.resolve(`@twemoji/svg/${hex}.svg`)),
    );
    return `data:image/svg+xml;base64,${btoa(svg)}`;
  } catch {
    return [];
  }
}

async function naiveSvg(fonts: Awaited<ReturnType<typeof readFontsFresh>>) {
  return await satori(element, {
    width: 1200,
    height: 630,
    fonts,
    loadAdditionalAsset: naiveEmoji,
  });
}

async function baseline(): Promise<Uint8Array> {
  const svg = await naiveSvg(await readFontsFresh());
  return new Resvg(svg).render().asPng();
}

// --- Benchmarks ---------------------------------------------------------------

const kv = await Deno.openKv(":memory:");
await saveTicket(kv, {
  shareCode: "ruta-bench",
  name: CARD.name,
  email: "bench@ejemplo.mx",
  phone: null,
  wpId: 1,
  userId: null,
  createdAt: new Date().toISOString(),
});
const cards = new ShareCards({
  kv,
  data: await DataStore.open(
    new URL("../data/turismo.json", import.meta.url).pathname,
  ),
  renderPool: { render: renderShareCard },
});
await cards.get("ruta-bench");

Deno.bench({
  name: "baseline: naive satori + resvg asPng",
  group: "share card",
  baseline: true,
  async fn() {
    await baseline();
  },
});

Deno.bench({
  name: "renderShareCard (cold, no cache)",
  group: "share card",
  async fn() {
    await renderShareCard(CARD);
  },
});

Deno.bench({
  name: "ShareCards: a card drawn before (stored in KV, served as stored)",
  group: "share card",
  async fn() {
    await cards.get("ruta-bench");
  },
});

// Where the time goes: each row removes one cost from the baseline.
const cachedFonts = await readFontsFresh();
const naiveSvgText = await naiveSvg(cachedFonts);
const ourSvg = await renderShareCardSvg(CARD);

Deno.bench({
  name: "naive pipeline",
  group: "breakdown",
  baseline: true,
  async fn() {
    await baseline();
  },
});

Deno.bench({
  name: "naive, fonts parsed once (same ArrayBuffers every call)",
  group: "breakdown",
  async fn() {
    new Resvg(await naiveSvg(cachedFonts)).render().asPng();
  },
});

Deno.bench({
  name: "satori only, fonts read + parsed per call",
  group: "breakdown",
  async fn() {
    await naiveSvg(await readFontsFresh());
  },
});

Deno.bench({
  name: "satori only (renderShareCardSvg: cached fonts, inlined SVG)",
  group: "breakdown",
  async fn() {
    await renderShareCardSvg(CARD);
  },
});

Deno.bench({
  name: "resvg only: default options + asPng (nested SVG images)",
  group: "breakdown",
  fn() {
    new Resvg(naiveSvgText).render().asPng();
  },
});

Deno.bench({
  name: "resvg only: inlined SVG + asPng",
  group: "breakdown",
  fn() {
    new Resvg(ourSvg, { font: { loadSystemFonts: false } }).render().asPng();
  },
});

Deno.bench({
  name: "resvg only: inlined SVG + native-zlib PNG encoder",
  group: "breakdown",
  fn() {
    const image = new Resvg(ourSvg, { font: { loadSystemFonts: false } })
      .render();
    encodeRgbPng(image.pixels, image.width, image.height);
  },
});
