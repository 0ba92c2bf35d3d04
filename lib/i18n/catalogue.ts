/**
 * The message catalogues: `locales/<lang>/<namespace>.json`, each a flat
 * object of ICU messages (`"visitsCount": "{count, plural, one {# visita}
 * other {# visitas}}"`), and `locales/<lang>/meta.json` with the language's
 * name and locales. The languages are the folders there: a third one is a
 * new folder (and the data set's overlays), never a code change. Spanish is
 * the default and the base: a key missing in another language falls back
 * to it (the catalogue test fails on any such key).
 *
 * Messages are formatted by FormatJS's `intl-messageformat`, whose plural,
 * number and date rules come from `Intl` for each locale.
 */
import { IntlMessageFormat } from "intl-messageformat";

/** The language of the spec's URLs and of anything not yet translated. */
export const DEFAULT_LANG = "es";

/** A language code of a catalogue folder (`es`, `en`, ...). */
export type Lang = string;

/** What `locales/<lang>/meta.json` says of its language. */
export interface LangMeta {
  /** The language's own name, for the switcher: "Español", "English". */
  name: string;
  /** The `Intl` locale of dates, numbers and currency: `es-MX`, `en-US`. */
  intlLocale: string;
  /** `og:locale`: `es_MX`, `en_US`. */
  ogLocale: string;
}

/** One language's messages by full key (`<namespace>.<key>`), and its meta. */
export interface Catalogue {
  lang: Lang;
  meta: LangMeta;
  messages: Map<string, string>;
}

const LOCALES_DIR = new URL("../../locales/", import.meta.url);

let langs: Lang[] | undefined;
let loaded: Map<Lang, Catalogue> | undefined;

/**
 * The languages the portal speaks (the folders of `locales/`), the default
 * first. Only the folder names are read: the route table needs them at
 * start, the messages wait for the first text said.
 */
export function getLangs(): Lang[] {
  if (langs) return langs;
  const found = [...Deno.readDirSync(LOCALES_DIR)]
    .filter((entry) => entry.isDirectory && /^[a-z]{2,3}$/.test(entry.name))
    .map((entry) => entry.name)
    .sort((a, b) =>
      a === DEFAULT_LANG ? -1 : b === DEFAULT_LANG ? 1 : a < b ? -1 : 1
    );
  if (found[0] !== DEFAULT_LANG) {
    throw new Error(`locales/${DEFAULT_LANG}/ is missing`);
  }
  return langs = found;
}

/** Every catalogue, read from `locales/` once (small files, read at first use). */
export function getCatalogues(): ReadonlyMap<Lang, Catalogue> {
  if (loaded) return loaded;
  const catalogues = new Map<Lang, Catalogue>();
  for (const lang of getLangs()) {
    const dir = new URL(`${lang}/`, LOCALES_DIR);
    const meta = JSON.parse(
      Deno.readTextFileSync(new URL("meta.json", dir)),
    ) as LangMeta;
    const messages = new Map<string, string>();
    const files = [...Deno.readDirSync(dir)]
      .filter((entry) => entry.isFile && entry.name.endsWith(".json"))
      .map((entry) => entry.name).filter((name) => name !== "meta.json").sort();
    for (const file of files) {
      const namespace = file.slice(0, -".json".length);
      const entries = JSON.parse(
        Deno.readTextFileSync(new URL(file, dir)),
      ) as Record<string, string>;
      for (const [key, message] of Object.entries(entries)) {
        messages.set(`${namespace}.${key}`, message);
      }
    }
    catalogues.set(lang, { lang, meta, messages });
  }
  return loaded = catalogues;
}

/** Whether `value` names a language with a catalogue. */
export function isLang(value: string | undefined | null): value is Lang {
  return !!value && getLangs().includes(value);
}

/** A language's meta (the default's for an unknown one). */
export function getLangMeta(lang: Lang): LangMeta {
  const catalogues = getCatalogues();
  return (catalogues.get(lang) ?? catalogues.get(DEFAULT_LANG)!).meta;
}

/** The raw ICU message of `key` in `lang`, or the default language's. */
export function getMessage(lang: Lang, key: string): string {
  const catalogues = getCatalogues();
  const message = catalogues.get(lang)?.messages.get(key) ??
    catalogues.get(DEFAULT_LANG)!.messages.get(key);
  if (message === undefined) throw new Error(`No message "${key}"`);
  return message;
}

/**
 * Every message of one namespace in `lang` (each key falling back to the
 * default language): what an island receives as its `messages` prop.
 */
export function getNamespace(
  lang: Lang,
  namespace: string,
): Record<string, string> {
  const prefix = `${namespace}.`;
  const out: Record<string, string> = {};
  for (const key of getCatalogues().get(DEFAULT_LANG)!.messages.keys()) {
    if (key.startsWith(prefix)) {
      out[key.slice(prefix.length)] = getMessage(lang, key);
    }
  }
  return out;
}

/**
 * Each message said so far, by language and key: its text when it has none
 * of ICU's syntax (most do not: no parse, no `Intl` locale data to load),
 * else its compiled format.
 */
const formats = new Map<string, IntlMessageFormat | string>();

/** ICU's syntax characters: a message without any is its own text. */
const ICU_SYNTAX = /[{}<>']/;

/** Values a message may name: numbers, strings and dates. */
export type MessageValues = Record<string, string | number | Date>;

/**
 * `key`'s message in `lang`, formatted with `values` by the language's
 * `Intl` rules (plurals, numbers, dates).
 */
export function t(lang: Lang, key: string, values?: MessageValues): string {
  const id = `${lang}\u0000${key}`;
  let format = formats.get(id);
  if (format === undefined) {
    const message = getMessage(lang, key);
    format = ICU_SYNTAX.test(message)
      ? new IntlMessageFormat(message, getLangMeta(lang).intlLocale)
      : message;
    formats.set(id, format);
  }
  return typeof format === "string" ? format : String(format.format(values));
}
