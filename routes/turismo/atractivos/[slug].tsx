import type { ComponentChildren } from "preact";
import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Icon } from "@/components/Icon.tsx";
import { Breadcrumbs } from "@/components/PageNav.tsx";
import { RouteCard } from "@/components/RouteCard.tsx";
import { Stars } from "@/components/Stars.tsx";
import { DataText, Fallback } from "@/components/DataText.tsx";
import {
  type Attraction,
  getFallbackLang,
  localizeData,
  type TourismData,
} from "@/lib/data/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { PhotoGallery } from "@/components/PhotoGallery.tsx";
import type { PhotoSources } from "@/lib/photos/mod.ts";
import type { MapTiles } from "@/lib/config/mod.ts";
import {
  describeCost,
  formatDistance,
  formatMinutes,
  formatMonth,
  formatRating,
  getCategoryLabel,
} from "@/lib/format/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  t,
  tRich,
} from "@/lib/i18n/mod.ts";
import { getLang, getPublicOrigin } from "@/lib/http/mod.ts";
import {
  CHECK_IN_METHOD_TABLE,
  type CheckInMethod,
  getCheckInRule,
} from "@/lib/check_in/mod.ts";
import {
  describeAttraction,
  loadPagePhotos,
  PAGE_TTL_MS,
  pageTags,
  servePage,
} from "@/lib/pages/mod.ts";
import { JsonLd } from "@/components/JsonLd.tsx";
import {
  createPageRouter,
  getPageTitle,
  renderNotFoundPage,
  renderPage,
} from "@/routes/_app.tsx";
import {
  type AttractionFigures,
  getAttractionFigures,
  MIN_PEOPLE,
} from "@/lib/open_data/mod.ts";
import {
  describePageCard,
  getPageCard,
  getPageCardPath,
} from "@/lib/og/mod.ts";
import { findNearbyAttractions, getMapsUrl } from "@/lib/geo/mod.ts";
import { Island } from "@/components/Island.tsx";
import CheckIn from "@/islands/CheckIn.tsx";
import {
  describeWhen,
  getUpcomingEvents,
  type UpcomingEvent,
} from "@/lib/events/mod.ts";
import { MapSection } from "@/routes/_shared/places_map.tsx";
import {
  AccessFacts,
  DaysHoursTable,
  HoursNow,
} from "@/components/OpeningHours.tsx";
import {
  describePlaceHours,
  type PlaceHours,
  toOpeningHoursSpecification,
} from "@/lib/hours/mod.ts";

/** `/turismo/atractivos/<slug>`: one attraction, its ratings and what is near. */
export default function attraction(deps: AppDeps) {
  return createPageRouter(deps).get("/:slug", (c) =>
    // Its figures (a closed month's) and events may lag by PAGE_TTL_MS (an event ending at
    // 13:00 leaves it by 13:00:10 at the latest). Its
    // hours ("Abierto ahora · cierra a las 18:00", the days from today)
    // may not: the kept page expires at their next change or at the
    // municipality's midnight, whichever comes first (`expireAt`), and a
    // replayed answer lasts no longer than the page it replays.
    servePage(c, deps, { ttlMs: PAGE_TTL_MS }, async (tag, expireAt) => {
      const lang = getLang(c);
      const loaded = deps.data.current();
      const slug = c.req.param("slug");
      if (!loaded.attractionsBySlug.has(slug)) {
        return renderNotFoundPage(c, deps);
      }
      const data = localizeData(loaded.data, lang);
      const found = data.attractions.find((a) => a.slug === slug)!;
      tag(pageTags.attraction(found.slug));
      const hours = found.openingHours === undefined
        ? undefined
        : describePlaceHours(found.openingHours, {
          now: deps.now().getTime(),
          municipality: data.municipality,
          lang,
          days: 7,
        });
      if (hours) expireAt(hours.validUntilMs);
      const card = { kind: "attraction", slug: found.slug } as const;
      const [figures, checkInRule, photos] = await Promise.all([
        getAttractionFigures(deps.kv, {
          slug: found.slug,
          now: deps.now(),
          data: loaded.data,
        }),
        getCheckInRule(deps.kv, found.slug, found.checkIn),
        loadPagePhotos(deps.photos, [found.photos], { lang, tag }),
      ]);
      return renderPage(c, deps, {
        head: {
          title: getPageTitle(lang, found.name, deps),
          shareTitle: found.name,
          description: found.summary,
          url: `/turismo/atractivos/${found.slug}`,
          image: {
            url: localizePath(lang, getPageCardPath(card, loaded.version)),
            alt: describePageCard(getPageCard(loaded, { ...card, lang })!),
          },
        },
        body: (
          <>
            <JsonLd
              data={describeAttraction(found, {
                url: `${getPublicOrigin(c, deps.config)}${
                  localizePath(lang, `/turismo/atractivos/${found.slug}`)
                }`,
                openingHours: hours && toOpeningHoursSpecification(hours.days),
              })}
            />
            <AttractionPage
              attraction={found}
              data={data}
              lang={lang}
              figures={figures}
              hours={hours}
              checkInMethod={checkInRule.method}
              now={deps.now()}
              events={getUpcomingEvents(data.events, {
                now: deps.now(),
                timeZone: data.municipality.timeZone,
                attraction: found.slug,
              })}
              tiles={deps.config.mapTiles}
              photos={photos.of(found.photos)}
            />
          </>
        ),
      });
    }));
}

