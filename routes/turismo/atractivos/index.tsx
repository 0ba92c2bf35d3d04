import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Breadcrumbs } from "@/components/PageNav.tsx";
import type { AppDeps } from "@/deps.ts";
import { ATTRACTION_CATEGORIES, localizeData } from "@/lib/data/mod.ts";
import { getCategoryLabel } from "@/lib/format/mod.ts";
import { localizePath, t } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { createPageRouter, getPageTitle, renderPage } from "@/routes/_app.tsx";
import { StampMarksIsland } from "@/routes/_shared/stamp_marks.tsx";
import { NearestFirstIsland } from "@/routes/_shared/nearest_first.tsx";

/** `/turismo/atractivos`: every attraction, filterable by category (`?categoria=`). */
export default function attractions(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const requested = c.req.query("categoria");
    const category = ATTRACTION_CATEGORIES.find((known) => known === requested);
    // Keyed by the one query it reads: other queries cannot fill the cache.
    const key = `${c.req.path}?categoria=${category ?? ""}`;
    return servePage(c, deps, { key, ttlMs: PAGE_TTL_MS }, () => {
      const lang = getLang(c);
      const data = localizeData(deps.data.current().data, lang);
      const list = localizePath(lang, "/turismo/atractivos");
      const categories = ATTRACTION_CATEGORIES.filter((key) =>
        data.attractions.some((a) => a.category === key)
      );
      const shown = category
        ? data.attractions.filter((a) => a.category === category)
        : data.attractions;
      const { municipality } = data;
      const title = category
        ? t(lang, "page_attractions.titleCategory", {
          category: getCategoryLabel(category, lang),
          municipality: municipality.name,
        })
        : t(lang, "page_attractions.title", {
          municipality: municipality.name,
        });
      return renderPage(c, deps, {
        head: {
          title: getPageTitle(lang, title, deps),
          description: t(lang, "page_attractions.description", {
            count: data.attractions.length,
            municipality: municipality.name,
            state: municipality.state,
          }),
          shareTitle: title,
          // One canonical list: the category filter is a view of it.
          url: "/turismo/atractivos",
          query: { categoria: category },
        },
        body: (
          <>
            <section class="page-head">
              <div class="container">
                <Breadcrumbs
                  lang={lang}
                  current={t(lang, "page_attractions.breadcrumb")}
                />
                <h1>{title}</h1>
                <p class="lead">{t(lang, "page_attractions.lead")}</p>
              </div>
            </section>
            <section
              class="section"
              aria-label={t(lang, "page_attractions.listLabel")}
            >
              <div class="container">
                <nav
                  aria-label={t(lang, "page_attractions.filterLabel")}
                  class="filters"
                >
                  <ul>
                    <li>
                      <a
                        href={list}
                        aria-current={category ? undefined : "page"}
                      >
                        {t(lang, "page_attractions.all", {
                          count: data.attractions.length,
                        })}
                      </a>
                    </li>
                    {categories.map((key) => (
                      <li key={key}>
                        <a
                          href={`${list}?categoria=${key}`}
                          aria-current={key === category ? "page" : undefined}
                        >
                          {t(lang, "page_attractions.filter", {
                            category: getCategoryLabel(key, lang),
                            count: data.attractions
                              .filter((a) => a.category === key).length,
                          })}
                        </a>
                      </li>
                    ))}
                  </ul>
                </nav>
                <p class="sr-only" role="status">
                  {t(lang, "page_attractions.shown", { count: shown.length })}
                </p>
                <StampMarksIsland lang={lang} />
                <NearestFirstIsland lang={lang} places={shown} />
                <div class="grid">
                  {shown.map((attraction) => (
                    <AttractionCard
                      attraction={attraction}
                      lang={lang}
                      headingLevel={2}
                      key={attraction.slug}
                      stampSlot
                      distanceSlot
                    />
                  ))}
                </div>
              </div>
            </section>
          </>
        ),
      });
    });
  });
}
