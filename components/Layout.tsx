import type { ComponentChildren } from "preact";
import ChatWidget from "@/islands/ChatWidget.tsx";
import type { AssetManifest } from "@/lib/pages/assets.ts";
import { Island } from "./Island.tsx";
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
}

/** The `<head>` of one page. */
export interface PageHead {
  title: string;
  description: string;
  /** Absolute URL of this page. */
  url?: string;
  /** Open Graph and Twitter meta tags: `og:*` as property, the rest as name. */
  meta?: Record<string, string>;
}

const NAV = [
  { href: "/", label: "Inicio" },
  { href: "/turismo/atractivos", label: "Atractivos" },
  { href: "/#rutas", label: "Rutas" },
  { href: "/mi-pasaporte", label: "Mi pasaporte" },
];

/** The page shell: head, skip link, header, main landmark, footer, chat. */
export function Layout(
  { site, head, assets, path, children }: {
    site: SiteInfo;
    head: PageHead;
    assets: AssetManifest | null;
    /** The request path, to mark the current section in the menu. */
    path: string;
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
    : "";
  return (
    <html lang="es-MX">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{head.title}</title>
        <meta name="description" content={head.description} />
        <meta name="theme-color" content={site.themeColor} />
        {head.url && <link rel="canonical" href={head.url} />}
        {Object.entries(head.meta ?? {}).map(([key, content]) =>
          key.startsWith("og:")
            ? <meta property={key} content={content} key={key} />
            : <meta name={key} content={content} key={key} />
        )}
        <link rel="icon" href={`/logo.svg?v=${v}`} type="image/svg+xml" />
        {assets && <link rel="stylesheet" href={assets.styles} />}
        <link rel="stylesheet" href={`/theme.css?v=${v}`} />
        {assets && <script type="module" src={assets.client} />}
      </head>
      <body>
        <a class="skip-link" href="#contenido">Saltar al contenido</a>
        {site.demoNotice && (
          <p class="demo-banner">
            <Icon name="info" />{" "}
            <a href="#aviso-demo">Sitio de demostración</a>: los datos son
            ilustrativos.
          </p>
        )}
        <header class="site-header">
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
            <nav class="site-nav" aria-label="Principal">
              <ul>
                {NAV.map((item) => (
                  <li key={item.href}>
                    <a
                      href={item.href}
                      aria-current={item.href === section ? "page" : undefined}
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
            <section aria-labelledby="pie-municipio">
              <h2 id="pie-municipio" class="site-footer__title">
                {site.brandName}
              </h2>
              <p>{site.tagline}</p>
              <p>
                Ayuntamiento de {site.municipality}, {site.state},{" "}
                {site.country}.
              </p>
            </section>
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
                  <a href="/#eventos">Agenda de eventos</a>
                </li>
                <li>
                  <a href="/#boleto">Obtén tu boleto turístico</a>
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
            rastreadores.
          </p>
        </footer>
        <Island
          name="ChatWidget"
          component={ChatWidget}
          props={{ brandName: site.brandName }}
        />
      </body>
    </html>
  );
}
