/**
 * Messages with markup, for pages (Preact on the server). A sentence with a
 * link or a bold part stays one message, its parts named by ICU rich-text
 * tags: `"Lee el <link>aviso de privacidad</link>."`. The page passes one
 * function per tag, which receives the tag's formatted children, and may
 * pass elements as plain values (`{count}` rendered as `<strong>`):
 *
 * ```tsx
 * tRich(lang, "layout.legal", {
 *   link: (children) => <a href={localizePath(lang, "/aviso-de-privacidad")}>{children}</a>,
 * })
 * ```
 *
 * This is the one way pages put markup in a message (never two messages
 * joined around a link): translators see the whole sentence and may move
 * the tag where their language puts it. Plain messages use `t()`.
 *
 * @module
 */
import { IntlMessageFormat } from "intl-messageformat";
import type { ComponentChildren, VNode } from "preact";
import { getLangMeta, getMessage, type Lang } from "./catalogue.ts";

/** What a rich message may name: plain values, elements, and tag functions. */
export type RichValues = Record<
  string,
  | string
  | number
  | Date
  | VNode
  | ((children: ComponentChildren[]) => VNode)
>;

const formats = new Map<string, IntlMessageFormat>();

/**
 * `key`'s message in `lang` as Preact children: text, the elements passed as
 * values, and each `<tag>…</tag>` rendered by the function of that name.
 */
export function tRich(
  lang: Lang,
  key: string,
  values: RichValues,
): ComponentChildren {
  const id = `${lang}\u0000${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(
      getMessage(lang, key),
      getLangMeta(lang).intlLocale,
    );
    formats.set(id, format);
  }
  return format.format<VNode>(
    values as Parameters<typeof format.format<VNode>>[0],
  ) as ComponentChildren;
}
