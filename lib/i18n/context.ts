import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "@/lib/http/router.ts";
import {
  DEFAULT_LANG,
  getLangMeta,
  getNamespace,
  type Lang,
} from "./catalogue.ts";
import { splitLangPath } from "./paths.ts";

/** The language of the page being answered (the default language's on an API path). */
export function getLang(c: Context<AppEnv>): Lang {
  return c.get("lang") ?? DEFAULT_LANG;
}

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

/**
 * Puts the language of the request's path on the context (`/en/...` is
 * English, any other path the default language's), for `getLang(c)`: the
 * pages, the 404 page and the share cards read it.
 */
export function setPageLang(): MiddlewareHandler<AppEnv> {
  return async function setPageLang(c, next) {
    c.set("lang", splitLangPath(c.req.path).lang);
    await next();
  };
}
