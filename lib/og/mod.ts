/**
 * The share cards' light half: the cards' addresses and the page cards'
 * descriptions, and the image types routes answer with. Rendering (satori,
 * resvg, the worker pool) stays behind `ShareCards` in deps.ts, so a page that
 * links a card never loads the renderer. Routes, components and scripts import
 * this entry, never the folder's insides.
 *
 * @module
 */
export {
  getPageCardPath,
  getShareCardPath,
  type PageCardId,
} from "./card_url.ts";
export { describePageCard, getPageCard } from "./page_cards.ts";
export { type BuiltPageCard, drawPageCards } from "./built_page_cards.ts";
export { ROUTE_CARD_ANSWER_MS, ROUTE_CARD_MEMORY_MS } from "./memory.ts";
export type { PageCardImage, ShareCardImage } from "./share_cards.ts";
