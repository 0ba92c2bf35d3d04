import type { ComponentChildren } from "preact";
import { t } from "@/lib/i18n/mod.ts";
import { getFallbackLang } from "@/lib/data/mod.ts";

/**
 * A text of the data set (`localizeData`'s `object[field]`) as a page shows
 * it. When it fell back to Spanish on another language's page, it says so:
 * `lang="es"` for screen readers and translators, the `untranslated` mark,
 * and the catalogue's "(in Spanish)" after it, so the office sees what is
 * missing. A translated text, or any text on a Spanish page, is the text alone.
 */
export function DataText<T extends object>(
  { of, field, lang }: { of: T; field: keyof T & string; lang: string },
) {
  const text = of[field] as ComponentChildren;
  return (
    <Fallback lang={lang} from={getFallbackLang(of, field)}>{text}</Fallback>
  );
}

/** `children`, marked as the `from` language's text when it is set (see {@linkcode DataText}). */
export function Fallback(
  { lang, from, children }: {
    /** The page's language. */
    lang: string;
    /** The language the text is really in, when it is not the page's. */
    from: string | undefined;
    children: ComponentChildren;
  },
) {
  if (!from) return <>{children}</>;
  return (
    <>
      <span lang={from} class="untranslated">{children}</span>{" "}
      <span class="untranslated-note">{t(lang, "common.untranslated")}</span>
    </>
  );
}

/**
 * For a whole list or block of one data field (`tips`, `packing`): the
 * element's `class` (with `untranslated` added) and `lang="es"` when the
 * field shows the Spanish text. Put {@linkcode FallbackNote} beside its
 * heading.
 */
export function getFallbackProps(
  of: object,
  field: string,
  className: string,
): { lang?: string; class: string } {
  const fallback = getFallbackLang(of, field);
  return fallback
    ? { lang: fallback, class: `${className} untranslated` }
    : { class: className };
}

/** The "(in Spanish)" note of a field that fell back, or nothing. */
export function FallbackNote(
  { of, field, lang }: { of: object; field: string; lang: string },
) {
  if (!getFallbackLang(of, field)) return null;
  return (
    <>
      {" "}
      <span class="untranslated-note">{t(lang, "common.untranslated")}</span>
    </>
  );
}
