import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";
import { Icon } from "./Icon.tsx";

/**
 * The friendly error pages (403, 404, 500) in the page's language: what
 * happened and where to go next. A 403 (only staff meet one) may say why
 * (`title`, `body`) and leads back to the panel.
 */
export function ErrorPage(
  { status, lang, title, body }: {
    status: 403 | 404 | 500;
    lang: Lang;
    title?: string;
    body?: string;
  },
) {
  const text = {
    title: title ?? t(lang, `errors.title${status}`),
    body: body ?? t(lang, `errors.body${status}`),
  };
  return (
    <section class="container error-page" aria-labelledby="error-title">
      <p class="error-page__code" aria-hidden="true">{status}</p>
      <h1 id="error-title">{text.title}</h1>
      <p class="lead">{text.body}</p>
      {status === 403
        ? (
          <ul class="button-row">
            <li>
              <a class="button" href="/panel">
                {t(lang, "errors.backToPanel")} <Icon name="arrow" />
              </a>
            </li>
          </ul>
        )
        : <ErrorLinks lang={lang} />}
    </section>
  );
}

/** Where a lost visitor can go next, in `lang`'s pages. */
function ErrorLinks({ lang }: { lang: Lang }) {
  return (
    <ul class="button-row">
      <li>
        <a class="button" href={localizePath(lang, "/")}>
          {t(lang, "errors.goHome")} <Icon name="arrow" />
        </a>
      </li>
      <li>
        <a
          class="button button--ghost"
          href={localizePath(lang, "/turismo/atractivos")}
        >
          {t(lang, "errors.seeAttractions")}
        </a>
      </li>
    </ul>
  );
}
