import type { ComponentChildren } from "preact";
import type { AssetManifest } from "@/lib/pages/mod.ts";
import { IslandsOnPage } from "@/components/Island.tsx";
import {
  getLangMeta,
  getLangs,
  type Lang,
  localizePath,
  splitLangPath,
  t,
  tRich,
} from "@/lib/i18n/mod.ts";
import { Fallback } from "./DataText.tsx";
import { type IconBranding, listAppIcons } from "@/lib/icons/mod.ts";
import { Icon } from "./Icon.tsx";

/** What every page shows of the municipality, from the current data set. */
export interface SiteInfo {
  /** The page's language: every text below is in it, or marked in `fallbacks`. */
  lang: Lang;
  brandName: string;
  tagline: string;
  municipality: string;
  state: string;
  country: string;
  themeColor: string;
  /** Cache-busts `/theme.css` and `/logo.svg` when the data set changes. */
  dataVersion: string;
  /** The logo and background the app icons are drawn from. */
  iconBranding: IconBranding;
  /** The data set's demo notice, when it is a demo. */
  demoNotice?: string;
  /** `nameFallback`: the language the name is really in, when not the page's. */
  emergency: { name: string; phone: string; nameFallback?: string }[];
  /** Texts shown in another language than the page's (see `DataText`). */
  fallbacks?: { tagline?: string; demoNotice?: string };
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
   * This page's canonical address in the default language (an absolute URL
   * or a path of this site): the layout writes `<link rel="canonical">` and
   * `og:url` in the page's language and the `hreflang` alternates of every
   * language from it. None on error pages.
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
  /**
   * The query parameters the page shows, as it understood them
   * (`{ categoria: "museo" }`): the language switcher keeps these and
   * nothing else of the request's query. A page may be cached and served
   * to everyone, so a visitor's guide code from a poster or a tracking tag
   * must never be written into it.
   */
  query?: Record<string, string | undefined>;
}

/**
 * The page's Open Graph and Twitter tags (and `robots`), in order, with
 * every URL made absolute against `origin`, the portal's public origin.
 */
export function getHeadTags(
  head: PageHead,
  site: Pick<SiteInfo, "brandName" | "defaultImage"> & { lang?: Lang },
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
  const lang = site.lang ?? getLangs()[0];
  tags["og:locale"] = getLangMeta(lang).ogLocale;
  tags["og:title"] = title;
  tags["og:description"] = description;
  if (head.url) tags["og:url"] = absolute(localizeUrl(lang, head.url));
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
  const entries = Object.entries({ ...tags, ...extra });
  // One `og:locale:alternate` per other language, right after `og:locale`.
  const at = entries.findIndex(([key]) => key === "og:locale") + 1;
  entries.splice(
    at,
    0,
    ...getLangs().filter((other) => other !== lang).map((
      other,
    ): [string, string] => [
      "og:locale:alternate",
      getLangMeta(other).ogLocale,
    ]),
  );
  return entries;
}

/**
 * An address of this site (a path or an absolute URL, in any language) as
 * `lang`'s page: `/en/ruta/x` and `/ruta/x` are both `/ruta/x` in Spanish.
 */
