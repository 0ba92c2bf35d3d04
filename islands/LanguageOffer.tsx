import { useEffect, useState } from "preact/hooks";
import {
  chooseOffer,
  type LanguageOfferChoice,
  readLangChoice,
  rememberLangChoice,
} from "@/client/language_offer.ts";

/** `localStorage`, or a stand-in that holds nothing when the browser blocks it. */
function getStorage(): Pick<Storage, "getItem" | "setItem"> {
  try {
    return globalThis.localStorage;
  } catch {
    return { getItem: () => null, setItem: () => {} };
  }
}

/**
 * This page's other languages as the header's switcher links them: each
 * link carries the offer's words in its language (`data-offer*`).
 */
function readOffers(): LanguageOfferChoice[] {
  return Array.from(
    document.querySelectorAll<HTMLAnchorElement>("a[data-lang-choice]"),
    (link) => ({
      lang: link.dataset.langChoice ?? "",
      href: link.getAttribute("href") ?? "",
      text: link.dataset.offer ?? "",
      accept: link.dataset.offerAccept ?? "",
      dismiss: link.dataset.offerDismiss ?? "",
    }),
  ).filter((offer) => offer.lang && offer.text);
}

/**
 * Offers this page in the browser's preferred language, when the site has
 * it and the visitor never chose: a small banner in that language, drawn
 * only in the browser (the server renders nothing, so crawlers and people
 * without JavaScript see the page as it is). Never redirects. Accepting,
 * dismissing or using the language switcher remembers the choice. Its data
 * is on the page: the language of `<html>` and the switcher's links.
 */
export default function LanguageOffer() {
  const [offer, setOffer] = useState<LanguageOfferChoice | null>(null);
  const [pageLang, setPageLang] = useState("");

  useEffect(() => {
    const storage = getStorage();
    const lang = document.documentElement.lang.split("-")[0].toLowerCase();
    setPageLang(lang);
    setOffer(chooseOffer({
      pageLang: lang,
      browserLangs: navigator.languages?.length
        ? navigator.languages
        : [navigator.language],
      offers: readOffers(),
      remembered: readLangChoice(storage),
    }));
    // A switch of language with the header's switcher is a choice too.
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.(
        "a[data-lang-choice]",
      );
      const chosen = link?.getAttribute("data-lang-choice");
      if (chosen) rememberLangChoice(storage, chosen);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);

  if (!offer) return null;
  const choose = (chosen: string) => rememberLangChoice(getStorage(), chosen);
  return (
    <p class="lang-offer" lang={offer.lang}>
      <span>{offer.text}</span>{" "}
      <a
        class="lang-offer__accept"
        href={offer.href}
        hreflang={offer.lang}
        onClick={() => choose(offer.lang)}
      >
        {offer.accept}
      </a>{" "}
      <button
        type="button"
        class="lang-offer__dismiss"
        onClick={() => {
          choose(pageLang);
          setOffer(null);
        }}
      >
        {offer.dismiss}
      </button>
    </p>
  );
}
