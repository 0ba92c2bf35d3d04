import type { ComponentChildren } from "preact";
import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";

/** A link of a breadcrumb trail: a default-language path and what it reads. */
export interface Crumb {
  href: string;
  label: ComponentChildren;
}

/**
 * A page's breadcrumb trail in its head: home, then `trail` (paths
 * localized to `lang`), then the page itself (`current`, not a link).
 */
export function Breadcrumbs(
  { lang, trail = [], current }: {
    lang: Lang;
    trail?: Crumb[];
    current: ComponentChildren;
  },
) {
  return (
    <nav aria-label={t(lang, "common.breadcrumbs")} class="breadcrumbs">
      <ol>
        <li>
          <a href={localizePath(lang, "/")}>{t(lang, "common.home")}</a>
        </li>
        {trail.map((crumb) => (
          <li key={crumb.href}>
            <a href={localizePath(lang, crumb.href)}>{crumb.label}</a>
          </li>
        ))}
        <li aria-current="page">{current}</li>
      </ol>
    </nav>
  );
}

/**
 * A long page's table of contents under its head: a link to each section
 * by its id. `label` names the list for screen readers ("En esta página").
 */
export function OnThisPage(
  { label, sections }: {
    label: string;
    sections: { id: string; label: string }[];
  },
) {
  return (
    <div class="container info-toc">
      <nav class="filters" aria-label={label}>
        <ul>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.label}</a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
