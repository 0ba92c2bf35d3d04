/**
 * The share card's URL as the pages link it, `?v=<visits>-<badges>` (and
 * `-<name revision>` after a rename), built and read here only: a visit, a
 * badge or a new name changes `v`, so one URL names one
 * card and may be answered from memory (see `ShareCards`). Also the URLs of
 * the public pages' cards, versioned by the data set.
 */
import { PAGE_CARD_VERSION } from "./card_key.ts";

/** What a card's version counts. */
export interface CardCounts {
  visitCount: number;
  badgeCount: number;
  /** The ticket's name changes (absent or 0: never renamed). */
  nameRevision?: number;
}

const CARD_VERSION = /^\d{1,6}-\d{1,3}(-\d{1,6})?$/;

/** `<visits>-<badges>`, and `-<name revision>` once the tourist renamed the ticket. */
export function getCardVersion(
  { visitCount, badgeCount, nameRevision }: CardCounts,
): string {
  return nameRevision
    ? `${visitCount}-${badgeCount}-${nameRevision}`
    : `${visitCount}-${badgeCount}`;
}

/** Whether a request's `v` has the shape of a card version. */
export function isCardVersion(v: string | undefined): v is string {
  return v !== undefined && CARD_VERSION.test(v);
}

/** The path of a route's share card, versioned: `/api/turismo/og/<code>?v=…`. */
export function getShareCardPath(
  shareCode: string,
  counts: CardCounts,
): string {
  return `/api/turismo/og/${encodeURIComponent(shareCode)}?v=${
    getCardVersion(counts)
  }`;
}

/**
 * A public page's card: the home page's, or an attraction's by slug. These
 * live under `/og/`, beside the pages, not under `/api/turismo/og/<code>`:
 * a share code is any 4 to 64 of `A-Z a-z 0-9 _ -` (`inicio` is one), so
 * no fixed name there could be told from a code.
 */
export type PageCardId =
  | { kind: "home" }
  | { kind: "attraction"; slug: string };

/**
 * A page card's version: the data set's version (the card shows only the
 * data set) and the design's ({@linkcode PAGE_CARD_VERSION}).
 */
export function getPageCardVersion(dataVersion: string): string {
  return `${dataVersion}-${PAGE_CARD_VERSION}`;
}

/** `/og/inicio.png` or `/og/atractivos/<slug>.png`, without a version. */
export function getPageCardBasePath(id: PageCardId): string {
  return id.kind === "home"
    ? "/og/inicio.png"
    : `/og/atractivos/${encodeURIComponent(id.slug)}.png`;
}

/** The path of a page's card as the pages link it: `…png?v=<data>-<design>`. */
export function getPageCardPath(id: PageCardId, dataVersion: string): string {
  return `${getPageCardBasePath(id)}?v=${getPageCardVersion(dataVersion)}`;
}
