import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { ErrorPage } from "@/components/ErrorPage.tsx";
import { Island } from "@/components/Island.tsx";
import { Layout, type PageHead, type SiteInfo } from "@/components/Layout.tsx";
import { PageImageSources } from "@/components/PagePolicy.tsx";
import ChatWidget from "@/islands/ChatWidget.tsx";
import {
  getFallbackLang,
  type LoadedData,
  localizeData,
} from "@/lib/data/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import {
  type AppEnv,
  getContentSecurityPolicy,
  getLang,
  getPublicOrigin,
  PAGE_SECURITY_HEADERS,
  redactPath,
} from "@/lib/http/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";
import {
  describePageCard,
  getPageCard,
  getPageCardPath,
} from "@/lib/og/mod.ts";
import {
  DEFAULT_LANG,
  getIslandMessages,
  type Lang,
  localizePath,
  splitLangPath,
  t,
} from "@/lib/i18n/mod.ts";

/** The municipality as every page shows it, from the data set in force, in `lang`. */
export function getSiteInfo(
  loaded: LoadedData,
  { lang = DEFAULT_LANG }: { lang?: Lang } = {},
): SiteInfo {
  const { branding, municipality, meta, emergency } = localizeData(
    loaded.data,
    lang,
  );
  const home = { kind: "home" } as const;
  return {
    lang,
    brandName: branding.name,
    tagline: branding.tagline,
    municipality: municipality.name,
    state: municipality.state,
    country: municipality.country,
    themeColor: branding.colors.primary,
    dataVersion: loaded.version,
    iconBranding: loaded.data.branding,
    demoNotice: meta.demo ? meta.notice : undefined,
    emergency: emergency.map((entry) => ({
      name: entry.name,
      phone: entry.phone,
      nameFallback: getFallbackLang(entry, "name"),
    })),
    fallbacks: {
      tagline: getFallbackLang(branding, "tagline"),
      demoNotice: getFallbackLang(meta, "notice"),
    },
    defaultImage: {
      // The card in the page's language: /en/og/inicio.png on English pages.
      url: localizePath(lang, getPageCardPath(home, loaded.version)),
      alt: describePageCard(getPageCard(loaded, { ...home, lang })!),
    },
  };
}

/**
 * Renders a page inside the shared layout and answers it as HTML. Pages are
 * per request (they read the current data set and KV), so they are not
 * cached by browsers or proxies.
 */
export function renderPage(
  c: Context<AppEnv>,
  deps: AppDeps,
  { head, body, status = 200 }: {
    head: PageHead;
    body: ComponentChildren;
    status?: ContentfulStatusCode;
  },
): Response {
  const lang = getLang(c);
  const site = getSiteInfo(deps.data.current(), { lang });
  // The assistant only when a model is configured (fixed for the process,
  // so cached pages stay right).
  const chat = deps.openai !== undefined
    ? (
      <Island
        name="ChatWidget"
        component={ChatWidget}
        props={{
          brandName: site.brandName,
          ...getIslandMessages(lang, "chat", { shared: ["location"] }),
        }}
      />
    )
    : undefined;
  // A map's tile host, when the page shows one (PageImageSources).
  const imageSources = new Set<string>();
  const html = renderToString(
    <PageImageSources.Provider value={imageSources}>
      <Layout
        site={site}
        chat={chat}
        head={head}
        assets={getAssets()}
        path={splitLangPath(c.req.path).path}
        origin={getPublicOrigin(c, deps.config)}
        alternates={status < 400}
      >
        {body}
      </Layout>
    </PageImageSources.Provider>,
  );
  // Pages link share cards (og:image), which link previews ask for next.
  if (status === 200 && head.image !== null) deps.renderPool.pageServed();
  return c.html(`<!DOCTYPE html>${html}`, status, {
    ...PAGE_SECURITY_HEADERS,
    ...(imageSources.size > 0 && {
      "Content-Security-Policy": getContentSecurityPolicy({
        imageSources: [...imageSources],
      }),
    }),
    "Cache-Control": "no-cache",
  });
}

/** `title · site name`, the `<title>` of most pages, in `lang`. */
export function getPageTitle(
  lang: Lang,
  title: string,
  deps: Pick<AppDeps, "data">,
): string {
  const { branding } = localizeData(deps.data.current().data, lang);
  return t(lang, "layout.pageTitle", { title, site: branding.name });
}

/** The friendly "page not found" page, status 404, in the path's language. */
export function renderNotFoundPage(
  c: Context<AppEnv>,
  deps: AppDeps,
): Response {
  const lang = getLang(c);
  return renderPage(c, deps, {
    status: 404,
    head: {
      title: getPageTitle(lang, t(lang, "errors.notFoundTitle"), deps),
      description: t(lang, "errors.notFoundDescription"),
    },
    body: <ErrorPage status={404} lang={lang} />,
  });
}

/**
 * The "not allowed" page, status 403: a staff member without the role an
 * action needs, or a state-changing request from another site. `error`
 * says why, in its Spanish message and details.
 */
export function renderForbiddenPage(
  c: Context<AppEnv>,
  deps: AppDeps,
  error?: HttpError,
): Response {
  const lang = getLang(c);
  const response = renderPage(c, deps, {
    status: 403,
    head: {
      title: getPageTitle(
        lang,
        error?.message ?? t(lang, "errors.forbiddenTitle"),
        deps,
      ),
      description: error?.details ?? t(lang, "errors.forbiddenDescription"),
      image: null,
      robots: "noindex",
    },
    body: (
      <ErrorPage
        status={403}
        lang={lang}
        title={error?.message}
        body={error?.details}
      />
    ),
  });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/** The friendly "something went wrong" page, status 500, in the path's language. */
function renderServerErrorPage(c: Context<AppEnv>, deps: AppDeps): Response {
  const lang = getLang(c);
  return renderPage(c, deps, {
    status: 500,
    head: {
      title: t(lang, "errors.serverErrorTitle"),
      description: t(lang, "errors.serverErrorDescription"),
    },
    body: <ErrorPage status={500} lang={lang} />,
  });
}

/** How a router's pages answer a refusal and a failure (a 404 is always the site's). */
export interface PageErrorPages {
  /** A thrown 403: `error` says why. */
  refused(c: Context<AppEnv>, error: HttpError): Response;
  /** Anything unexpected, once logged: the friendly 500. */
  failed(c: Context<AppEnv>): Response;
}

/**
 * A router for HTML pages, with the one error funnel of every page, the
 * site's and the staff console's: a thrown 404 renders the friendly 404
 * page, a 403 (a staff member without the role) `pages.refused`, and
 * anything unexpected is logged and answered by `pages.failed` (the site's
 * friendly 500 page unless said), never the API's JSON; should that page
 * fail too, a line of text.
 */
export function createPageRouter(
  deps: AppDeps,
  pages: PageErrorPages = {
    refused: (c, error) => renderForbiddenPage(c, deps, error),
    failed: (c) => renderServerErrorPage(c, deps),
  },
): Hono<AppEnv> {
  return new Hono<AppEnv>().onError((error, c) => {
    if (error instanceof HttpError && error.status === 404) {
      return renderNotFoundPage(c, deps);
    }
    if (error instanceof HttpError && error.status === 403) {
      return pages.refused(c, error);
    }
    console.error(
      `Unhandled error on ${c.req.method} ${redactPath(c.req.path)}:`,
      error,
    );
    try {
      return pages.failed(c);
    } catch {
      return c.text(t(getLang(c), "errors.serverErrorText"), 500);
    }
  });
}
