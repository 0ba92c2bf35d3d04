import type { ComponentChildren } from "preact";
import {
  DataText,
  FallbackNote,
  getFallbackProps,
} from "@/components/DataText.tsx";
import { Icon } from "@/components/Icon.tsx";
import { Breadcrumbs, OnThisPage } from "@/components/PageNav.tsx";
import { PlanSections } from "@/components/PlanSections.tsx";
import { getUpcomingEvents, type UpcomingEvent } from "@/lib/events/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { localizeData, type TourismData } from "@/lib/data/mod.ts";
import { formatDistance, formatHours } from "@/lib/format/mod.ts";
import { type Lang, localizePath, t, tRich } from "@/lib/i18n/mod.ts";
import { getLang, getPublicOrigin } from "@/lib/http/mod.ts";
import { JsonLd } from "@/components/JsonLd.tsx";
import {
  describeEvents,
  loadPagePhotos,
  PAGE_TTL_MS,
  type PagePhotos,
  servePage,
} from "@/lib/pages/mod.ts";
import { getPracticalInfo, type PracticalInfo } from "@/lib/services/mod.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/** The page's sections, for its table of contents: id and message key. */
const SECTIONS = [
  { id: "clima", key: "sectionWeather" },
  { id: "como-llegar", key: "sectionDirections" },
  { id: "rutas", key: "sectionRoutes" },
  { id: "eventos", key: "sectionEvents" },
  { id: "paquetes", key: "sectionPackages" },
  { id: "comida", key: "sectionFood" },
  { id: "cultura", key: "sectionCulture" },
  { id: "emergencias", key: "sectionEmergency" },
];

