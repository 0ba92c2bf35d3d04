/**
 * What the public pages' share cards say, from the data set in force, in
 * the card's language (its words from `locales/<lang>/card.json`, the data
 * set as seen in that language): the home page's (branding, name, tagline,
 * counts) and each attraction's (name, category, summary, cost, duration,
 * and its first photo, drawn from the library at run time).
 * Only the public view of the data set is read (guide codes are split off
 * at load), so no card can show a code. The description of each card, for
 * `og:image:alt`, comes from the same values.
 */
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { localizeData } from "@/lib/data/translations.ts";
import {
  formatMinutes,
  formatMoney,
  getCategoryLabel,
} from "@/lib/format/format.ts";
import {
  DEFAULT_LANG,
  type Lang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";
import type { PageCard } from "./card_types.ts";
import type { PageCardId } from "./card_url.ts";

/** The card of page `id` in `id.lang`, or `undefined` for an attraction the data set lacks. */
export function getPageCard(
  loaded: LoadedData,
  id: PageCardId,
): PageCard | undefined {
  const lang: Lang = id.lang ?? DEFAULT_LANG;
  const say = (key: string, values?: MessageValues) =>
    t(lang, `card.${key}`, values);
  const data = localizeData(loaded.data, lang);
  const { branding, municipality, routes } = data;
  const place = `${municipality.name}, ${municipality.state}`;
  const brand = {
    name: branding.name,
    tagline: branding.tagline,
    colors: branding.colors,
    logoSvg: branding.logoSvg,
  };
  const passportNote = say("ctaNote");
  const inLang = lang === DEFAULT_LANG ? {} : { lang };
  if (id.kind === "home") {
    return {
      kind: "page",
      ...inLang,
      pill: say("pill"),
      headerNote: say("homeHeaderNote", { place }),
      eyebrow: `${place} · ${municipality.country}`,
      title: branding.tagline,
      text: say("homeText", { municipality: municipality.name }),
      facts: [
        say("homeAttractions", { count: loaded.totalAttractions }),
        say("homeRoutes", { count: routes.length }),
        say("homePassport"),
      ],
      cta: say("homeCta", { municipality: municipality.name }),
      ctaNote: passportNote,
      branding: brand,
    };
  }
  const attraction = data.attractions.find((a) => a.slug === id.slug);
  if (!attraction || !loaded.attractionsBySlug.has(id.slug)) return undefined;
  const { adult } = attraction.cost;
  return {
    kind: "page",
    ...inLang,
    pill: getCategoryLabel(attraction.category, lang),
    headerNote: branding.tagline,
    eyebrow: say("attractionEyebrow", { place }),
    title: attraction.name,
    text: attraction.summary,
    facts: [
      adult.amount === 0
        ? t(lang, "format.free")
        : say("admission", { price: formatMoney(adult, undefined, lang) }),
      say("visitLength", {
        duration: formatMinutes(attraction.durationMinutes, lang),
      }),
    ],
    cta: say("attractionCta"),
    ctaNote: passportNote,
    branding: brand,
    ...(attraction.photos?.[0] ? { photo: { id: attraction.photos[0] } } : {}),
  };
}

/**
 * The description of a page's card in its language, for `og:image:alt` and
 * `twitter:image:alt`: what the picture shows, in words.
 */
export function describePageCard(card: PageCard): string {
  const lang = card.lang ?? DEFAULT_LANG;
  const sentence = (text: string) => /[.!?…]$/.test(text) ? text : `${text}.`;
  return [
    t(lang, "card.alt", {
      brand: card.branding.name,
      title: sentence(card.title),
    }),
    sentence([card.pill, card.eyebrow].filter(Boolean).join(" · ")),
    sentence(card.text),
    ...(card.facts.length > 0 ? [sentence(card.facts.join(" · "))] : []),
  ].join(" ");
}
