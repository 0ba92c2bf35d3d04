import type { ComponentChildren } from "preact";
import ChatWidget from "@/islands/ChatWidget.tsx";
import type { AssetManifest } from "@/lib/pages/assets.ts";
import { Island, IslandsOnPage } from "@/components/Island.tsx";
import { Icon } from "./Icon.tsx";

/** What every page shows of the municipality, from the current data set. */
export interface SiteInfo {
  brandName: string;
  tagline: string;
  municipality: string;
  state: string;
  country: string;
  themeColor: string;
  /** Cache-busts `/theme.css` and `/logo.svg` when the data set changes. */
  dataVersion: string;
  /** The data set's demo notice, when it is a demo. */
  demoNotice?: string;
  emergency: { name: string; phone: string }[];
  /**
   * Whether the tourism assistant can answer (a model is configured): without
   * one the chat is not rendered at all, nor its script loaded.
   */
  chatAvailable: boolean;
  /** The share picture of pages without their own: the home page's card. */
  defaultImage?: PageImage;
}

/** A page's share picture (`og:image`): a share card unless told otherwise. */
export interface PageImage {
  /** An absolute URL, or a path of this site (made absolute). */
  url: string;
  /** What the picture shows, in Spanish: `og:image:alt` and `twitter:image:alt`. */
  alt: string;
  /** Default 1200 x 630 `image/png`, the share cards' (lib/og). */
  width?: number;
  height?: number;
  type?: string;
}

/**
 * The `<head>` of one page: the layout writes the canonical link and every
 * Open Graph and Twitter tag from it, with absolute URLs; a page passes
 * only what differs.
 */
export interface PageHead {
  /** The document's `<title>`. */
  title: string;
  description: string;
  /** `og:title` and `twitter:title`, when not `title` (e.g. without the site's name). */
  shareTitle?: string;
  /**
   * This page's canonical address (`<link rel="canonical">`, `og:url`): an
   * absolute URL or a path of this site. None on error pages.
   */
  url?: string;
  /**
   * The share picture. Left out: the site's default (the home page's card);
   * `null`: none (a private page).
   */
  image?: PageImage | null;
  /** `<meta name="robots">`, e.g. `noindex` for a visitor's own page. */
  robots?: string;
  /** More tags, or overrides: `og:*` as property, the rest as name. */
  meta?: Record<string, string>;
  /** A same-site path the page goes on to by itself (`<meta http-equiv="refresh">`). */
  refreshTo?: string;
}

/**
 * The page's Open Graph and Twitter tags (and `robots`), in order, with
 * every URL made absolute against `origin`, the portal's public origin.
 */
export function getHeadTags(
  head: PageHead,
  site: Pick<SiteInfo, "brandName" | "defaultImage">,
  origin?: string,
): [string, string][] {
  const absolute = (url: string) => origin ? new URL(url, origin).href : url;
  const extra = head.meta ?? {};
  // A page may still name its share title and text as `og:*` in `meta`.
  const title = head.shareTitle ?? extra["og:title"] ?? head.title;
  const description = extra["og:description"] ?? head.description;
  const image = head.image === undefined ? site.defaultImage : head.image;
  const tags: Record<string, string> = {};
  if (head.robots) tags.robots = head.robots;
  tags["og:type"] = "website";
  tags["og:site_name"] = site.brandName;
  tags["og:locale"] = "es_MX";
  tags["og:title"] = title;
  tags["og:description"] = description;
  if (head.url) tags["og:url"] = absolute(head.url);
  if (image) {
    tags["og:image"] = absolute(image.url);
    tags["og:image:type"] = image.type ?? "image/png";
    tags["og:image:width"] = String(image.width ?? 1200);
    tags["og:image:height"] = String(image.height ?? 630);
    tags["og:image:alt"] = image.alt;
  }
  tags["twitter:card"] = image ? "summary_large_image" : "summary";
  tags["twitter:title"] = title;
  tags["twitter:description"] = description;
  if (image) {
    tags["twitter:image"] = tags["og:image"];
    tags["twitter:image:alt"] = image.alt;
  }
  return Object.entries({ ...tags, ...extra });
}

