/** Share cards the og tests and the card benchmark draw. */
import type { ShareCard } from "../card_types.ts";

/** A round logo, as an operator's data set would give. */
export const LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#0E6E5C"/><path d="M14 44 26 24l8 12 6-8 10 16z" fill="#FFF8EE"/><circle cx="44" cy="18" r="6" fill="#F2B705"/></svg>`;

/** A logo twice as tall as wide. */
export const TALL_LOGO =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 80"><rect width="40" height="80" rx="8" fill="#F2B705"/><circle cx="20" cy="24" r="10" fill="#111827"/></svg>`;

/** A municipality's branding with light colours and {@linkcode LOGO}. */
export const BRANDING: ShareCard["branding"] = {
  name: "San Miguel de las Flores",
  tagline: "Pueblo Mágico · Ruta de los Sabores",
  colors: {
    primary: "#0E6E5C",
    secondary: "#C2410C",
    accent: "#F2B705",
    background: "#FFF8EE",
    text: "#1F2937",
  },
  logoSvg: LOGO,
};

/** A tourist half-way with one badge, on {@linkcode BRANDING}; any field replaced. */
export function sampleCard(overrides: Partial<ShareCard> = {}): ShareCard {
  return {
    name: "María José Ñúñez",
    visitCount: 8,
    totalAttractions: 17,
    badges: [{ id: "explorer", name: "Exploradora", icon: "🧭" }],
    branding: BRANDING,
    ...overrides,
  };
}
