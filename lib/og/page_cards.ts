/**
 * What the public pages' share cards say, from the data set in force: the
 * home page's (branding, name, tagline, counts) and each attraction's (name,
 * category, summary, cost, duration). Only the public view of the data set
 * is read (guide codes are split off at load), so no card can show a code.
 * The Spanish description of each card, for `og:image:alt`, comes from the
 * same values.
 */
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import {
  CATEGORY_LABELS,
  formatMinutes,
  formatMoney,
} from "@/lib/format/format.ts";
import type { PageCard } from "./card_types.ts";
import type { PageCardId } from "./card_url.ts";

/** The footer's second line, as on a route's card. */
const PASSPORT_NOTE = "Visita, colecciona insignias y completa tu pasaporte.";

/** The card of page `id`, or `undefined` for an attraction the data set lacks. */
export function getPageCard(
  loaded: LoadedData,
  id: PageCardId,
): PageCard | undefined {
  const { branding, municipality, routes } = loaded.data;
  const place = `${municipality.name}, ${municipality.state}`;
  const brand = {
    name: branding.name,
    tagline: branding.tagline,
    colors: branding.colors,
    logoSvg: branding.logoSvg,
  };
  if (id.kind === "home") {
    return {
      kind: "page",
      pill: "Pasaporte turístico",
      headerNote: `Portal turístico oficial · ${place}`,
      eyebrow: `${place} · ${municipality.country}`,
      title: branding.tagline,
      text:
        `Atractivos, rutas, eventos y gastronomía de ${municipality.name}, en el portal turístico oficial.`,
      facts: [
        `${loaded.totalAttractions} atractivos`,
        `${routes.length} ${routes.length === 1 ? "ruta" : "rutas"}`,
        "Pasaporte con insignias",
      ],
      cta: `Descubre ${municipality.name}`,
      ctaNote: PASSPORT_NOTE,
      branding: brand,
    };
  }
  const attraction = loaded.attractionsBySlug.get(id.slug);
  if (!attraction) return undefined;
  const { adult } = attraction.cost;
  return {
    kind: "page",
    pill: CATEGORY_LABELS[attraction.category],
    headerNote: branding.tagline,
    eyebrow: `Atractivo turístico · ${place}`,
    title: attraction.name,
    text: attraction.summary,
    facts: [
      adult.amount === 0 ? "Entrada libre" : `Entrada ${formatMoney(adult)}`,
      `Visita de ${formatMinutes(attraction.durationMinutes)}`,
    ],
    cta: "Registra tu visita",
    ctaNote: PASSPORT_NOTE,
    branding: brand,
  };
}

/**
 * The Spanish description of a page's card, for `og:image:alt` and
 * `twitter:image:alt`: what the picture shows, in words.
 */
export function describePageCard(card: PageCard): string {
  const sentence = (text: string) => /[.!?…]$/.test(text) ? text : `${text}.`;
  return [
    `Tarjeta de ${card.branding.name}: ${sentence(card.title)}`,
    sentence([card.pill, card.eyebrow].filter(Boolean).join(" · ")),
    sentence(card.text),
    ...(card.facts.length > 0 ? [sentence(card.facts.join(" · "))] : []),
  ].join(" ");
}
