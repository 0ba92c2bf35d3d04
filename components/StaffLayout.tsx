import type { ComponentChildren } from "preact";
import type { AssetManifest } from "@/lib/pages/mod.ts";
import type { StaffMember } from "@/lib/types/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

/** A section of the staff console, to mark the current one in its menu. */
export type PanelSection =
  | "tablero"
  | "atractivos"
  | "contenido"
  | "fotos"
  | "premios"
  | "codigos"
  | "notas"
  | "preguntas"
  | "exportar"
  | "solicitudes"
  | "sesiones"
  | "personal"
  | "auditoria";

/** The console's sections, in the menu's order. */
const NAV: {
  section: PanelSection;
  href: string;
  adminOnly?: boolean;
}[] = [
  { section: "tablero", href: "/panel" },
  { section: "atractivos", href: "/panel/atractivos" },
  { section: "contenido", href: "/panel/contenido" },
  { section: "fotos", href: "/panel/fotos" },
  { section: "premios", href: "/panel/premios" },
  { section: "codigos", href: "/panel/codigos", adminOnly: true },
  { section: "notas", href: "/panel/notas", adminOnly: true },
  { section: "preguntas", href: "/panel/preguntas", adminOnly: true },
  { section: "exportar", href: "/panel/exportar" },
  { section: "solicitudes", href: "/panel/solicitudes", adminOnly: true },
  { section: "sesiones", href: "/panel/sesiones", adminOnly: true },
  { section: "personal", href: "/panel/personal", adminOnly: true },
  { section: "auditoria", href: "/panel/auditoria", adminOnly: true },
];

/** The key of a role's name (in `locales/<lang>/panel.json`). */
const ROLE_KEY: Record<StaffMember["role"], string> = {
  admin: "panel.roleAdmin",
  editor: "panel.roleEditor",
  viewer: "panel.roleViewer",
};

/** What the staff frame shows of the office, from the data set in force. */
export interface StaffOffice {
  /** The tourism office's name (the privacy notice's responsible office). */
  name: string;
  themeColor: string;
  /** Cache-busts `/theme.css` and `/logo.svg` when the data set changes. */
  dataVersion: string;
}

/**
 * The staff workspace's whole document, apart from the tourist site: the
 * office's name, and for a signed-in member who they are, the console's
 * sections (admin-only ones hidden from viewers) and the sign-out button.
 * No tourist menu, chat, footer or language offer: the console is Spanish
 * only, and a staff page never leads to a tourist page by accident. Without
 * `staff` (the staff sign-in pages) only the office's name heads the page.
 * The layout loads no script: a page whose island needs one brings it (the
 * new guide code's copy button, routes/panel/codigos.tsx).
 */
export function StaffLayout(
  {
    office,
    title,
    kicker,
    description,
    assets,
    staff,
    active,
    refreshTo,
    children,
  }: {
    office: StaffOffice;
    /** The document's `<title>`. */
    title: string;
    /** What the frame says it is, above the office's name: the console by default. */
    kicker?: string;
    description: string;
    /** A same-site path the page goes on to by itself (`<meta http-equiv="refresh">`). */
    refreshTo?: string;
    assets: AssetManifest | null;
    staff?: StaffMember;
    /** The section to mark as current in the menu; none for pages outside it. */
    active?: PanelSection;
    children: ComponentChildren;
  },
) {
  const v = encodeURIComponent(office.dataVersion);
  // The office's name leads to the dashboard only for a signed-in member:
  // to anyone else `/panel` is a 404.
  const Brand = staff ? "a" : "div";
  return (
    <html lang="es-MX">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        <meta name="robots" content="noindex, nofollow" />
        {refreshTo && (
          <meta http-equiv="refresh" content={`0;url=${refreshTo}`} />
        )}
        <meta name="theme-color" content={office.themeColor} />
        <link rel="icon" href={`/logo.svg?v=${v}`} type="image/svg+xml" />
        {assets && <link rel="stylesheet" href={assets.styles} />}
        <link rel="stylesheet" href={`/theme.css?v=${v}`} />
        {assets && (
          <link
            rel="preload"
            href={assets.font}
            as="font"
            type="font/woff2"
            crossorigin="anonymous"
          />
        )}
      </head>
      <body class="staff">
        <a class="skip-link" href="#contenido">
          {t(LANG, "panel_frame.skipLink")}
        </a>
        <header class="staff-header">
          <div class="staff-header__inner">
            <Brand class="staff-brand" href={staff ? "/panel" : undefined}>
              <img
                class="staff-brand__logo"
                src={`/logo.svg?v=${v}`}
                alt=""
                width="36"
                height="36"
              />
              <span class="staff-brand__text">
                <span class="staff-brand__kicker">
                  {kicker ?? t(LANG, "panel_frame.kicker")}
                </span>
                <span class="staff-brand__office">{office.name}</span>
              </span>
            </Brand>
            {staff && (
              <div class="staff-account">
                <p class="console__who staff-account__who">
                  <span class="staff-account__email">
                    {staff.email || staff.id}
                  </span>
                  {" · "}
                  <span class="staff-account__role">
                    {t(LANG, ROLE_KEY[staff.role])}
                  </span>
                </p>
                <form
                  class="staff-account__signout"
                  method="post"
                  action="/panel/salir"
                >
                  <button class="staff-button" type="submit">
                    {t(LANG, "panel_frame.signOut")}
                  </button>
                </form>
              </div>
            )}
          </div>
        </header>
        <div class={staff ? "staff-body" : "staff-body staff-body--plain"}>
          {staff && (
            <nav class="staff-nav" aria-label={t(LANG, "panel_frame.navLabel")}>
              <ul>
                {NAV.filter((item) =>
                  !item.adminOnly || staff.role === "admin"
                )
                  .map((item) => (
                    <li key={item.section}>
                      <a
                        href={item.href}
                        aria-current={item.section === active
                          ? "page"
                          : undefined}
                      >
                        {t(LANG, `panel_frame.nav.${item.section}`)}
                      </a>
                    </li>
                  ))}
              </ul>
            </nav>
          )}
          <main id="contenido" class="staff-main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </body>
    </html>
  );
}
