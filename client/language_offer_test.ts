import assert from "node:assert/strict";
import {
  chooseOffer,
  LANG_CHOICE_KEY,
  type LanguageOfferChoice,
  readLangChoice,
  rememberLangChoice,
} from "./language_offer.ts";

const EN: LanguageOfferChoice = {
  lang: "en",
  href: "/en/ruta/abc",
  text: "This page is also available in English.",
  accept: "Read it in English",
  dismiss: "No, thanks",
};

function storage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

Deno.test("chooseOffer: which language a first visit is offered", async (t) => {
  await t.step(
    "a browser preferring English on a Spanish page is offered English",
    () => {
      const offer = chooseOffer({
        pageLang: "es",
        browserLangs: ["en-US", "en", "es"],
        offers: [EN],
        remembered: null,
      });
      assert.equal(offer, EN);
    },
  );
  await t.step(
    "a browser preferring Spanish, or a language the site lacks before Spanish, is not",
    () => {
      for (const browserLangs of [["es-MX", "en"], ["fr-FR", "es", "en"]]) {
        assert.equal(
          chooseOffer({
            pageLang: "es",
            browserLangs,
            offers: [EN],
            remembered: null,
          }),
          null,
          browserLangs.join(),
        );
      }
    },
  );
  await t.step(
    "a language the site lacks is skipped for the next one it has",
    () => {
      assert.equal(
        chooseOffer({
          pageLang: "es",
          browserLangs: ["de-DE", "EN-gb"],
          offers: [EN],
          remembered: null,
        }),
        EN,
      );
    },
  );
  await t.step("a remembered choice is never questioned", () => {
    for (const remembered of ["es", "en"]) {
      assert.equal(
        chooseOffer({
          pageLang: "es",
          browserLangs: ["en-US"],
          offers: [EN],
          remembered,
        }),
        null,
      );
    }
  });
  await t.step("the choice is remembered and read back", () => {
    const store = storage();
    assert.equal(readLangChoice(store), null);
    rememberLangChoice(store, "en");
    assert.equal(readLangChoice(store), "en");
    assert.equal(store.getItem(LANG_CHOICE_KEY), "en");
  });
  await t.step("blocked storage neither throws nor remembers", () => {
    const blocked = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    };
    assert.equal(readLangChoice(blocked), null);
    rememberLangChoice(blocked, "en");
  });
});
