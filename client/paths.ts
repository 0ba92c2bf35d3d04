/**
 * Page addresses in the browser, mirroring lib/i18n/paths.ts (browser code
 * may not import lib/; client/paths_test.ts checks they agree): the default
 * language's pages keep the spec's paths, another language's are the same
 * path under its code (`/en/mi-pasaporte`).
 */

/** The language of the spec's URLs. */
export const DEFAULT_LANG = "es";

/** `path` (a default-language path, optionally with `?query` or `#hash`) as `lang`'s page. */
export function localizePath(lang: string, path: string): string {
  if (lang === DEFAULT_LANG) return path;
  return path === "/" ? `/${lang}/` : `/${lang}${path}`;
}
