import { sha256Hex } from "@/lib/crypto/sha256.ts";
/**
 * The cache key of a share card's image. The card itself: card_types.ts
 * says what it shows, render_card.ts draws it (layout in card_view.tsx,
 * colours in palette.ts).
 */
import { DEFAULT_LANG, getLangs, getNamespace } from "@/lib/i18n/catalogue.ts";
import type { PageCard, ShareCard } from "./card_types.ts";

/** Bump when the design changes so cached images are not reused. */
export const SHARE_CARD_VERSION = 1;

/**
 * Bump when the page cards' design (page_card_view.tsx) or wording
 * (page_cards.ts) changes: it is part of their URL's `v`, which browsers
 * and proxies cache as immutable, and of their cache key.
 */
export const PAGE_CARD_VERSION = 1;

/**
 * The key of the card's PNG in share_cards.ts's caches: SHA-256 over
 * everything that affects the image (the displayed values, not raw input
 * noise like badge ids), so equal cards render once.
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
    // Its language (and that language's words: a changed catalogue is a
    // new image); a Spanish card keeps the key it always had.
    ...(card?.lang && card.lang !== DEFAULT_LANG
      ? [card.lang, getNamespace(card.lang, "card")]
      : []),
  ]);
  return "og:" + await sha256Hex(payload);
}

/**
 * The key of a page card's PNG, in the same cache as the route cards'
 * (a different prefix: the two can never share a key).
 */
export async function pageCardCacheKey(card: PageCard): Promise<string> {
  const b = card?.branding;
  const payload = JSON.stringify([
    PAGE_CARD_VERSION,
    card?.pill,
    card?.headerNote,
    card?.eyebrow,
    card?.title,
    card?.text,
    card?.facts,
    card?.cta,
    card?.ctaNote,
    b?.name,
    b?.colors,
    b?.logoSvg,
    // Its photo, by id (a hash of the photo's file); a card without one
    // keeps the key it always had.
    ...(card?.photo?.id ? [card.photo.id] : []),
  ]);
  return "og-page:" + await sha256Hex(payload);
}

/**
 * The file name, under the build's folder, of a page card the build drew:
 * named by its hash, so a data set changed since the build finds no file
 * and its card is drawn at run time.
 */
export function getBuiltPageCardName(renderKey: string): string {
  return `og/${renderKey.replace(/^og-page:/, "page-")}.png`;
}

let designVersion: Promise<string> | undefined;

/**
 * The route cards' design and words as one version: {@linkcode
 * SHARE_CARD_VERSION} and every language's card words. A stored card drawn
 * under another (an older deployment) is drawn again.
 */
export function getCardDesignVersion(): Promise<string> {
  designVersion ??= sha256Hex(
    JSON.stringify([
      SHARE_CARD_VERSION,
      ...getLangs().map((lang) => [lang, getNamespace(lang, "card")]),
    ]),
  ).then((hash) => hash.slice(0, 16));
  return designVersion;
}
