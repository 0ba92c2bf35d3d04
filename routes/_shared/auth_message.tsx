import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Icon } from "@/components/Icon.tsx";
import type { AppDeps } from "@/deps.ts";
import { renderPage } from "@/routes/_app.tsx";
import {
  OidcSignInError,
  OidcUnavailableError,
  SignInNotConfiguredError,
} from "@/lib/oauth/mod.ts";
import { type Lang, localizePath, splitLangPath, t } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";

/** A message of the sign-in pages (`locales/<lang>/page_auth.json`). */
export function tAuth(lang: Lang, key: string): string {
  return t(lang, `page_auth.${key}`);
}

/**
 * A short message page of the sign-in: what happened and what to do next,
 * in `lang` (default: the request path's language; staff pages pass their
 * Spanish texts).
 */
export function renderAuthMessage(
  c: Context,
  deps: AppDeps,
  { status, title, body, retryHref, lang = getLang(c) }: {
    status: ContentfulStatusCode;
    title: string;
    body: string;
    /** A "try again" link, when trying again can help. */
    retryHref?: string;
    lang?: Lang;
  },
): Response {
  const brand = deps.data.current().data.branding.name;
  // The layout speaks the context's language: the one this message is in
  // (a callback's, from the page its sign-in started on).
  c.set("lang", lang);
  const response = renderPage(c, deps, {
    status,
    head: { title: `${title} · ${brand}`, description: body },
    body: (
      <section class="container error-page" aria-labelledby="auth-title">
        <h1 id="auth-title">{title}</h1>
        <p class="lead">{body}</p>
        <ul class="button-row">
          {retryHref && (
            <li>
              <a class="button" href={retryHref}>
                {tAuth(lang, "retry")} <Icon name="arrow" />
              </a>
            </li>
          )}
          <li>
            <a class="button button--ghost" href={localizePath(lang, "/")}>
              {tAuth(lang, "goHome")}
            </a>
          </li>
        </ul>
      </section>
    ),
  });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * The page for a sign-in error: not configured 503, provider unreachable
 * 502, a refused or tampered sign-in 400. Anything else is rethrown to the
 * page router's 500. In the language of the page the sign-in started from
 * (`next`, known to a refused sign-in), else of the request's path.
 */
export function renderSignInError(
  c: Context,
  deps: AppDeps,
  error: unknown,
): Response {
  const next = error instanceof OidcSignInError ? error.next : undefined;
  const lang = next ? splitLangPath(next).lang : getLang(c);
  const tr = (key: string) => tAuth(lang, key);
  const retryHref = localizePath(lang, "/auth/signin");
  if (error instanceof SignInNotConfiguredError) {
    return renderAuthMessage(c, deps, {
      lang,
      status: 503,
      title: tr("notConfiguredTitle"),
      body: tr("notConfiguredBody"),
    });
  }
  if (error instanceof OidcUnavailableError) {
    console.warn(`Sign-in: ${error.message}`);
    return renderAuthMessage(c, deps, {
      lang,
      status: 502,
      title: tr("unavailableTitle"),
      body: tr("unavailableBody"),
      retryHref,
    });
  }
  if (error instanceof OidcSignInError) {
    console.info(`Sign-in refused: ${error.message}`);
    const cancelled = error.providerError === "access_denied";
    return renderAuthMessage(c, deps, {
      lang,
      status: 400,
      title: tr(cancelled ? "cancelledTitle" : "failedTitle"),
      body: tr(cancelled ? "cancelledBody" : "failedBody"),
      retryHref,
    });
  }
  throw error;
}
