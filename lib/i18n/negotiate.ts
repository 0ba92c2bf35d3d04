/**
 * The language a request's `Accept-Language` prefers among the portal's
 * languages, by `negotiator` (jshttp's, the one Express uses): q-values
 * honoured, `en-US` matching `en`, a tie to the language the header lists
 * first. A header that names none of them, or no header, is the default
 * language: the spec's Spanish.
 */
// @ts-types="@types/negotiator"
import Negotiator from "negotiator";
import { DEFAULT_LANG, getLangs, type Lang } from "./catalogue.ts";

/** The portal's language `header` prefers, or the default one. */
export function negotiateLang(header: string | undefined | null): Lang {
  if (!header) return DEFAULT_LANG;
  const negotiator = new Negotiator({
    headers: { "accept-language": header },
  });
  return negotiator.language(getLangs()) ?? DEFAULT_LANG;
}
