import { Breadcrumbs } from "@/components/PageNav.tsx";
import { RouteCard } from "@/components/RouteCard.tsx";
import type { AppDeps } from "@/deps.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { t } from "@/lib/i18n/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { createPageRouter, getPageTitle, renderPage } from "@/routes/_app.tsx";
import { PlacesList, PlacesMapIsland } from "@/routes/_shared/places_map.tsx";
import { StampMarksIsland } from "@/routes/_shared/stamp_marks.tsx";

/**
 * `/turismo/mapa`: every attraction and route on a map, the passport's
 * stamps marked (in the browser), and beside it the same places as a list
 * of links, which is what a screen reader and a phone with no signal use.
 */
export default function mapPage(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const lang = getLang(c);
        const data = localizeData(deps.data.current().data, lang);
        const { municipality } = data;
        const title = t(lang, "map.pageTitle", {
          municipality: municipality.name,
        });
        const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
        const source = { lang, data, tiles: deps.config.mapTiles };
        return renderPage(c, deps, {
          head: {
            title: getPageTitle(lang, title, deps),
            description: t(lang, "map.pageDescription", {
              count: data.attractions.length,
              municipality: municipality.name,
            }),
            shareTitle: title,
            url: "/turismo/mapa",
          },
          body: (
            <>
              <section class="page-head">
                <div class="container">
                  <Breadcrumbs
                    lang={lang}
                    current={t(lang, "map.breadcrumb")}
                  />
                  <h1>{title}</h1>
                  <p class="lead">{t(lang, "map.pageLead")}</p>
                </div>
              </section>
              <div class="container map-layout">
                <section class="map-layout__map" aria-labelledby="mapa-title">
                  <h2 id="mapa-title" class="sr-only">
                    {t(lang, "map.title")}
                  </h2>
                  <PlacesMapIsland {...source} />
                </section>
                <section class="map-layout__list" aria-labelledby="lista-title">
                  <h2 id="lista-title">{t(lang, "map.listTitle")}</h2>
                  <StampMarksIsland lang={lang} />
                  <PlacesList lang={lang} data={data} stampSlots />
                </section>
              </div>
              <section
                class="section section--tinted"
                aria-labelledby="rutas-title"
              >
                <div class="container">
                  <h2 id="rutas-title">{t(lang, "map.routesTitle")}</h2>
                  <div class="stack">
                    {data.routes.map((route) => (
                      <RouteCard
                        route={route}
                        names={names}
                        lang={lang}
                        key={route.slug}
                      />
                    ))}
                  </div>
                </div>
              </section>
            </>
          ),
        });
      }),
  );
}
