/**
 * The portal's languages: the message catalogues (`t`), messages with markup
 * for pages (`tRich`), an island's messages, each page's address per language
 * and the language a request prefers. Routes, components and scripts import
 * this entry, never the folder's insides.
 *
 * @module
 */
export {
  DEFAULT_LANG,
  getLangMeta,
  getLangs,
  type Lang,
  t,
} from "./catalogue.ts";
export { getIslandMessages } from "./island_messages.ts";
export { negotiateLang } from "./negotiate.ts";
export { localizePath, splitLangPath } from "./paths.ts";
export { type RichValues, tRich } from "./rich.ts";
