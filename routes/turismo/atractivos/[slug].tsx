import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Icon } from "@/components/Icon.tsx";
import { RouteCard } from "@/components/RouteCard.tsx";
import { Stars } from "@/components/Stars.tsx";
import type { Attraction, TourismData } from "@/lib/data/tourism_data.ts";
import type { AppDeps } from "@/deps.ts";
import {
  CATEGORY_LABELS,
  formatDateRange,
  formatDistance,
  formatMinutes,
  formatMoney,
  formatRating,
  plural,
} from "@/lib/format/format.ts";
import { PAGE_TTL_MS, pageTags, servePage } from "@/lib/pages/page_cache.ts";
import {
  createPageRouter,
  renderNotFoundPage,
  renderPage,
} from "@/routes/_app.tsx";
import { getAttractionStats } from "@/lib/passport/tourist_route.ts";
import { getPageCardPath } from "@/lib/og/card_url.ts";
import { describePageCard, getPageCard } from "@/lib/og/page_cards.ts";
import { findNearbyAttractions, getMapsUrl } from "@/lib/geo/geo.ts";
import { Island } from "@/components/Island.tsx";
import CheckIn from "@/islands/CheckIn.tsx";
import {
  getUpcomingEvents,
  type UpcomingEvent,
} from "@/lib/events/upcoming.ts";

type Stats = Awaited<ReturnType<typeof getAttractionStats>>;

/** `/turismo/atractivos/<slug>`: one attraction, its ratings and what is near. */
export default function attraction(deps: AppDeps) {
  return createPageRouter(deps).get("/:slug", (c) =>
    // Its visit count, average and events may lag by PAGE_TTL_MS.
    servePage(c, deps, { ttlMs: PAGE_TTL_MS }, async (tag) => {
      const loaded = deps.data.current();
      const { data, attractionsBySlug } = loaded;
      const found = attractionsBySlug.get(c.req.param("slug"));
      if (!found) return renderNotFoundPage(c, deps);
      tag(pageTags.attraction(found.slug));
      const card = { kind: "attraction", slug: found.slug } as const;
      const stats = await getAttractionStats(deps.kv, found.slug);
      return renderPage(c, deps, {
        head: {
          title: `${found.name} · ${data.branding.name}`,
          shareTitle: found.name,
          description: found.summary,
          url: `/turismo/atractivos/${found.slug}`,
          image: {
            url: getPageCardPath(card, loaded.version),
            alt: describePageCard(getPageCard(loaded, card)!),
          },
        },
        body: (
          <AttractionPage
            attraction={found}
            data={data}
            stats={stats}
            events={getUpcomingEvents(data.events, {
              now: deps.now(),
              timeZone: data.municipality.timeZone,
              attraction: found.slug,
            })}
          />
        ),
      });
    }));
}

