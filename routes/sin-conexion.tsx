import type { AppDeps } from "@/deps.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { type Lang, localizePath, t, tRich } from "@/lib/i18n/mod.ts";
import { createPageRouter, renderPage } from "./_app.tsx";

/** The offline page's default-language path. */
export const OFFLINE_PATH = "/sin-conexion";

/**
 * `/sin-conexion`: what the service worker shows, in the page's language,
 * for a page it does not keep when there is no network: what still works
 * offline, with links to it (client/service_worker.ts precaches it). It is
 * a page like any other online too.
 */
export default function offlinePage(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const lang = getLang(c);
    const data = localizeData(deps.data.current().data, lang);
    const at = (path: string) => localizePath(lang, path);
    return renderPage(c, deps, {
      head: {
        title: `${t(lang, "offline.title")} · ${data.branding.name}`,
        description: t(lang, "offline.description"),
        image: null,
        robots: "noindex",
      },
      body: (
        <section
          class="container offline-page"
          aria-labelledby="offline-title"
        >
          <h1 id="offline-title">{t(lang, "offline.title")}</h1>
          <p class="lead">{t(lang, "offline.lead")}</p>
          <h2>{t(lang, "offline.worksTitle")}</h2>
          <ul class="offline-page__list">
            <li>{link(lang, "offline.worksHome", at("/"))}</li>
            <li>
              {link(
                lang,
                "offline.worksAttractions",
                at("/turismo/atractivos"),
                {
                  count: data.attractions.length,
                },
              )}
            </li>
            <li>{link(lang, "offline.worksPassport", at("/mi-pasaporte"))}</li>
            <li>{t(lang, "offline.worksCheckIn")}</li>
          </ul>
          <p>{t(lang, "offline.emergency")}</p>
          <p>
            {/* The page the tourist asked for: this page stands at its address. */}
            <a class="button" href="">
              {t(lang, "offline.retry")}
            </a>
          </p>
        </section>
      ),
    });
  });
}

/** A message whose `<link>` part leads to `href`. */
function link(
  lang: Lang,
  key: string,
  href: string,
  values: Record<string, number> = {},
) {
  return tRich(lang, key, {
    ...values,
    link: (children) => <a href={href}>{children}</a>,
  });
}
