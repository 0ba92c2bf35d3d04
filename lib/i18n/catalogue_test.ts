import assert from "node:assert/strict";
import {
  type MessageFormatElement,
  parse,
  TYPE,
} from "@formatjs/icu-messageformat-parser";
import {
  DEFAULT_LANG,
  getCatalogues,
  getLangs,
  getNamespace,
  t,
} from "./catalogue.ts";
import { localizePath, splitLangPath } from "./paths.ts";

/** The argument names a message uses (`{count}`, `{name}`, inside plurals too). */
function getArguments(elements: MessageFormatElement[]): Set<string> {
  const names = new Set<string>();
  const visit = (list: MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) {
        continue;
      }
      names.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) {
          visit(option.value);
        }
      }
      if (element.type === TYPE.tag) visit(element.children);
    }
  };
  visit(elements);
  return names;
}

Deno.test("message catalogues", async (t_) => {
  const catalogues = getCatalogues();

  await t_.step(
    "Spanish is the default and there is more than one language",
    () => {
      assert.equal(getLangs()[0], DEFAULT_LANG);
      assert.ok(getLangs().includes("en"));
    },
  );

  await t_.step("every message exists in every language", () => {
    const all = new Set<string>();
    for (const { messages } of catalogues.values()) {
      for (const key of messages.keys()) all.add(key);
    }
    for (const { lang, messages } of catalogues.values()) {
      const missing = [...all].filter((key) => !messages.has(key));
      assert.deepEqual(missing, [], `missing in ${lang}`);
    }
  });

  await t_.step(
    "every message is valid ICU and names the same arguments in every language",
    () => {
      const base = catalogues.get(DEFAULT_LANG)!.messages;
      for (const { lang, messages } of catalogues.values()) {
        for (const [key, message] of messages) {
          const args = getArguments(parse(message));
          const baseArgs = getArguments(parse(base.get(key) ?? ""));
          assert.deepEqual(
            [...args].sort(),
            [...baseArgs].sort(),
            `${lang} ${key}: ${message}`,
          );
        }
      }
    },
  );

  await t_.step("each language's locale is one Intl knows", () => {
    for (const { lang, meta } of catalogues.values()) {
      assert.ok(meta.name.length > 0, lang);
      assert.deepEqual(Intl.getCanonicalLocales(meta.intlLocale), [
        meta.intlLocale,
      ]);
      assert.match(meta.ogLocale, /^[a-z]{2,3}_[A-Z]{2}$/);
    }
  });

  await t_.step(
    "t() formats by the language's Intl rules; a namespace falls back key by key",
    () => {
      assert.equal(
        t("en", "common.thisPageIn", { language: "Español" }),
        "This page in Español",
      );
      assert.equal(getNamespace("en", "common").language, "Language");
      assert.equal(getNamespace("es", "common").language, "Idioma");
    },
  );
});

Deno.test("localizePath and splitLangPath: the default language keeps the spec's paths", () => {
  assert.equal(
    localizePath("es", "/turismo/atractivos"),
    "/turismo/atractivos",
  );
  assert.equal(
    localizePath("en", "/turismo/atractivos"),
    "/en/turismo/atractivos",
  );
  assert.equal(localizePath("en", "/"), "/en/");
  assert.deepEqual(splitLangPath("/en/ruta/abc"), {
    lang: "en",
    path: "/ruta/abc",
  });
  assert.deepEqual(splitLangPath("/en"), { lang: "en", path: "/" });
  assert.deepEqual(splitLangPath("/es/ruta/abc"), {
    lang: "es",
    path: "/es/ruta/abc",
  });
  assert.deepEqual(splitLangPath("/entrada"), { lang: "es", path: "/entrada" });
  assert.deepEqual(splitLangPath("/xx/ruta"), { lang: "es", path: "/xx/ruta" });
});
