/**
 * "No Spanish on an English page", as a function: the Spanish catalogue's
 * sentences (each literal fragment of 12+ characters of a message whose
 * English differs) that a page's readable text contains. Text marked
 * `lang="es"` (a data set fallback, the switcher's "Español") is not read.
 */
import {
  type MessageFormatElement,
  parse,
  TYPE,
} from "@formatjs/icu-messageformat-parser";
import { DOMParser } from "linkedom";
import { DEFAULT_LANG, getCatalogues } from "@/lib/i18n/catalogue.ts";
import { localizeData } from "@/lib/data/translations.ts";
import { SHIPPED } from "./test_utils.ts";

/** The literal fragments of an ICU message: the text between its arguments, tags and plurals. */
function getFragments(elements: MessageFormatElement[]): string[] {
  const fragments: string[] = [];
  let current = "";
  const cut = () => {
    fragments.push(current);
    current = "";
  };
  const visit = (list: MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.literal) {
        current += element.value;
        continue;
      }
      cut();
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) {
          visit(option.value);
          cut();
        }
      }
      if (element.type === TYPE.tag) {
        visit(element.children);
        cut();
      }
    }
  };
  visit(elements);
  cut();
  return fragments.map((f) => f.replace(/\s+/g, " ").trim())
    .filter((f) => f.length >= 12);
}

let spanishFragments: { key: string; fragment: string }[] | undefined;

/**
 * Every Spanish fragment of 12+ characters of a message whose English
 * differs, with its key: what must never show on an English page. A
 * fragment that English text also has (the English catalogue, or the
 * English data set, which names Spanish institutions in parentheses) is a
 * name, not a Spanish sentence.
 */
export function getSpanishFragments(): { key: string; fragment: string }[] {
  if (spanishFragments) return spanishFragments;
  const catalogues = getCatalogues();
  const spanish = catalogues.get(DEFAULT_LANG)!.messages;
  const english = catalogues.get("en")!.messages;
  const englishText = [
    ...english.values(),
    JSON.stringify(localizeData(SHIPPED, "en")),
  ].join("\n");
  const found: { key: string; fragment: string }[] = [];
  for (const [key, message] of spanish) {
    if (english.get(key) === message) continue;
    for (const fragment of getFragments(parse(message))) {
      // A fragment English shares (a name, a code) is not Spanish.
      if (englishText.includes(fragment)) continue;
      found.push({ key, fragment });
    }
  }
  return spanishFragments = found;
}

/**
 * What a visitor of a page reads: the text (scripts and marked Spanish
 * aside), `<title>`, descriptions, and the accessible names and
 * alternatives in attributes.
 */
export function getReadableText(html: string): string {
  const doc = new DOMParser().parseFromString(
    html,
    "text/html",
  ) as unknown as Document;
  for (const element of doc.querySelectorAll("script, style, template")) {
    element.remove();
  }
  for (const element of doc.querySelectorAll("[lang]")) {
    if (
      element !== doc.documentElement &&
      element.getAttribute("lang")?.startsWith("es")
    ) {
      element.remove();
    }
  }
  const attributes = [...doc.querySelectorAll("*")].flatMap((element) =>
    ["aria-label", "alt", "title", "placeholder", "content", "value"]
      .map((name) => element.getAttribute(name) ?? "")
  );
  return [doc.documentElement.textContent ?? "", ...attributes].join("\n")
    .replace(/\s+/g, " ");
}

/** The Spanish catalogue sentences an English page's `html` shows: `key: "fragment"`. */
export function findSpanishSentences(html: string): string[] {
  const text = getReadableText(html);
  return getSpanishFragments().filter(({ fragment }) => text.includes(fragment))
    .map(({ key, fragment }) => `${key}: "${fragment}"`);
}