export function localizeUrl(lang: Lang, url: string): string {
  const localize = (path: string) =>
    localizePath(lang, splitLangPath(path).path);
  if (url.startsWith("/")) {
    const at = url.search(/[?#]/);
    return at < 0
      ? localize(url)
      : `${localize(url.slice(0, at))}${url.slice(at)}`;
  }
  const parsed = new URL(url);
  parsed.pathname = localize(parsed.pathname);
  return parsed.href;
}

/** The menu: default-language paths and `layout` message keys. */
const NAV = [
  { href: "/", label: "navHome" },
  { href: "/turismo/atractivos", label: "navAttractions" },
  { href: "/turismo/mapa", label: "navMap" },
  { href: "/turismo/informacion-practica#rutas", label: "navRoutes" },
  { href: "/turismo/servicios", label: "navServices" },
  { href: "/turismo/informacion-practica", label: "navPracticalInfo" },
  { href: "/mi-pasaporte", label: "navPassport" },
];

/** The footer's links: default-language paths and `layout` message keys. */
const FOOTER_LINKS = [
  { href: "/turismo/atractivos", label: "footerAttractions" },
  { href: "/turismo/informacion-practica#rutas", label: "footerRoutes" },
  { href: "/turismo/servicios", label: "footerServices" },
  { href: "/turismo/informacion-practica", label: "footerPracticalInfo" },
  { href: "/turismo/informacion-practica#eventos", label: "footerEvents" },
  { href: "/mi-pasaporte#boleto", label: "footerTicket" },
  { href: "/datos", label: "footerOpenData" },
];

/** A default-language path with its `#fragment`, in `lang`. */
function localizeHref(lang: Lang, href: string): string {
  const [path, fragment] = href.split("#");
  return `${localizePath(lang, path)}${
    fragment === undefined ? "" : `#${fragment}`
  }`;
}

/** `?a=1&b=2` of the parameters that have a value, or "". */
function formatQuery(query: PageHead["query"] = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value) params.set(name, value);
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

/**
 * The page shell: head, skip link, header (language offer, demo notice,
 * brand, language switcher, chat, menu), main landmark, footer. Everything
 * visible is inside a landmark, in the page's language (`site.lang`).
 */
export function Layout(
  {
    site,
    head,
    assets,
    path,
    origin,
    alternates = true,
    chat,
    children,
  }: {
    site: SiteInfo;
    head: PageHead;
    assets: AssetManifest | null;
    /**
     * The request path without its language prefix (`/turismo/atractivos`
     * on `/en/turismo/atractivos`): marks the current section in the menu
     * and is the same page in each language for the switcher.
     */
    path: string;
    /** The public origin (`BASE_URL`'s or the request's): head URLs are absolute. */
    origin?: string;
    /** The `hreflang` links to this page in each language (not on error pages). */
    alternates?: boolean;
    /**
     * The tourism assistant (its island, built by the page's route), in the
     * header; absent when no model is configured: then neither the chat nor
     * its script is on the page.
     */
    chat?: ComponentChildren;
    children: ComponentChildren;
  },
) {
  const { lang } = site;
  // Pages with no other-language version (errors, sign-in answers) get no
  // switcher and no offer: their links would lead to a 404.
  const others = alternates ? getLangs().filter((other) => other !== lang) : [];
  const at = (href: string) => localizeHref(lang, href);
  const absolute = (url: string) => origin ? new URL(url, origin).href : url;
  /** This page in each language: the canonical address, else the request's path. */
  const pageIn = (other: Lang) =>
    absolute(localizeUrl(other, head.url ?? path));
  const search = formatQuery(head.query);
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
      <html lang={getLangMeta(lang).intlLocale}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{head.title}</title>
          <meta name="description" content={head.description} />
          <meta name="theme-color" content={site.themeColor} />
          {head.refreshTo && (
            <meta http-equiv="refresh" content={`0;url=${head.refreshTo}`} />
          )}
          {head.url && <link rel="canonical" href={pageIn(lang)} />}
          {alternates && (
            <>
              {getLangs().map((other) => (
                <link
                  rel="alternate"
                  hreflang={other}
                  href={pageIn(other)}
                  key={other}
                />
              ))}
              <link
                rel="alternate"
                hreflang="x-default"
                href={pageIn(getLangs()[0])}
              />
            </>
          )}
          {getHeadTags(head, site, origin).map(([key, content]) =>
            key.startsWith("og:")
              ? <meta property={key} content={content} key={key} />
              : <meta name={key} content={content} key={key} />
          )}
          <link rel="icon" href={`/logo.svg?v=${v}`} type="image/svg+xml" />
          {/* Installable: the passport on a phone's home screen (docs/OFFLINE.md). */}
          <link
            rel="manifest"
            href={localizePath(lang, "/manifest.webmanifest")}
          />
          {listAppIcons(assets, site.iconBranding, site.dataVersion)
            .filter((icon) => icon.purpose === "apple-touch-icon")
            .map((icon) => (
              <link rel="apple-touch-icon" href={icon.src} key={icon.src} />
            ))}
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
          <a class="skip-link" href="#contenido">
            {t(lang, "layout.skipLink")}
          </a>
          <header class="site-header">
            {site.demoNotice && (
              <p class="demo-banner">
                <Icon name="info" /> {tRich(lang, "layout.demoBanner", {
                  link: (children) => <a href="#aviso-demo">{children}</a>,
                })}
              </p>
            )}
            <div class="container site-header__inner">
              <a class="brand" href={at("/")}>
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
                    {t(lang, "layout.brandSub", {
                      municipality: site.municipality,
                      state: site.state,
                    })}
                  </span>
                </span>
              </a>
              {
                /* The assistant is a site-wide tool, like a search box: in the
              header, so on a phone it sits beside the brand and covers no
              text (it floats at the corner on wider screens). */
              }
              {chat && <div class="site-header__chat">{chat}</div>}
              {others.length > 0 && (
                <nav
                  class="lang-switch"
                  aria-label={t(lang, "common.language")}
                >
                  <ul>
                    {others.map((other) => (
                      <li key={other}>
                        <a
                          href={`${localizePath(other, path)}${search}`}
                          hreflang={other}
                          lang={other}
                          data-lang-choice={other}
                          data-offer={t(other, "common.offer")}
                          data-offer-accept={t(other, "common.offerAccept")}
                          data-offer-dismiss={t(other, "common.offerDismiss")}
                        >
                          {getLangMeta(other).name}
                        </a>
                      </li>
                    ))}
                  </ul>
                </nav>
              )}
              <nav class="site-nav" aria-label={t(lang, "layout.navLabel")}>
                <ul>
                  {NAV.map((item) => (
                    <li key={item.href}>
                      <a
                        href={at(item.href)}
                        aria-current={item.href === section
                          ? "page"
                          : undefined}
                      >
                        {t(lang, `layout.${item.label}`)}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            </div>
            {others.length > 0 && <LanguageOfferSlot islands={islands} />}
          </header>
          <main id="contenido" tabIndex={-1}>{children}</main>
          <footer class="site-footer">
            <div class="container site-footer__grid">
              {/* Not a region: the home page's hero already bears this name. */}
              <div>
                <h2 class="site-footer__title">
                  {site.brandName}
                </h2>
                <p>
                  <Fallback lang={lang} from={site.fallbacks?.tagline}>
                    {site.tagline}
                  </Fallback>
                </p>
                <p>
                  {t(lang, "layout.footerCouncil", {
                    municipality: site.municipality,
                    state: site.state,
                    country: site.country,
                  })}
                </p>
              </div>
              <nav aria-labelledby="pie-enlaces">
                <h2 id="pie-enlaces" class="site-footer__title">
                  {t(lang, "layout.footerExplore")}
                </h2>
                <ul class="site-footer__links">
                  {FOOTER_LINKS.map((link) => (
                    <li key={link.href}>
                      <a href={at(link.href)}>
                        {t(lang, `layout.${link.label}`)}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <section aria-labelledby="pie-emergencias">
                <h2 id="pie-emergencias" class="site-footer__title">
                  {t(lang, "layout.footerEmergency")}
                </h2>
                <ul class="site-footer__links">
                  {site.emergency.slice(0, 4).map((entry) => (
                    <li key={entry.phone}>
                      {tRich(lang, "layout.footerEmergencyPhone", {
                        name: (
                          <Fallback lang={lang} from={entry.nameFallback}>
                            {entry.name}
                          </Fallback>
                        ),
                        phone: (
                          <a
                            href={`tel:${entry.phone.replace(/[^\d+]/g, "")}`}
                          >
                            {entry.phone}
                          </a>
                        ),
                      })}
                    </li>
                  ))}
                  <li>
                    <a href={at("/turismo/informacion-practica#emergencias")}>
                      {t(lang, "layout.footerAllPhones")}
                    </a>
                  </li>
                </ul>
              </section>
            </div>
            {site.demoNotice && (
              <p class="container site-footer__notice" id="aviso-demo">
                <Fallback lang={lang} from={site.fallbacks?.demoNotice}>
                  {site.demoNotice}
                </Fallback>
              </p>
            )}
            <p class="container site-footer__legal">
              {tRich(lang, "layout.footerLegal", {
                municipality: site.municipality,
                state: site.state,
                link: (children) => (
                  <a href={at("/aviso-de-privacidad")}>{children}</a>
                ),
              })}
            </p>
          </footer>
          {assets && <IslandPreloads assets={assets} islands={islands} />}
        </body>
      </html>
    </IslandsOnPage.Provider>
  );
}

/**
 * Where the `LanguageOffer` island draws its banner, under the header's
 * menu: an island marker without props (it reads the offers from the
 * switcher's links, which carry them in their language), so the page has no
 * script for it and the server renders nothing there.
 */
function LanguageOfferSlot({ islands }: { islands: Set<string> }) {
  islands.add("LanguageOffer");
  return <div class="island" data-island="LanguageOffer" />;
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
