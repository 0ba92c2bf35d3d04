/**
 * The language a request's `Accept-Language` prefers among the portal's
 * languages. Hono's own parser (`hono/utils/accept`, as its `accepts`
 * helper uses) reads the ranges, ordered by q-value with ties in the
 * header's order and q=0 meaning "not this one"; a range matches a language
 * when it is that language or one of its regional forms (`en-US` → `en`).
 * A header that names none of them, or no header, is the default language:
 * the spec's Spanish.
 */
import { parseAccept } from "hono/utils/accept";
import { DEFAULT_LANG, getLangs, type Lang } from "./catalogue.ts";

/** The portal's language `header` prefers, or the default one. */
export function negotiateLang(header: string | undefined | null): Lang {
  if (!header) return DEFAULT_LANG;
  const langs = getLangs();
  for (const { type, q } of parseAccept(header)) {
    if (q <= 0) continue;
    const range = type.toLowerCase();
    const lang = langs.find((lang) =>
      range === lang || range.startsWith(`${lang}-`)
    );
    if (lang) return lang;
  }
  return DEFAULT_LANG;
}
