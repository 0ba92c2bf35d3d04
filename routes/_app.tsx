import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { ErrorPage } from "@/components/ErrorPage.tsx";
import { Layout, type PageHead, type SiteInfo } from "@/components/Layout.tsx";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/http/errors.ts";
import type { AppEnv } from "@/lib/http/router.ts";
import { getAssets } from "@/lib/pages/assets.ts";
import { PAGE_SECURITY_HEADERS } from "@/lib/http/security_headers.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import { getPageCardPath } from "@/lib/og/card_url.ts";
import { describePageCard, getPageCard } from "@/lib/og/page_cards.ts";

/**
 * The municipality as every page shows it, from the data set in force; the
 * chat only when a model is configured (fixed for the process, so cached
 * pages stay right).
 */
export function getSiteInfo(
  loaded: LoadedData,
  { chatAvailable = false }: { chatAvailable?: boolean } = {},
): SiteInfo {
  const { branding, municipality, meta, emergency } = loaded.data;
  const home = { kind: "home" } as const;
  return {
    brandName: branding.name,
    tagline: branding.tagline,
    municipality: municipality.name,
    state: municipality.state,
    country: municipality.country,
    themeColor: branding.colors.primary,
    dataVersion: loaded.version,
    demoNotice: meta.demo ? meta.notice : undefined,
    emergency: emergency.map(({ name, phone }) => ({ name, phone })),
    chatAvailable,
    defaultImage: {
      url: getPageCardPath(home, loaded.version),
      alt: describePageCard(getPageCard(loaded, home)!),
    },
  };
}

/**
 * Renders a page inside the shared layout and answers it as HTML. Pages are
 * per request (they read the current data set and KV), so they are not
 * cached by browsers or proxies.
 */
export function renderPage(
  c: Context,
  deps: AppDeps,
  { head, body, status = 200 }: {
    head: PageHead;
    body: ComponentChildren;
    status?: ContentfulStatusCode;
  },
): Response {
  const html = renderToString(
    <Layout
      site={getSiteInfo(deps.data.current(), {
        chatAvailable: deps.openai !== undefined,
      })}
      head={head}
      assets={getAssets()}
      path={c.req.path}
      origin={getPublicOrigin(c, deps.config)}
    >
      {body}
    </Layout>,
  );
  return c.html(`<!DOCTYPE html>${html}`, status, {
    ...PAGE_SECURITY_HEADERS,
    "Cache-Control": "no-cache",
  });
}

/** The friendly "page not found" page, status 404. */
export function renderNotFoundPage(c: Context, deps: AppDeps): Response {
  return renderPage(c, deps, {
    status: 404,
    head: {
      title: `Página no encontrada · ${deps.data.current().data.branding.name}`,
      description: "La página que buscas no existe o cambió de dirección.",
    },
    body: <ErrorPage status={404} />,
  });
}

/**
 * The "not allowed" page, status 403: a staff member without the role an
 * action needs, or a state-changing request from another site. `error`
 * says why, in its Spanish message and details.
 */
export function renderForbiddenPage(
  c: Context,
  deps: AppDeps,
  error?: HttpError,
): Response {
  const response = renderPage(c, deps, {
    status: 403,
    head: {
      title: `${
        error?.message ?? "Sin permiso"
      } · ${deps.data.current().data.branding.name}`,
      description: error?.details ?? "No tienes permiso para esta acción.",
      image: null,
      robots: "noindex",
    },
    body: (
      <ErrorPage
        status={403}
        title={error?.message}
        body={error?.details}
      />
    ),
  });
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * A router for HTML pages: a thrown 404 renders the friendly 404 page, a
 * 403 (a staff member without the role) the 403 page, and
 * anything unexpected is logged and answered with a friendly 500 page, never
 * the API's JSON.
 */
export function createPageRouter(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError((error, c) => {
    if (error instanceof HttpError && error.status === 404) {
      return renderNotFoundPage(c, deps);
    }
    if (error instanceof HttpError && error.status === 403) {
      return renderForbiddenPage(c, deps, error);
    }
    console.error(`Unhandled error on ${c.req.method} ${c.req.path}:`, error);
    try {
      return renderPage(c, deps, {
        status: 500,
        head: {
          title: "Error del servidor",
          description: "Ocurrió un error inesperado.",
        },
        body: <ErrorPage status={500} />,
      });
    } catch {
      return c.text("Error interno del servidor", 500);
    }
  });
  return app;
}
