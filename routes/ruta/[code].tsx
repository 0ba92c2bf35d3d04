import { Icon } from "@/components/Icon.tsx";
import { Stars } from "@/components/Stars.tsx";
import ShareButtons from "@/islands/ShareButtons.tsx";
import { getBadgeDefinitions } from "@/lib/passport/badges.ts";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { getTicket, type Ticket } from "@/lib/db/tickets.ts";
import type { AppDeps } from "@/deps.ts";
import { formatDate, plural } from "@/lib/format/format.ts";
import { Island } from "@/components/Island.tsx";
import {
  pageTags,
  ROUTE_PAGE_TTL_MS,
  servePage,
} from "@/lib/pages/page_cache.ts";
import {
  createPageRouter,
  renderNotFoundPage,
  renderPage,
} from "@/routes/_app.tsx";
import {
  getEmptyRoute,
  getTouristRoute,
  type TouristRoute,
} from "@/lib/passport/tourist_route.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import { getShareCardPath } from "@/lib/og/card_url.ts";
import { isShareCode } from "@/lib/tickets/share_code.ts";

/** `/ruta/<code>`: a visitor's route, the page their ticket and shares link to. */
export default function touristRoute(deps: AppDeps) {
  return createPageRouter(deps).get("/:code", (c) =>
    // Cached briefly; writes of this user on this instance drop it at once.
    servePage(c, deps, { ttlMs: ROUTE_PAGE_TTL_MS }, async (tag) => {
      const code = c.req.param("code");
      tag(pageTags.shareCode(code));
      const ticket = isShareCode(code) ? await getTicket(deps.kv, code) : null;
      if (!ticket) return renderNotFoundPage(c, deps);
      if (ticket.userId) tag(pageTags.user(ticket.userId));
      const loaded = deps.data.current();
      const route = ticket.userId
        ? await getTouristRoute(deps.kv, ticket.userId, loaded)
        : getEmptyRoute(loaded);
      const origin = getPublicOrigin(c, deps.config);
      const url = `${origin}/ruta/${encodeURIComponent(ticket.shareCode)}`;
      const { branding, municipality } = loaded.data;
      const title = `La ruta de ${ticket.name} por ${municipality.name}`;
      const description =
        `${route.visitCount} de ${route.totalAttractions} atractivos visitados (${route.completionPercent} %) y ${
          plural(route.badges.length, "insignia", "insignias")
        } en ${branding.name}.`;
      const image = `${origin}${
        getShareCardPath(ticket.shareCode, {
          visitCount: route.visitCount,
          badgeCount: route.badges.length,
          nameRevision: ticket.nameRevision,
        })
      }`;
      return renderPage(c, deps, {
        head: {
          title: `${title} · ${branding.name}`,
          shareTitle: title,
          description,
          url,
          image: { url: image, alt: `${title}: ${description}` },
          // A visitor's page: reachable by its link, kept out of search engines.
          robots: "noindex",
        },
        body: (
          <RoutePage
            ticket={ticket}
            route={route}
            loaded={loaded}
            share={{ url, text: `${title}: ${description}` }}
          />
        ),
      });
    }));
}

