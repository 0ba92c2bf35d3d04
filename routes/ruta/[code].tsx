import { Icon } from "@/components/Icon.tsx";
import { Stars } from "@/components/Stars.tsx";
import ShareButtons from "@/islands/ShareButtons.tsx";
import { getBadgeDefinitions, getBadgeName } from "@/lib/badges/mod.ts";
import { type LoadedData, localizeData } from "@/lib/data/mod.ts";
import { getTicketEntry, type Ticket } from "@/lib/db/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { formatDate } from "@/lib/format/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  t,
  tRich,
} from "@/lib/i18n/mod.ts";
import { getLang, getPublicOrigin } from "@/lib/http/mod.ts";
import { Island } from "@/components/Island.tsx";
import { pageTags, ROUTE_PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import {
  createPageRouter,
  getPageTitle,
  renderNotFoundPage,
  renderPage,
} from "@/routes/_app.tsx";
import {
  getEmptyRoute,
  getTouristRoute,
  type TouristRoute,
} from "@/lib/passport/mod.ts";
import { getShareCardPath } from "@/lib/og/mod.ts";
import { isShareCode } from "@/lib/tickets/mod.ts";
import type { MapTiles } from "@/lib/config/mod.ts";
import { MapSection } from "@/routes/_shared/places_map.tsx";

/** `/ruta/<code>`: a visitor's route, the page their ticket and shares link to. */
export default function touristRoute(deps: AppDeps) {
  return createPageRouter(deps).get("/:code", async (c) => {
    const code = c.req.param("code");
    // Served from memory without a KV read: writes of this user on this
    // instance drop it at once, a rename or an erasure on any instance
    // within a second (every route page carries `pageTags.routes()`, which
    // the `route_changes` watcher drops), anything else within its TTL.
    return await servePage(
      c,
      deps,
      { ttlMs: ROUTE_PAGE_TTL_MS },
      async (tag) => {
        // Tagged before the read, so a change while it runs is not kept.
        tag(pageTags.routes());
        tag(pageTags.shareCode(code));
        const entry = isShareCode(code)
          ? await getTicketEntry(deps.kv, code)
          : null;
        const ticket = entry?.ticket;
        if (!ticket) return renderNotFoundPage(c, deps);
        if (ticket.userId) tag(pageTags.user(ticket.userId));
        const loaded = deps.data.current();
        const route = ticket.userId
          ? await getTouristRoute(deps.kv, ticket.userId, loaded)
          : getEmptyRoute(loaded);
        const lang = getLang(c);
        const origin = getPublicOrigin(c, deps.config);
        const path = `/ruta/${encodeURIComponent(ticket.shareCode)}`;
        const url = `${origin}${path}`;
        const { branding, municipality } = localizeData(loaded.data, lang);
        const title = t(lang, "page_route.title", {
          name: ticket.name,
          municipality: municipality.name,
        });
        const description = t(lang, "page_route.description", {
          visits: route.visitCount,
          total: route.totalAttractions,
          percent: route.completionPercent,
          badges: route.badges.length,
          site: branding.name,
        });
        const image = `${origin}${
          getShareCardPath(ticket.shareCode, {
            visitCount: route.visitCount,
            badgeCount: route.badges.length,
            nameRevision: ticket.nameRevision,
            lang: ticket.lang,
          })
        }`;
        return renderPage(c, deps, {
          head: {
            title: getPageTitle(lang, title, deps),
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
              lang={lang}
              share={{
                url: `${origin}${localizePath(lang, path)}`,
                text: `${title}: ${description}`,
              }}
              tiles={deps.config.mapTiles}
            />
          ),
        });
      },
    );
  });
}

/**
 * The route as its readers see it: friends the link was shared with, more
 * often than its owner. The page is one cached answer for every reader and
 * does not know who reads it, so it speaks about the tourist by name
 * ("Calificación de Ana", "A Ana le faltan 15"), never to the reader.
 */
function RoutePage(
  { ticket, route, loaded, lang, share, tiles }: {
    ticket: Ticket;
    route: TouristRoute;
    loaded: LoadedData;
    lang: Lang;
    share: { url: string; text: string };
    /** The map's tile source (`deps.config.mapTiles`). */
    tiles: MapTiles;
  },
) {
  const data = localizeData(loaded.data, lang);
  const { timeZone } = data.municipality;
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const unlocked = new Map(route.badges.map((b) => [b.id, b]));
  const locked = getBadgeDefinitions(route.totalAttractions)
    .filter((b) => !unlocked.has(b.id));
  const visited = new Set(route.visits.map((v) => v.slug));
  const pending = data.attractions.filter((a) => !visited.has(a.slug));
  const badgeName = (badge: { id: string; name: string }) =>
    getBadgeName(lang, badge);
  const attractionPath = (slug: string) =>
    localizePath(lang, `/turismo/atractivos/${slug}`);
  return (
    <>
      <section class="route-hero" aria-labelledby="ruta-title">
        <div class="container route-hero__inner">
          <div>
            <p class="hero__eyebrow">
              <Icon name="ticket" /> {t(lang, "page_route.ticketSince", {
                date: formatDate(ticket.createdAt, timeZone, lang),
              })}
            </p>
            <h1 id="ruta-title" class="route-hero__title">
              {tRich(lang, "page_route.heading", {
                pre: (children) => (
                  <span class="route-hero__pre">{children}</span>
                ),
                name: ticket.name,
              })}
            </h1>
            <p class="route-hero__sub">
              {t(lang, "page_route.through", {
                municipality: data.municipality.name,
                state: data.municipality.state,
              })}
            </p>
          </div>
          <div class="progress-card">
            <p class="progress-card__value">
              {route.completionPercent}
              <span>%</span>
            </p>
            <label class="progress-card__label" for="avance">
              {t(lang, "page_route.progress", {
                visits: route.visitCount,
                total: route.totalAttractions,
              })}
            </label>
            <progress
              id="avance"
              class="progress"
              max={route.totalAttractions}
              value={route.visitCount}
            >
              {t(lang, "page_route.percent", {
                percent: route.completionPercent,
              })}
            </progress>
            <p class="progress-card__badges">
              {t(lang, "page_route.badgeCount", { count: route.badges.length })}
            </p>
          </div>
        </div>
      </section>

      <div class="container route-layout">
        <section class="route-layout__main" aria-labelledby="visitas-title">
          <h2 id="visitas-title">{t(lang, "page_route.visitedTitle")}</h2>
          {route.visits.length === 0
            ? (
              <div class="empty">
                <p>
                  <strong>{t(lang, "page_route.noVisits")}</strong>
                </p>
                <p>
                  {t(lang, "page_route.noVisitsText", { name: ticket.name })}
                </p>
                <a
                  class="button"
                  href={localizePath(lang, "/turismo/atractivos")}
                >
                  {t(lang, "page_route.firstAttraction")} <Icon name="arrow" />
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
                        <a href={attractionPath(visit.slug)}>
                          {names.get(visit.slug) ?? visit.name}
                        </a>
                      </h3>
                      <p class="visit__meta">
                        <Icon name="check" />{" "}
                        {tRich(lang, "page_route.visitedOn", {
                          date: (
                            <time datetime={visit.visitedAt}>
                              {formatDate(visit.visitedAt, timeZone, lang)}
                            </time>
                          ),
                        })}
                      </p>
                      <p class="visit__rating">
                        {visit.rating === null
                          ? (
                            <span class="visit__unrated">
                              {t(lang, "page_route.unrated")}
                            </span>
                          )
                          : (
                            <>
                              <Stars value={visit.rating} />
                              <span>
                                {t(lang, "page_route.ratingOf", {
                                  name: ticket.name,
                                  rating: visit.rating,
                                })}
                              </span>
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
            <h2 id="insignias-title" class="panel__title">
              {t(lang, "page_route.badgesTitle")}
            </h2>
            <ul class="badges">
              {route.badges.map((badge) => (
                <li class="badge badge--on" key={badge.id}>
                  <span class="badge__icon" aria-hidden="true">
                    {badge.icon}
                  </span>
                  <span>
                    <strong>{badgeName(badge)}</strong>
                    <span class="badge__note">
                      {t(lang, "page_route.unlockedOn", {
                        date: formatDate(badge.unlockedAt, timeZone, lang),
                      })}
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
                    <strong>{badgeName(badge)}</strong>
                    {badge.stamps !== null && (
                      <span class="badge__note">
                        {t(lang, "page_route.unlocksWith", {
                          count: badge.stamps,
                        })}
                      </span>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <section class="panel" aria-labelledby="compartir-title">
            <h2 id="compartir-title" class="panel__title">
              <Icon name="share" /> {t(lang, "page_route.shareTitle")}
            </h2>
            <Island
              name="ShareButtons"
              component={ShareButtons}
              props={{ ...getIslandMessages(lang, "share"), ...share }}
            />
          </section>
        </aside>
      </div>

      {pending.length > 0 && (
        <section class="section section--tinted" aria-labelledby="faltan-title">
          <div class="container">
            <h2 id="faltan-title">
              {t(lang, "page_route.pending", {
                count: pending.length,
                name: ticket.name,
              })}
            </h2>
            <ul class="pill-list">
              {pending.map((a) => (
                <li key={a.slug}>
                  <a href={attractionPath(a.slug)}>{a.name}</a>
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}
      <MapSection
        lang={lang}
        data={data}
        tiles={tiles}
        visits={{ person: ticket.name, slugs: [...visited] }}
      />
    </>
  );
}
