import { AttractionCard } from "@/components/AttractionCard.tsx";
import type { Attraction } from "@/lib/data/tourism_data.ts";
import type { AppDeps } from "@/deps.ts";
import { CATEGORY_LABELS } from "@/lib/format/format.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/** `/turismo/atractivos`: every attraction, filterable by category (`?categoria=`). */
export default function attractions(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const requested = c.req.query("categoria");
    const category = requested && Object.hasOwn(CATEGORY_LABELS, requested)
      ? requested as Attraction["category"]
      : undefined;
    // Keyed by the one query it reads: other queries cannot fill the cache.
    const key = `${c.req.path}?categoria=${category ?? ""}`;
    return servePage(c, deps, { key, ttlMs: PAGE_TTL_MS }, () => {
      const { data } = deps.data.current();
      const categories =
        (Object.keys(CATEGORY_LABELS) as Attraction["category"][])
          .filter((key) => data.attractions.some((a) => a.category === key));
      const shown = category
        ? data.attractions.filter((a) => a.category === category)
        : data.attractions;
      const title = category
        ? `${
          CATEGORY_LABELS[category]
        }: atractivos de ${data.municipality.name}`
        : `Atractivos turísticos de ${data.municipality.name}`;
      return renderPage(c, deps, {
        head: {
          title: `${title} · ${data.branding.name}`,
          description:
            `${data.attractions.length} lugares para visitar en ${data.municipality.name}, ${data.municipality.state}: museos, naturaleza, historia y gastronomía.`,
          shareTitle: title,
          // One canonical list: the category filter is a view of it.
          url: "/turismo/atractivos",
        },
        body: (
          <>
            <section class="page-head">
              <div class="container">
                <nav aria-label="Ruta de navegación" class="breadcrumbs">
                  <ol>
                    <li>
                      <a href="/">Inicio</a>
                    </li>
                    <li aria-current="page">Atractivos</li>
                  </ol>
                </nav>
                <h1>{title}</h1>
                <p class="lead">
                  Elige un lugar para ver su horario, costo, cómo llegar y qué
                  hay cerca. En cada uno encontrarás un código guía para
                  registrar tu visita.
                </p>
              </div>
            </section>
            <section class="section" aria-label="Lista de atractivos">
              <div class="container">
                <nav aria-label="Filtrar por categoría" class="filters">
                  <ul>
                    <li>
                      <a
                        href="/turismo/atractivos"
                        aria-current={category ? undefined : "page"}
                      >
                        Todos ({data.attractions.length})
                      </a>
                    </li>
                    {categories.map((key) => (
                      <li key={key}>
                        <a
                          href={`/turismo/atractivos?categoria=${key}`}
                          aria-current={key === category ? "page" : undefined}
                        >
                          {CATEGORY_LABELS[key]} (
                          {data.attractions.filter((a) => a.category === key)
                            .length})
                        </a>
                      </li>
                    ))}
                  </ul>
                </nav>
                <p class="sr-only" role="status">
                  {shown.length} atractivos
                </p>
                <div class="grid">
                  {shown.map((attraction) => (
                    <AttractionCard
                      attraction={attraction}
                      headingLevel={2}
                      key={attraction.slug}
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
