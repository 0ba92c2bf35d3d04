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

/** A namespace is a file name: lower-case words and digits, joined by `_`. */
const NAMESPACE = /^[a-z0-9_]+$/;

let langs: Lang[] | undefined;
const metas = new Map<Lang, LangMeta>();
/** Each namespace file read so far, by `<lang>/<namespace>`: its messages by key. */
const namespaces = new Map<string, Map<string, string>>();

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

/**
 * One namespace's messages in one language (`locales/<lang>/<namespace>.json`),
 * read the first time one of them is said: a page reads the few files it
 * speaks from, in its own language, not the hundred of every language (7 ms
 * and half a megabyte of text on a start's first page). A namespace the
 * language lacks is empty, so its keys fall back to the default language.
 * The map is the one the messages are said from (a test adds a line to it).
 */
export function getNamespaceMessages(
  lang: Lang,
  namespace: string,
): Map<string, string> {
  const id = `${lang}/${namespace}`;
  let messages = namespaces.get(id);
  if (messages) return messages;
  messages = new Map();
  if (NAMESPACE.test(namespace) && namespace !== "meta" && isLang(lang)) {
    let text: string | undefined;
    try {
      text = Deno.readTextFileSync(
        new URL(`${lang}/${namespace}.json`, LOCALES_DIR),
      );
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (text !== undefined) {
      messages = new Map(
        Object.entries(JSON.parse(text) as Record<string, string>),
      );
    }
  }
  namespaces.set(id, messages);
  return messages;
}

/** `key`'s message in `lang`'s catalogue, without falling back. */
function findMessage(lang: Lang, key: string): string | undefined {
  const dot = key.indexOf(".");
  if (dot <= 0) return undefined;
  return getNamespaceMessages(lang, key.slice(0, dot)).get(key.slice(dot + 1));
}

/**
 * Every catalogue, whole: each language's namespaces read at once. For the
 * checks that compare the languages; a page reads only what it says.
 */
export function getCatalogues(): ReadonlyMap<Lang, Catalogue> {
  const catalogues = new Map<Lang, Catalogue>();
  for (const lang of getLangs()) {
    const files = [...Deno.readDirSync(new URL(`${lang}/`, LOCALES_DIR))]
      .filter((entry) => entry.isFile && entry.name.endsWith(".json"))
      .map((entry) => entry.name).filter((name) => name !== "meta.json").sort();
    const messages = new Map<string, string>();
    for (const file of files) {
      const namespace = file.slice(0, -".json".length);
      for (const [key, message] of getNamespaceMessages(lang, namespace)) {
        messages.set(`${namespace}.${key}`, message);
      }
    }
    catalogues.set(lang, { lang, meta: getLangMeta(lang), messages });
  }
  return catalogues;
}

/** Whether `value` names a language with a catalogue. */
export function isLang(value: string | undefined | null): value is Lang {
  return !!value && getLangs().includes(value);
}

/** A language's meta (the default's for an unknown one). */
export function getLangMeta(lang: Lang): LangMeta {
  const known = isLang(lang) ? lang : DEFAULT_LANG;
  let meta = metas.get(known);
  if (!meta) {
    meta = JSON.parse(
      Deno.readTextFileSync(new URL(`${known}/meta.json`, LOCALES_DIR)),
    ) as LangMeta;
    metas.set(known, meta);
  }
  return meta;
}

/** Whether the default language has a message for `key`. */
export function hasMessage(key: string): boolean {
  return findMessage(DEFAULT_LANG, key) !== undefined;
}

/** The raw ICU message of `key` in `lang`, or the default language's. */
export function getMessage(lang: Lang, key: string): string {
  const message = findMessage(lang, key) ?? findMessage(DEFAULT_LANG, key);
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
  const out: Record<string, string> = {};
  const own = getNamespaceMessages(lang, namespace);
  for (const [key, message] of getNamespaceMessages(DEFAULT_LANG, namespace)) {
    out[key] = own.get(key) ?? message;
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
