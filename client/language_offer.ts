/**
 * The language offer's decision, browser-side and free of UI so it is
 * tested in Deno: a first visit whose browser prefers another language the
 * site has is offered this page in it, never redirected. The choice the
 * visitor makes (accepting, dismissing, or using the language switcher) is
 * remembered in `localStorage`, and a remembered choice is never questioned.
 */

/** The `localStorage` key of the language the visitor chose. */
export const LANG_CHOICE_KEY = "portal-idioma";

/** One language the page can be offered in, with its words in that language. */
export interface LanguageOfferChoice {
  /** The language code (`en`). */
  lang: string;
  /** This page in that language (path and query). */
  href: string;
  /** "This page is also available in English." */
  text: string;
  /** The accept link's label. */
  accept: string;
  /** The dismiss button's label. */
  dismiss: string;
}

/** The primary subtag of a BCP 47 tag, lower case: `en-US` → `en`. */
function primaryTag(tag: string): string {
  return tag.split("-")[0].toLowerCase();
}

/**
 * The offer to show, or `null`: walks the browser's languages in order of
 * preference (`navigator.languages`, what it sends as `Accept-Language`)
 * and offers the first one the site has, unless the page is already in a
 * language the browser prefers to it, or the visitor already chose.
 */
export function chooseOffer(
  { pageLang, browserLangs, offers, remembered }: {
    pageLang: string;
    browserLangs: readonly string[];
    offers: readonly LanguageOfferChoice[];
    /** The remembered choice (`localStorage`), if any. */
    remembered: string | null;
  },
): LanguageOfferChoice | null {
  if (remembered) return null;
  for (const tag of browserLangs) {
    const lang = primaryTag(tag);
    if (lang === pageLang) return null;
    const offer = offers.find((candidate) => candidate.lang === lang);
    if (offer) return offer;
  }
  return null;
}

/** The remembered choice, or `null` (also when storage is blocked). */
export function readLangChoice(
  storage: Pick<Storage, "getItem">,
): string | null {
  try {
    return storage.getItem(LANG_CHOICE_KEY);
  } catch {
    return null;
  }
}

/** Remembers `lang` as the visitor's choice (silently skipped when storage is blocked). */
export function rememberLangChoice(
  storage: Pick<Storage, "setItem">,
  lang: string,
): void {
  try {
    storage.setItem(LANG_CHOICE_KEY, lang);
  } catch {
    // Private mode or storage disabled: the offer may show again; no harm.
  }
}