/** A message of this page (`locales/<lang>/page_info.json`). */
function tInfo(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_info.${key}`, values);
}

/**
 * `/turismo/informacion-practica`: weather and packing by season, how to
 * get there, suggested routes, coming events, packages (with their
 * providers' contact), food, culture and every emergency number.
 *
 * Its events depend on the clock, not only on the data set: the page is
 * kept PAGE_TTL_MS, so an event (or a recurring event's occurrence) that
 * ends at 13:00 leaves the list, and its "próxima" moves on, by 13:00:10
 * at the latest; an occurrence's start shows as "en curso" as late.
 */
export default function practicalInfo(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, async (tag) => {
        const lang = getLang(c);
        const data = localizeData(deps.data.current().data, lang);
        const place = data.municipality.name;
        const title = tInfo(lang, "title", { place });
        const now = deps.now();
        const events = getUpcomingEvents(data.events, {
          now,
          timeZone: data.municipality.timeZone,
        });
        const photos = await loadPagePhotos(deps.photos, [
          ...data.routes.map((route) => route.photos),
          ...events.map(({ event }) => event.photos),
        ], { lang, tag });
        const url = localizePath(lang, "/turismo/informacion-practica");
        return renderPage(c, deps, {
          head: {
            title: `${title} · ${data.branding.name}`,
            description: tInfo(lang, "description", {
              place,
              state: data.municipality.state,
            }),
            shareTitle: title,
            url,
          },
          body: (
            <>
              <JsonLd
                data={describeEvents(events, data, {
                  url: `${getPublicOrigin(c, deps.config)}${url}`,
                })}
              />
              <PracticalInfoPage
                lang={lang}
                title={title}
                data={data}
                info={getPracticalInfo(data)}
                events={events}
                now={now}
                photos={photos}
              />
            </>
          ),
        });
      }),
  );
}

function PracticalInfoPage(
  { lang, title, data, info, events, now, photos }: {
    lang: Lang;
    title: string;
    /** The data set in `lang`: its objects tell which texts fell back. */
    data: TourismData;
    info: PracticalInfo;
    /** The events that are not over. */
    events: UpcomingEvent[];
    /** The instant `events` were listed at. */
    now: Date;
    /** The routes' and events' photos. */
    photos: PagePhotos;
  },
) {
  const { weather, culture } = info;
  const tr = (key: string, values?: Record<string, string | number>) =>
    tInfo(lang, key, values);
  const strong = (chunks: ComponentChildren) => <strong>{chunks}</strong>;
  return (
    <>
      <section class="page-head page-head--info">
        <div class="container">
          <Breadcrumbs lang={lang} current={tr("crumb")} />
          <h1>{title}</h1>
          <p class="lead">{tr("lead")}</p>
        </div>
      </section>
      <OnThisPage
        label={tr("onThisPage")}
        sections={SECTIONS.map((s) => ({ id: s.id, label: tr(s.key) }))}
      />

      <div class="container detail info">
        <div class="detail__main">
          <section id="clima" aria-labelledby="clima-title">
            <h2 id="clima-title">
              <Icon name="calendar" /> {tr("sectionWeather")}
            </h2>
            <p>
              <DataText of={weather} field="climate" lang={lang} />
            </p>
            <p class="tips">
              {tRich(lang, "page_info.bestSeason", {
                season: (
                  <DataText of={weather} field="bestSeason" lang={lang} />
                ),
                strong,
              })}
            </p>
            <ul class="seasons">
              {weather.seasons.map((season) => (
                <li class="season" key={season.months}>
                  <h3 class="season__months">
                    <DataText of={season} field="months" lang={lang} />
                  </h3>
                  <p class="season__temp">
                    {tr("temperature", {
                      min: season.avgTempC.min,
                      max: season.avgTempC.max,
                    })}
                    <span class="sr-only">
                      {" "}
                      {tr("temperatureNote")}
                    </span>
                  </p>
                  <p>
                    <DataText of={season} field="description" lang={lang} />
                  </p>
                </li>
              ))}
            </ul>
            <h3>
              {tr("packing")}
              <FallbackNote of={weather} field="packing" lang={lang} />
            </h3>
            <ul {...getFallbackProps(weather, "packing", "checklist")}>
              {weather.packing.map((item) => (
                <li key={item}>
                  <Icon name="check" /> {item}
                </li>
              ))}
            </ul>
          </section>

          <section id="como-llegar" aria-labelledby="como-llegar-title">
            <h2 id="como-llegar-title">
              <Icon name="route" /> {tr("sectionDirections")}
            </h2>
            <ul class="info-list">
              {info.directions.map((d) => (
                <li key={d.fromCity}>
                  <h3>
                    {tr("fromCity", { city: d.fromCity })}{" "}
                    <span class="info-list__meta">
                      {tr("trip", {
                        distance: formatDistance(d.distanceKm, lang),
                        duration: formatHours(d.durationHours, lang),
                      })}
                    </span>
                  </h3>
                  <p>
                    {tRich(lang, "page_info.byCar", {
                      text: <DataText of={d} field="byCar" lang={lang} />,
                      strong,
                    })}
                  </p>
                  <p>
                    {tRich(lang, "page_info.byBus", {
                      text: <DataText of={d} field="byBus" lang={lang} />,
                      strong,
                    })}
                  </p>
                </li>
              ))}
            </ul>
          </section>

          <PlanSections
            data={data}
            events={events}
            now={now}
            lang={lang}
            photos={photos}
          />

          <section id="comida" aria-labelledby="comida-title">
            <h2 id="comida-title">
              <Icon name="gastronomia" /> {tr("sectionFood")}
            </h2>
            <ul class="info-list">
              {info.dishes.map((d, i) => (
                <li key={d.dish}>
                  <h3>{d.dish}</h3>
                  <p>
                    <DataText
                      of={data.gastronomy[i]}
                      field="description"
                      lang={lang}
                    />
                  </p>
                  {d.place && (
                    <p class="info-list__where">
                      {tRich(lang, "page_info.whereToTry", {
                        place: d.place.name,
                        link: (chunks) => (
                          <a
                            href={localizePath(
                              lang,
                              `/turismo/servicios/${d.place!.slug}`,
                            )}
                          >
                            {chunks}
                          </a>
                        ),
                      })}
                    </p>
                  )}
                </li>
              ))}
            </ul>
            <p>
              <a
                href={localizePath(lang, "/turismo/servicios?tipo=restaurante")}
              >
                {tr("allRestaurants")} <Icon name="arrow" />
              </a>
            </p>
          </section>

          <section id="cultura" aria-labelledby="cultura-title">
            <h2 id="cultura-title">
              <Icon name="cultura" /> {tr("sectionCulture")}
            </h2>
            <p>
              <DataText of={culture} field="history" lang={lang} />
            </p>
            <h3>
              {tr("traditions")}
              <FallbackNote of={culture} field="traditions" lang={lang} />
            </h3>
            <ul {...getFallbackProps(culture, "traditions", "plain-list")}>
              {culture.traditions.map((item) => <li key={item}>{item}</li>)}
            </ul>
            <h3>
              {tr("etiquette")}
              <FallbackNote of={culture} field="etiquette" lang={lang} />
            </h3>
            <ul {...getFallbackProps(culture, "etiquette", "plain-list")}>
              {culture.etiquette.map((item) => <li key={item}>{item}</li>)}
            </ul>
          </section>
        </div>

        <aside
          class="detail__aside"
          id="emergencias"
          aria-labelledby="emergencias-title"
        >
          <div class="panel panel--emergency">
            <h2 id="emergencias-title" class="panel__title">
              <Icon name="phone" /> {tr("sectionEmergency")}
            </h2>
            <ul class="emergency-list">
              {info.emergency.map((e, i) => (
                <li key={e.name}>
                  <span class="emergency-list__name">
                    <DataText of={data.emergency[i]} field="name" lang={lang} />
                  </span>
                  <a class="emergency-list__phone" href={e.telUrl}>
                    <span class="sr-only">{tr("call")}</span> {e.phone}
                  </a>
                  {e.notes && (
                    <span class="emergency-list__notes">
                      <DataText
                        of={data.emergency[i]}
                        field="notes"
                        lang={lang}
                      />
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>
    </>
  );
}