function AttractionPage(
  {
    attraction,
    data,
    lang,
    figures,
    hours,
    checkInMethod,
    events,
    now,
    tiles,
    photos,
  }: {
    attraction: Attraction;
    /** The data set in `lang` (`localizeData`). */
    data: TourismData;
    lang: Lang;
    /** The last closed month's ratings and visits, as the disclosure rule lets them out. */
    figures: AttractionFigures;
    /** Its hours now and in the days from today; none when the data set has none. */
    hours?: PlaceHours;
    /** How a visit is checked in here (the admin's rule, else the data set's). */
    checkInMethod: CheckInMethod;
    /** This attraction's events that are not over. */
    events: UpcomingEvent[];
    /** The instant `events` were listed at. */
    now: Date;
    /** The map's tile source (`deps.config.mapTiles`). */
    tiles: MapTiles;
    /** The attraction's photos the library holds, in the data set's order. */
    photos: PhotoSources[];
  },
) {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const nearby = findNearbyAttractions(attraction, data.attractions, 3);
  const routes = data.routes.filter((r) =>
    r.attractions.includes(attraction.slug)
  );
  const { cost } = attraction;
  const bold = (children: ComponentChildren[]) => <strong>{children}</strong>;
  const tipsLang = getFallbackLang(attraction, "tips");
  return (
    <>
      <section class={`page-head page-head--${attraction.category}`}>
        <div class="container">
          <Breadcrumbs
            lang={lang}
            trail={[{
              href: "/turismo/atractivos",
              label: t(lang, "page_attractions.breadcrumb"),
            }]}
            current={attraction.name}
          />
          <p class="chip chip--light">
            <Icon name={attraction.category} />{" "}
            {getCategoryLabel(attraction.category, lang)}
          </p>
          <h1>{attraction.name}</h1>
          <p class="lead">
            <DataText of={attraction} field="summary" lang={lang} />
          </p>
          {hours && <HoursNow line={hours.line} until={hours.validUntilMs} />}
          <RatingLine figures={figures} lang={lang} />
        </div>
      </section>

      {photos.length > 0 && (
        <div class="container">
          <PhotoGallery photos={photos} lang={lang} eagerFirst />
        </div>
      )}
      <div class="container detail">
        <aside class="detail__aside" aria-labelledby="datos-title">
          <section
            class="panel panel--check-in"
            aria-labelledby="registro-title"
          >
            <h2 id="registro-title" class="panel__title">
              <Icon name="check" /> {t(lang, "page_attraction.checkInTitle")}
            </h2>
            <p>{t(lang, CHECK_IN_METHOD_TABLE[checkInMethod].intro)}</p>
            <Island
              name="CheckIn"
              component={CheckIn}
              props={{
                ...getIslandMessages(lang, "checkin", {
                  shared: ["session", "rating", "badges"],
                }),
                slug: attraction.slug,
                name: attraction.name,
                method: checkInMethod,
                attractions: Object.fromEntries(
                  data.attractions.map((a) => [a.slug, {
                    name: a.name,
                    href: localizePath(lang, `/turismo/atractivos/${a.slug}`),
                  }]),
                ),
              }}
            />
          </section>
          <div class="panel">
            <h2 id="datos-title" class="panel__title">
              {t(lang, "page_attraction.factsTitle")}
            </h2>
            <dl class="facts">
              <div>
                <dt>
                  <Icon name="cash" /> {t(lang, "page_attraction.cost")}
                </dt>
                <dd>
                  <CostText cost={cost} lang={lang} />
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="calendar" /> {t(lang, "page_attraction.schedule")}
                </dt>
                <dd>
                  {hours && <DaysHoursTable days={hours.days} lang={lang} />}
                  {attraction.schedule && (
                    <span class="facts__note">
                      <DataText of={attraction} field="schedule" lang={lang} />
                    </span>
                  )}
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="clock" /> {t(lang, "page_attraction.duration")}
                </dt>
                <dd>{formatMinutes(attraction.durationMinutes, lang)}</dd>
              </div>
              <div>
                <dt>
                  <Icon name="pin" /> {t(lang, "page_attraction.address")}
                </dt>
                <dd>{attraction.address}</dd>
              </div>
              {(attraction.wheelchair !== undefined ||
                attraction.stepFreeEntrance !== undefined ||
                attraction.accessibleToilet !== undefined ||
                attraction.accessibility) && (
                <div>
                  <dt>
                    <Icon name="access" />{" "}
                    {t(lang, "page_attraction.accessibility")}
                  </dt>
                  <dd>
                    <AccessFacts attraction={attraction} lang={lang} />
                    {attraction.accessibility && (
                      <span class="facts__note">
                        <DataText
                          of={attraction}
                          field="accessibility"
                          lang={lang}
                        />
                      </span>
                    )}
                  </dd>
                </div>
              )}
            </dl>
            <a
              class="button button--block"
              href={getMapsUrl(attraction.location)}
              target="_blank"
              rel="noopener noreferrer"
            >
              <Icon name="pin" /> {t(lang, "page_attraction.map")}
              <span class="sr-only">{t(lang, "common.opensInNewWindow")}</span>
            </a>
          </div>
        </aside>
        <div class="detail__main">
          <section aria-labelledby="acerca-title">
            <h2 id="acerca-title">{t(lang, "page_attraction.about")}</h2>
            <p>
              <DataText of={attraction} field="description" lang={lang} />
            </p>
          </section>
          <RatingsSection figures={figures} lang={lang} />
          {attraction.tips && attraction.tips.length > 0 && (
            <section class="tips" aria-labelledby="consejos-title">
              <h2 id="consejos-title">
                <Icon name="bulb" /> {t(lang, "page_attraction.tips")}
                {tipsLang && (
                  <>
                    {" "}
                    <span class="untranslated-note">
                      {t(lang, "common.untranslated")}
                    </span>
                  </>
                )}
              </h2>
              <ul
                lang={tipsLang}
                class={tipsLang ? "untranslated" : undefined}
              >
                {attraction.tips.map((tip) => <li key={tip}>{tip}</li>)}
              </ul>
            </section>
          )}
          {events.length > 0 && (
            <section aria-labelledby="eventos-title">
              <h2 id="eventos-title">{t(lang, "page_attraction.events")}</h2>
              <ul class="plain-list">
                {events.map((upcoming) => {
                  const { event: e, ongoing } = upcoming;
                  return (
                    <li key={e.slug}>
                      {tRich(lang, "page_attraction.event", {
                        b: bold,
                        name: <DataText of={e} field="name" lang={lang} />,
                        // A recurring event's line says it is on itself.
                        ongoing: ongoing && !e.recurrence ? "yes" : "no",
                        dates: describeWhen(upcoming, {
                          lang,
                          now,
                          timeZone: data.municipality.timeZone,
                        }),
                        description: (
                          <DataText of={e} field="description" lang={lang} />
                        ),
                      })}
                    </li>
                  );
                })}
              </ul>
            </section>
          )}
          {routes.length > 0 && (
            <section aria-labelledby="rutas-title">
              <h2 id="rutas-title">{t(lang, "page_attraction.routes")}</h2>
              <div class="stack">
                {routes.map((route) => (
                  <RouteCard
                    route={route}
                    names={names}
                    lang={lang}
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
          <h2 id="cerca-title">{t(lang, "page_attraction.nearby")}</h2>
          <div class="grid">
            {nearby.map(({ attraction: other, distanceKm }) => (
              <AttractionCard
                attraction={other}
                lang={lang}
                extra={t(lang, "page_attraction.distance", {
                  distance: formatDistance(distanceKm, lang),
                })}
                key={other.slug}
              />
            ))}
          </div>
        </div>
      </section>
      <MapSection
        lang={lang}
        data={data}
        tiles={tiles}
        focus={attraction.slug}
      />
    </>
  );
}

/** The last closed month's figures, in words: `null` when none was published. */
function RatingFigures(
  { figures, lang }: { figures: AttractionFigures; lang: Lang },
) {
  const bold = (children: ComponentChildren[]) => <strong>{children}</strong>;
  const month = formatMonth(figures.month, lang);
  if (figures.rating === null && figures.visits === null) return null;
  return (
    <>
      {figures.rating !== null && (
        <>
          <Stars value={figures.rating.average} />
          {tRich(lang, "page_attraction.rating", {
            b: bold,
            average: formatRating(figures.rating.average, lang),
            count: figures.rating.count,
            month,
          })}
        </>
      )}
      {figures.visits !== null && (
        <span class="rating-line__visits">
          <Icon name="users" />
          {t(lang, "page_attraction.visits", { count: figures.visits, month })}
        </span>
      )}
    </>
  );
}

/**
 * The hero's figures, when the month published any: the rule of when they
 * are published is said once, in the ratings section.
 */
function RatingLine(
  { figures, lang }: { figures: AttractionFigures; lang: Lang },
) {
  if (figures.rating === null && figures.visits === null) return null;
  return (
    <p class="rating-line">
      <RatingFigures figures={figures} lang={lang} />{" "}
      <a class="rating-line__more" href="#calificaciones">
        {t(lang, "page_attraction.ratingsLink")}
      </a>
    </p>
  );
}

/** Where the figures are: the month's rating and visits, and when they are published. */
function RatingsSection(
  { figures, lang }: { figures: AttractionFigures; lang: Lang },
) {
  const month = formatMonth(figures.month, lang);
  return (
    <section id="calificaciones" aria-labelledby="calificaciones-title">
      <h2 id="calificaciones-title">
        {t(lang, "page_attraction.ratingsTitle")}
      </h2>
      {figures.rating !== null || figures.visits !== null
        ? (
          <p class="rating-line rating-line--section">
            <RatingFigures figures={figures} lang={lang} />
          </p>
        )
        : null}
      <p class="muted ratings-rule">
        {t(lang, "page_attraction.ratingRule", { min: MIN_PEOPLE })}
        {figures.rating === null && (
          <>{" "}{t(lang, "page_attraction.fewRatings", { month })}</>
        )}
      </p>
    </section>
  );
}

/**
 * An attraction's cost, each thing said once: "Entrada libre" alone when
 * nobody pays, else the adults' and children's prices; then its note.
 */
function CostText(
  { cost, lang }: { cost: Attraction["cost"]; lang: Lang },
) {
  const noteLang = (getFallbackLang(cost, "notes") ?? lang) as Lang;
  const words = describeCost(cost, lang, noteLang);
  return (
    <>
      {words.free
        ? words.adult
        : t(lang, "page_attraction.adults", { price: words.adult })}
      {words.child && (
        <>
          <br />
          {t(lang, "page_attraction.children", { price: words.child })}
        </>
      )}
      {words.note && (
        <span class="facts__note">
          <Fallback lang={lang} from={getFallbackLang(cost, "notes")}>
            {words.note}
          </Fallback>
        </span>
      )}
    </>
  );
}