const NAV = [
  { href: "/", label: "Inicio" },
  { href: "/turismo/atractivos", label: "Atractivos" },
  { href: "/#rutas", label: "Rutas" },
  { href: "/turismo/servicios", label: "Servicios" },
  { href: "/turismo/informacion-practica", label: "Información práctica" },
  { href: "/mi-pasaporte", label: "Mi pasaporte" },
];

/**
 * The page shell: head, skip link, header (demo notice, brand, chat, menu),
 * main landmark, footer. Everything visible is inside a landmark.
 */
export function Layout(
  { site, head, assets, path, origin, children }: {
    site: SiteInfo;
    head: PageHead;
    assets: AssetManifest | null;
    /** The request path, to mark the current section in the menu. */
    path: string;
    /** The public origin (`BASE_URL`'s or the request's): head URLs are absolute. */
    origin?: string;
    children: ComponentChildren;
  },
) {
  const v = encodeURIComponent(site.dataVersion);
  const section = path === "/"
    ? "/"
    : path.startsWith("/turismo/atractivos")
    ? "/turismo/atractivos"
    : path.startsWith("/mi-pasaporte")
    ? "/mi-pasaporte"
    : path.startsWith("/turismo/servicios")
    ? "/turismo/servicios"
    : path.startsWith("/turismo/informacion-practica")
    ? "/turismo/informacion-practica"
    : "";
  const islands = new Set<string>();
  return (
    <IslandsOnPage.Provider value={islands}>
      <html lang="es-MX">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{head.title}</title>
          <meta name="description" content={head.description} />
          <meta name="theme-color" content={site.themeColor} />
          {head.refreshTo && (
            <meta http-equiv="refresh" content={`0;url=${head.refreshTo}`} />
          )}
          {head.url && (
            <link
              rel="canonical"
              href={origin ? new URL(head.url, origin).href : head.url}
            />
          )}
          {getHeadTags(head, site, origin).map(([key, content]) =>
            key.startsWith("og:")
              ? <meta property={key} content={content} key={key} />
              : <meta name={key} content={content} key={key} />
          )}
          <link rel="icon" href={`/logo.svg?v=${v}`} type="image/svg+xml" />
          {assets && <link rel="stylesheet" href={assets.styles} />}
          <link rel="stylesheet" href={`/theme.css?v=${v}`} />
          {
            /* Found only once the stylesheet is parsed: asked for at once. */
            assets && (
              <link
                rel="preload"
                href={assets.font}
                as="font"
                type="font/woff2"
                crossorigin="anonymous"
              />
            )
          }
          {assets && <script type="module" src={assets.client} />}
          {assets?.clientImports.map((href) => (
            <link rel="modulepreload" href={href} key={href} />
          ))}
        </head>
        <body>
          <a class="skip-link" href="#contenido">Saltar al contenido</a>
          <header class="site-header">
            {site.demoNotice && (
              <p class="demo-banner">
                <Icon name="info" />{" "}
                <a href="#aviso-demo">Sitio de demostración</a>: los datos son
                ilustrativos.
              </p>
            )}
            <div class="container site-header__inner">
              <a class="brand" href="/">
                <img
                  class="brand__logo"
                  src={`/logo.svg?v=${v}`}
                  alt=""
                  width="44"
                  height="44"
                />
                <span class="brand__text">
                  <span class="brand__name">{site.brandName}</span>
                  <span class="brand__sub">
                    Portal turístico oficial · {site.municipality}, {site.state}
                  </span>
                </span>
              </a>
              {
                /* The assistant is a site-wide tool, like a search box: in the
              header, so on a phone it sits beside the brand and covers no
              text (it floats at the corner on wider screens). */
              }
              {site.chatAvailable && (
                <div class="site-header__chat">
                  <Island
                    name="ChatWidget"
                    component={ChatWidget}
                    props={{ brandName: site.brandName }}
                  />
                </div>
              )}
              <nav class="site-nav" aria-label="Principal">
                <ul>
                  {NAV.map((item) => (
                    <li key={item.href}>
                      <a
                        href={item.href}
                        aria-current={item.href === section
                          ? "page"
                          : undefined}
                      >
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            </div>
          </header>
          <main id="contenido" tabIndex={-1}>{children}</main>
          <footer class="site-footer">
            <div class="container site-footer__grid">
              {/* Not a region: the home page's hero already bears this name. */}
              <div>
                <h2 class="site-footer__title">
                  {site.brandName}
                </h2>
                <p>{site.tagline}</p>
                <p>
                  Ayuntamiento de {site.municipality}, {site.state},{" "}
                  {site.country}.
                </p>
              </div>
              <nav aria-labelledby="pie-enlaces">
                <h2 id="pie-enlaces" class="site-footer__title">Explora</h2>
                <ul class="site-footer__links">
                  <li>
                    <a href="/turismo/atractivos">Atractivos turísticos</a>
                  </li>
                  <li>
                    <a href="/#rutas">Rutas sugeridas</a>
                  </li>
                  <li>
                    <a href="/turismo/servicios">
                      Hoteles, restaurantes y guías
                    </a>
                  </li>
                  <li>
                    <a href="/turismo/informacion-practica">
                      Información práctica
                    </a>
                  </li>
                  <li>
                    <a href="/#eventos">Agenda de eventos</a>
                  </li>
                  <li>
                    <a href="/#boleto">Obtén tu boleto turístico</a>
                  </li>
                  <li>
                    <a href="/datos">Datos abiertos</a>
                  </li>
                </ul>
              </nav>
              <section aria-labelledby="pie-emergencias">
                <h2 id="pie-emergencias" class="site-footer__title">
                  Teléfonos de emergencia
                </h2>
                <ul class="site-footer__links">
                  {site.emergency.slice(0, 4).map((entry) => (
                    <li key={entry.name}>
                      {entry.name}:{" "}
                      <a href={`tel:${entry.phone.replace(/[^\d+]/g, "")}`}>
                        {entry.phone}
                      </a>
                    </li>
                  ))}
                  <li>
                    <a href="/turismo/informacion-practica#emergencias">
                      Todos los teléfonos útiles
                    </a>
                  </li>
                </ul>
              </section>
            </div>
            {site.demoNotice && (
              <p class="container site-footer__notice" id="aviso-demo">
                {site.demoNotice}
              </p>
            )}
            <p class="container site-footer__legal">
              © {site.municipality},{" "}
              {site.state}. Este portal no usa cookies de terceros ni
              rastreadores.{" "}
              <a href="/aviso-de-privacidad">Aviso de privacidad</a>
            </p>
          </footer>
          {assets && <IslandPreloads assets={assets} islands={islands} />}
        </body>
      </html>
    </IslandsOnPage.Provider>
  );
}

/**
 * `modulepreload` for the chunks of the islands this page rendered. Without
 * it the browser learns of them only when the entry runs (after parsing):
 * with it, they load while the page is parsed. At the end of the body,
 * because only then are the page's islands known (rendering is in document
 * order); `modulepreload` is allowed there.
 */
function IslandPreloads(
  { assets, islands }: { assets: AssetManifest; islands: Set<string> },
) {
  const loaded = new Set(assets.clientImports);
  const hrefs = new Set(
    [...islands].flatMap((name) => assets.islands[name] ?? [])
      .filter((href) => !loaded.has(href)),
  );
  return (
    <>
      {[...hrefs].map((href) => (
        <link rel="modulepreload" href={href} key={href} />
      ))}
    </>
  );
}
