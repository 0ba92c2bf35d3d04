import { getLangMeta, getNamespace, type Lang } from "./catalogue.ts";

/**
 * What an island needs to speak the page's language: the language, its
 * `Intl` locale, and the messages of its namespace (`locales/<lang>/<ns>.json`),
 * keys as they are. `shared` names namespaces the island shares with others
 * (`session`: the API's errors; `rating`: the rating form), added with their
 * keys prefixed (`session.offline`), so one `t()` reads them all.
 */
export function getIslandMessages(
  lang: Lang,
  namespace: string,
  { shared = [] }: { shared?: string[] } = {},
): { lang: Lang; locale: string; messages: Record<string, string> } {
  const messages = getNamespace(lang, namespace);
  for (const other of shared) {
    for (const [key, message] of Object.entries(getNamespace(lang, other))) {
      messages[`${other}.${key}`] = message;
    }
  }
  return { lang, locale: getLangMeta(lang).intlLocale, messages };
}