function RoutePage(
  { ticket, route, loaded, share }: {
    ticket: Ticket;
    route: TouristRoute;
    loaded: LoadedData;
    share: { url: string; text: string };
  },
) {
  const { timeZone } = loaded.data.municipality;
  const unlocked = new Map(route.badges.map((b) => [b.id, b]));
  const locked = getBadgeDefinitions(route.totalAttractions)
    .filter((b) => !unlocked.has(b.id));
  const visited = new Set(route.visits.map((v) => v.slug));
  const pending = loaded.data.attractions.filter((a) => !visited.has(a.slug));
  return (
    <>
      <section class="route-hero" aria-labelledby="ruta-title">
        <div class="container route-hero__inner">
          <div>
            <p class="hero__eyebrow">
              <Icon name="ticket" /> Boleto turístico · desde el{" "}
              {formatDate(ticket.createdAt, timeZone)}
            </p>
            <h1 id="ruta-title" class="route-hero__title">
              <span class="route-hero__pre">La ruta de</span> {ticket.name}
            </h1>
            <p class="route-hero__sub">
              por {loaded.data.municipality.name},{" "}
              {loaded.data.municipality.state}
            </p>
          </div>
          <div class="progress-card">
            <p class="progress-card__value">
              {route.completionPercent}
              <span>%</span>
            </p>
            <label class="progress-card__label" for="avance">
              {route.visitCount} de {route.totalAttractions}{" "}
              atractivos visitados
            </label>
            <progress
              id="avance"
              class="progress"
              max={route.totalAttractions}
              value={route.visitCount}
            >
              {route.completionPercent} %
            </progress>
            <p class="progress-card__badges">
              {plural(route.badges.length, "insignia", "insignias")}
            </p>
          </div>
        </div>
      </section>

      <div class="container route-layout">
        <section class="route-layout__main" aria-labelledby="visitas-title">
          <h2 id="visitas-title">Lugares visitados</h2>
          {route.visits.length === 0
            ? (
              <div class="empty">
                <p>
                  <strong>Todavía no hay visitas verificadas.</strong>
                </p>
                <p>
                  En cada atractivo hay un código guía: regístralo al llegar y
                  tu visita aparecerá aquí, con la fecha y tu calificación.
                </p>
                <a class="button" href="/turismo/atractivos">
                  Elegir mi primer atractivo <Icon name="arrow" />
                </a>
              </div>
            )
            : (
              <ol class="visits">
                {route.visits.map((visit, i) => (
                  <li class="visit" key={visit.visitId}>
                    <span class="visit__number" aria-hidden="true">
                      {i + 1}
                    </span>
                    <div class="visit__body">
                      <h3 class="visit__title">
                        <a href={`/turismo/atractivos/${visit.slug}`}>
                          {visit.name}
                        </a>
                      </h3>
                      <p class="visit__meta">
                        <Icon name="check" /> Visitado el{" "}
                        <time datetime={visit.visitedAt}>
                          {formatDate(visit.visitedAt, timeZone)}
                        </time>
                      </p>
                      <p class="visit__rating">
                        {visit.rating === null
                          ? <span class="visit__unrated">Sin calificar</span>
                          : (
                            <>
                              <Stars value={visit.rating} />
                              <span>Tu calificación: {visit.rating} de 5</span>
                            </>
                          )}
                      </p>
                      {visit.notes && (
                        <blockquote class="visit__notes">
                          {visit.notes}
                        </blockquote>
                      )}
                    </div>
                  </li>
                ))}
              </ol>
            )}
        </section>

        <aside class="route-layout__aside">
          <section class="panel" aria-labelledby="insignias-title">
            <h2 id="insignias-title" class="panel__title">Insignias</h2>
            <ul class="badges">
              {route.badges.map((badge) => (
                <li class="badge badge--on" key={badge.id}>
                  <span class="badge__icon" aria-hidden="true">
                    {badge.icon}
                  </span>
                  <span>
                    <strong>{badge.name}</strong>
                    <span class="badge__note">
                      Desbloqueada el {formatDate(badge.unlockedAt, timeZone)}
                    </span>
                  </span>
                </li>
              ))}
              {locked.map((badge) => (
                <li class="badge badge--off" key={badge.id}>
                  <span class="badge__icon" aria-hidden="true">
                    <Icon name="lock" />
                  </span>
                  <span>
                    <strong>{badge.name}</strong>
                    <span class="badge__note">
                      Se desbloquea con {plural(
                        badge.threshold,
                        "visita verificada",
                        "visitas verificadas",
                      )}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <section class="panel" aria-labelledby="compartir-title">
            <h2 id="compartir-title" class="panel__title">
              <Icon name="share" /> Comparte tu ruta
            </h2>
            <Island
              name="ShareButtons"
              component={ShareButtons}
              props={share}
            />
          </section>
        </aside>
      </div>

      {pending.length > 0 && (
        <section class="section section--tinted" aria-labelledby="faltan-title">
          <div class="container">
            <h2 id="faltan-title">
              Te {pending.length === 1 ? "falta" : "faltan"}{" "}
              {plural(pending.length, "atractivo", "atractivos")} por descubrir
            </h2>
            <ul class="pill-list">
              {pending.map((a) => (
                <li key={a.slug}>
                  <a href={`/turismo/atractivos/${a.slug}`}>{a.name}</a>
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}
    </>
  );
}
