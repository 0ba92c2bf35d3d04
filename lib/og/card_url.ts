/**
 * The share card's URL as the pages link it, `?v=<visits>-<badges>` (and
 * `-<name revision>` after a rename, `-<lang>` for a ticket made in another
 * language than Spanish), built and read here only: a visit, a badge or a
 * new name changes `v`, so one URL names one card and may be answered from
 * memory (see `ShareCards`). Also the URLs of the public pages' cards,
 * versioned by the data set, under `/<lang>/og/` for another language.
 */
import { DEFAULT_LANG, type Lang } from "@/lib/i18n/catalogue.ts";
import { PAGE_CARD_VERSION } from "./card_key.ts";

/** What a card's version counts. */
export interface CardCounts {
  visitCount: number;
  badgeCount: number;
  /** The ticket's name changes (absent or 0: never renamed). */
  nameRevision?: number;
  /** The ticket's language (absent or Spanish: no suffix, the URLs stay as they were). */
  lang?: Lang;
}

const CARD_VERSION = /^\d{1,6}-\d{1,3}(-\d{1,6})?(-[a-z]{2,3})?$/;

/**
 * `<visits>-<badges>`, `-<name revision>` once the tourist renamed the
 * ticket, and `-<lang>` when the ticket is in another language than Spanish.
 */
export function getCardVersion(
  { visitCount, badgeCount, nameRevision, lang }: CardCounts,
): string {
  const v = nameRevision
    ? `${visitCount}-${badgeCount}-${nameRevision}`
    : `${visitCount}-${badgeCount}`;
  return lang && lang !== DEFAULT_LANG ? `${v}-${lang}` : v;
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
 * A public page's card: the home page's, or an attraction's by slug, in a
 * language (absent: Spanish). These live under `/og/` (`/en/og/` for
 * English), beside the pages, not under `/api/turismo/og/<code>`: a share
 * code is any 4 to 64 of `A-Z a-z 0-9 _ -` (`inicio` is one), so no fixed
 * name there could be told from a code.
 */
export type PageCardId =
  & ({ kind: "home" } | { kind: "attraction"; slug: string })
  & { lang?: Lang };

/**
 * A page card's version: the data set's version (the card shows only the
 * data set) and the design's ({@linkcode PAGE_CARD_VERSION}).
 */
export function getPageCardVersion(dataVersion: string): string {
  return `${dataVersion}-${PAGE_CARD_VERSION}`;
}

/**
 * `/og/inicio.png` or `/og/atractivos/<slug>.png`, without a version, as a
 * default-language path whatever `id.lang` is: a page links its language's
 * card with `localizePath(lang, getPageCardPath(id, version))`
 * (`/en/og/inicio.png?v=…`), as it localizes any other link.
 */
export function getPageCardBasePath(id: PageCardId): string {
  return id.kind === "home"
    ? "/og/inicio.png"
    : `/og/atractivos/${encodeURIComponent(id.slug)}.png`;
}

/** The path of a page's card as the pages link it: `…png?v=<data>-<design>`. */
export function getPageCardPath(id: PageCardId, dataVersion: string): string {
  return `${getPageCardBasePath(id)}?v=${getPageCardVersion(dataVersion)}`;
}