function AttractionPage(
  { attraction, data, stats, events }: {
    attraction: Attraction;
    data: TourismData;
    stats: Stats;
    /** This attraction's events that are not over. */
    events: UpcomingEvent[];
  },
) {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const nearby = findNearbyAttractions(attraction, data.attractions, 3);
  const routes = data.routes.filter((r) =>
    r.attractions.includes(attraction.slug)
  );
  const { cost } = attraction;
  return (
    <>
      <section class={`page-head page-head--${attraction.category}`}>
        <div class="container">
          <nav aria-label="Ruta de navegación" class="breadcrumbs">
            <ol>
              <li>
                <a href="/">Inicio</a>
              </li>
              <li>
                <a href="/turismo/atractivos">Atractivos</a>
              </li>
              <li aria-current="page">{attraction.name}</li>
            </ol>
          </nav>
          <p class="chip chip--light">
            <Icon name={attraction.category} />{" "}
            {CATEGORY_LABELS[attraction.category]}
          </p>
          <h1>{attraction.name}</h1>
          <p class="lead">{attraction.summary}</p>
          <p class="rating-line">
            {stats.averageRating === null
              ? (
                <span>
                  Aún sin calificaciones: ¡sé el primero en calificarlo!
                </span>
              )
              : (
                <>
                  <Stars value={stats.averageRating} />
                  <strong>{formatRating(stats.averageRating)}</strong> de 5 ·
                  {" "}
                  {plural(stats.ratingCount, "calificación", "calificaciones")}
                </>
              )}
            {stats.visitCount > 0 && (
              <span class="rating-line__visits">
                <Icon name="users" />
                {plural(
                  stats.visitCount,
                  "visita verificada",
                  "visitas verificadas",
                )}
              </span>
            )}
          </p>
        </div>
      </section>

      <div class="container detail">
        <aside class="detail__aside" aria-labelledby="datos-title">
          <section
            class="panel panel--check-in"
            aria-labelledby="registro-title"
          >
            <h2 id="registro-title" class="panel__title">
              <Icon name="check" /> Registrar mi visita
            </h2>
            <p>
              ¿Estás aquí? Escribe el código del cartel y suma un sello a tu
              pasaporte. No necesitas cuenta.
            </p>
            <Island
              name="CheckIn"
              component={CheckIn}
              props={{
                slug: attraction.slug,
                name: attraction.name,
                attractionNames: Object.fromEntries(names),
              }}
            />
          </section>
          <div class="panel">
            <h2 id="datos-title" class="panel__title">Información práctica</h2>
            <dl class="facts">
              <div>
                <dt>
                  <Icon name="cash" /> Costo
                </dt>
                <dd>
                  Adultos: {formatMoney(cost.adult)}
                  {cost.child && (
                    <>
                      <br />Niños: {formatMoney(cost.child)}
                    </>
                  )}
                  {cost.notes && <span class="facts__note">{cost.notes}</span>}
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="calendar" /> Horario
                </dt>
                <dd>{attraction.schedule}</dd>
              </div>
              <div>
                <dt>
                  <Icon name="clock" /> Duración sugerida
                </dt>
                <dd>{formatMinutes(attraction.durationMinutes)}</dd>
              </div>
              <div>
                <dt>
                  <Icon name="pin" /> Dirección
                </dt>
                <dd>{attraction.address}</dd>
              </div>
              {attraction.accessibility && (
                <div>
                  <dt>
                    <Icon name="access" /> Accesibilidad
                  </dt>
                  <dd>{attraction.accessibility}</dd>
                </div>
              )}
            </dl>
            <a
              class="button button--block"
              href={getMapsUrl(attraction.location)}
              target="_blank"
              rel="noopener noreferrer"
            >
              <Icon name="pin" /> Ver en Google Maps
              <span class="sr-only">(se abre en una ventana nueva)</span>
            </a>
          </div>
        </aside>
        <div class="detail__main">
          <section aria-labelledby="acerca-title">
            <h2 id="acerca-title">Acerca de este lugar</h2>
            <p>{attraction.description}</p>
          </section>
          {attraction.tips && attraction.tips.length > 0 && (
            <section class="tips" aria-labelledby="consejos-title">
              <h2 id="consejos-title">
                <Icon name="bulb" /> Consejos para tu visita
              </h2>
              <ul>
                {attraction.tips.map((tip) => <li key={tip}>{tip}</li>)}
              </ul>
            </section>
          )}
          {events.length > 0 && (
            <section aria-labelledby="eventos-title">
              <h2 id="eventos-title">Próximos eventos en este lugar</h2>
              <ul class="plain-list">
                {events.map(({ event: e, ongoing }) => (
                  <li key={e.slug}>
                    <strong>{e.name}</strong> ({ongoing ? "en curso, " : ""}
                    {formatDateRange(e.startDate, e.endDate)}): {e.description}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {routes.length > 0 && (
            <section aria-labelledby="rutas-title">
              <h2 id="rutas-title">Rutas que lo incluyen</h2>
              <div class="stack">
                {routes.map((route) => (
                  <RouteCard
                    route={route}
                    names={names}
                    highlight={attraction.slug}
                    key={route.slug}
                  />
                ))}
              </div>
            </section>
          )}
        </div>
      </div>

      <section class="section section--tinted" aria-labelledby="cerca-title">
        <div class="container">
          <h2 id="cerca-title">Cerca de aquí</h2>
          <div class="grid">
            {nearby.map(({ attraction: other, distanceKm }) => (
              <AttractionCard
                attraction={other}
                extra={`A ${formatDistance(distanceKm)} en línea recta`}
                key={other.slug}
              />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
