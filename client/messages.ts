/**
 * Messages in the browser: an island gets its namespace's ICU messages in
 * the page's language as a prop (`messages`, from the server's catalogue),
 * and formats them here with the same library as the server
 * (`intl-messageformat`), so plurals and numbers follow `Intl`'s rules for
 * that language.
 *
 * A sentence with a link or a bold part is one message with a rich-text
 * tag (`"Más detalles en el <link>aviso de privacidad</link>."`), formatted
 * with {@linkcode Translate.rich} and a function per tag that renders its
 * element: `t.rich("privacy", { link: (text) => <a href="…">{text}</a> })`.
 * Sentences are never put together from pieces.
 */
import { IntlMessageFormat } from "intl-messageformat";

/** An island's messages: key → ICU message, in one language. */
export type Messages = Record<string, string>;

/** What every island receives from its page to speak the page's language. */
export interface IslandLanguage {
  /** The page's language code (`es`, `en`): links and API calls carry it. */
  lang: string;
  /** The `Intl` locale of the language (`es-MX`, `en-US`). */
  locale: string;
  /**
   * The island's namespace (`checkin.json`'s keys as they are), and the
   * shared namespaces it uses, their keys prefixed (`session.offline`).
   */
  messages: Messages;
}

/** A message's values: numbers, strings and dates. */
export type MessageValues = Record<string, string | number | Date>;

/** Formats `messages[key]` with `values` in `locale` (an `Intl` locale, e.g. `en-US`). */
export interface Translate {
  (key: string, values?: MessageValues): string;
  /**
   * The message with its tags rendered by the functions of `values` (`link:
   * (chunks) => <a>{chunks}</a>`): the parts to render, in order.
   */
  rich<T>(
    key: string,
    values: Record<
      string,
      string | number | Date | T | ((chunks: (string | T)[]) => T)
    >,
  ): (string | T)[];
}

/** A `t()` over one island's messages; a missing key formats as the key itself. */
export function createTranslate(messages: Messages, locale: string): Translate {
  const cache = new Map<string, IntlMessageFormat | null>();
  function getFormat(key: string): IntlMessageFormat | null {
    let format = cache.get(key);
    if (format === undefined) {
      const message = messages[key];
      format = message === undefined
        ? null
        : new IntlMessageFormat(message, locale);
      cache.set(key, format);
    }
    return format;
  }
  const t = ((key, values) => {
    const format = getFormat(key);
    return format ? String(format.format(values)) : key;
  }) as Translate;
  t.rich = <T>(
    key: string,
    values: Parameters<Translate["rich"]>[1],
  ): (string | T)[] => {
    const format = getFormat(key);
    if (!format) return [key];
    // The library's `FormatXMLElementFn` returns `string | T | (string | T)[]`;
    // ours return T, a narrower type, so the values are passed as they are.
    const parts = format.format<T>(
      values as Parameters<typeof format.format<T>>[0],
    );
    return Array.isArray(parts) ? parts : [parts];
  };
  return t;
}

/**
 * An island's messages with a shared namespace's read as its own (each
 * `<namespace>.<key>` also as `<key>`), for a component that words the
 * same things in two islands: the check-in's reports in the passport, whose
 * own namespace is `passport`.
 */
export function scopeMessages(messages: Messages, namespace: string): Messages {
  const scoped = { ...messages };
  const prefix = `${namespace}.`;
  for (const [key, message] of Object.entries(messages)) {
    if (key.startsWith(prefix)) scoped[key.slice(prefix.length)] = message;
  }
  return scoped;
}
