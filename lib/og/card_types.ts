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
}
