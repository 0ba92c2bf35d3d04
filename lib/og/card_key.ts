/**
 * The cache key of a share card's image. The card itself: card_types.ts
 * says what it shows, render_card.ts draws it (layout in card_view.tsx,
 * colours in palette.ts).
 */
import type { ShareCard } from "./card_types.ts";

/** Bump when the design changes so cached images are not reused. */
export const SHARE_CARD_VERSION = 1;

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
