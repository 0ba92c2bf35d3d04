import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Breadcrumbs } from "@/components/PageNav.tsx";
import { Icon } from "@/components/Icon.tsx";
import type { AppDeps } from "@/deps.ts";
import { ATTRACTION_CATEGORIES, localizeData } from "@/lib/data/mod.ts";
import { getCategoryLabel } from "@/lib/format/mod.ts";
import { localizePath, t } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { createPageRouter, getPageTitle, renderPage } from "@/routes/_app.tsx";
import { StampMarksIsland } from "@/routes/_shared/stamp_marks.tsx";
import { NearestFirstIsland } from "@/routes/_shared/nearest_first.tsx";
import { describePlaceHours } from "@/lib/hours/mod.ts";

/** The list's address with these filters (`?categoria=`, `?abierto=1`, `?accesible=1`). */
function listHref(
  list: string,
  filters: { categoria?: string; abierto?: boolean; accesible?: boolean },
): string {
  const params = new URLSearchParams();
  if (filters.categoria) params.set("categoria", filters.categoria);
  if (filters.abierto) params.set("abierto", "1");
  if (filters.accesible) params.set("accesible", "1");
  const query = params.toString();
  return query ? `${list}?${query}` : list;
}

/**
 * `/turismo/atractivos`: every attraction with whether it is open now,
 * filterable by category (`?categoria=`), by open now (`?abierto=1`) and
 * by wheelchair access (`?accesible=1`).
 */
export default function attractions(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const requested = c.req.query("categoria");
    const category = ATTRACTION_CATEGORIES.find((known) => known === requested);
    const openNow = c.req.query("abierto") === "1";
    const accessible = c.req.query("accesible") === "1";
    // Keyed by the queries it reads: other queries cannot fill the cache.
    const key = `${c.req.path}?categoria=${category ?? ""}&abierto=${
      openNow ? 1 : 0
    }&accesible=${accessible ? 1 : 0}`;
    return servePage(c, deps, { key, ttlMs: PAGE_TTL_MS }, (_tag, expireAt) => {
      const lang = getLang(c);
      const data = localizeData(deps.data.current().data, lang);
      const list = localizePath(lang, "/turismo/atractivos");
      // Each attraction's state, once per render; the kept page expires at
      // the first opening or closing of any of them (or at midnight), so
      // "Abierto ahora" and its filter never outlive the minute they change.
      const now = deps.now().getTime();
      const hours = new Map(
        data.attractions.flatMap((a) =>
          a.openingHours === undefined ? [] : [
            [
              a.slug,
              describePlaceHours(a.openingHours, {
                now,
                municipality: data.municipality,
                lang,
              }),
            ] as const,
          ]
        ),
      );
      for (const { validUntilMs } of hours.values()) expireAt(validUntilMs);
      const filters = {
        categoria: category,
        abierto: openNow,
        accesible: accessible,
      };
      const categories = ATTRACTION_CATEGORIES.filter((key) =>
        data.attractions.some((a) => a.category === key)
      );
      const shown = data.attractions.filter((a) =>
        (!category || a.category === category) &&
        (!openNow || hours.get(a.slug)?.status.open === true) &&
        (!accessible || a.wheelchair === "yes")
      );
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
          query: {
            categoria: category,
            abierto: openNow ? "1" : undefined,
            accesible: accessible ? "1" : undefined,
          },
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
                        href={listHref(list, {
                          ...filters,
                          categoria: undefined,
                        })}
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
                          href={listHref(list, { ...filters, categoria: key })}
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
                <nav
                  aria-label={t(lang, "hours.filterLabel")}
                  class="filters filters--more"
                >
                  <ul>
                    <li>
                      <a
                        href={listHref(list, { ...filters, abierto: !openNow })}
                        aria-current={openNow ? "page" : undefined}
                        data-filter="abierto"
                      >
                        {t(lang, "hours.filterOpen")}
                      </a>
                    </li>
                    <li>
                      <a
                        href={listHref(list, {
                          ...filters,
                          accesible: !accessible,
                        })}
                        aria-current={accessible ? "page" : undefined}
                        data-filter="accesible"
                      >
                        <Icon name="access" />{" "}
                        {t(lang, "hours.filterWheelchair")}
                      </a>
                    </li>
                  </ul>
                </nav>
                <p class="sr-only" role="status">
                  {t(lang, "page_attractions.shown", { count: shown.length })}
                </p>
                <StampMarksIsland lang={lang} />
                <NearestFirstIsland lang={lang} places={shown} />
                {shown.length === 0 && (
                  <p class="filters-empty">
                    {t(lang, "hours.filterNone")}{" "}
                    <a href={listHref(list, { categoria: category })}>
                      {t(lang, "hours.filterClear")}
                    </a>
                  </p>
                )}
                <div class="grid">
                  {shown.map((attraction) => (
                    <AttractionCard
                      attraction={attraction}
                      lang={lang}
                      headingLevel={2}
                      key={attraction.slug}
                      hours={hours.get(attraction.slug)}
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
