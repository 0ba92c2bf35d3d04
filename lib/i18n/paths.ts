/**
 * A page's address in each language: the default language's pages keep
 * the spec's paths (`/turismo/atractivos/<slug>`); another language's are
 * the same path under its code (`/en/turismo/atractivos/<slug>`).
 */
import { DEFAULT_LANG, isLang, type Lang } from "./catalogue.ts";

/** The path prefix of `lang`'s pages: `""` for the default, `/en` for English. */
export function getLangPrefix(lang: Lang): string {
  return lang === DEFAULT_LANG ? "" : `/${lang}`;
}

/** `path` (a default-language path) as `lang`'s page. */
export function localizePath(lang: Lang, path: string): string {
  const prefix = getLangPrefix(lang);
  if (!prefix) return path;
  return path === "/" ? `${prefix}/` : `${prefix}${path}`;
}

/** The language a request's path is in, and the path without its prefix. */
export function splitLangPath(path: string): { lang: Lang; path: string } {
  const match = /^\/([a-z]{2,3})(\/.*)?$/.exec(path);
  if (match && match[1] !== DEFAULT_LANG && isLang(match[1])) {
    return { lang: match[1], path: match[2] ?? "/" };
  }
  return { lang: DEFAULT_LANG, path };
}
