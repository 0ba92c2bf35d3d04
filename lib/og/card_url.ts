/**
 * The share card's URL as the pages link it, `?v=<visits>-<badges>`, built
 * and read here only: a visit or a badge changes `v`, so one URL names one
 * card and may be answered from memory (see `ShareCards`).
 */

/** What a card's version counts. */
export interface CardCounts {
  visitCount: number;
  badgeCount: number;
}

const CARD_VERSION = /^\d{1,6}-\d{1,3}$/;

/** `<visits>-<badges>`. */
export function getCardVersion({ visitCount, badgeCount }: CardCounts): string {
  return `${visitCount}-${badgeCount}`;
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
