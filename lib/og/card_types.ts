/**
 * What a share card shows, as the server gathers it from a ticket, the
 * tourist's route and the data set's branding. Values are not trusted to
 * match these types at run time: card_model.ts checks and cleans them.
 */
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
  /** The language the card is drawn in (the ticket's; absent: Spanish). */
  lang?: string;
}

/**
 * The share card of a public page (the home page, an attraction), built by
 * page_cards.ts from the data set only: the operator's text, never a
 * visitor's, and never a guide code. Cleaned like a {@linkcode ShareCard}.
 */
export interface PageCard {
  kind: "page";
  /** The pill at the top right, e.g. the attraction's category. */
  pill: string;
  /** The line under the brand name in the header (the tagline, or where). */
  headerNote: string;
  /** A small label above the title. */
  eyebrow: string;
  /** The big title: the attraction's name, or the portal's. */
  title: string;
  /** One line under the title (a short description; two lines at most). */
  text: string;
  /** The language the card is in (absent: Spanish). */
  lang?: string;
  /** Up to three short facts, shown as chips (cost, duration, counts). */
  facts: string[];
  /** The footer's call to action... */
  cta: string;
  /** ...and the line under it. */
  ctaNote: string;
  branding: ShareCardBranding;
  /**
   * The photo of the library the card shows beside its text (an
   * attraction's first): its id as the data set names it (share_cards.ts
   * drops it when the library does not hold it), and, only while drawn,
   * its JPEG as a data URI.
   */
  photo?: { id: string; dataUri?: string };
}

/** Any card the render pool draws: a tourist's route, or a page's. */
export type AnyCard = ShareCard | PageCard;

/** Whether `card` is a page's card (a route's card has no `kind`). */
export function isPageCard(card: AnyCard): card is PageCard {
  return (card as Partial<PageCard>)?.kind === "page";
}
