import type { TourismData } from "@/lib/data/mod.ts";
import { describeWhen, type UpcomingEvent } from "@/lib/events/mod.ts";
import { formatMoney } from "@/lib/format/mod.ts";
import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";
import type { PagePhotos } from "@/lib/pages/mod.ts";
import { DataText } from "./DataText.tsx";
import { Icon } from "./Icon.tsx";
import { PhotoGallery } from "./PhotoGallery.tsx";
import { ContactLinks } from "./ProviderCard.tsx";
import { RouteCard } from "./RouteCard.tsx";

/** A message of the practical-information page (`locales/<lang>/page_info.json`). */
function tr(lang: Lang, key: string, values?: Record<string, string | number>) {
  return t(lang, `page_info.${key}`, values);
}

/** An event's width: a column of the events' grid, all of a phone's. */
const EVENT_PHOTO_SIZES = "(min-width: 64rem) 22rem, 100vw";

/**
 * Planning a visit, once on the home page and now on the practical
 * information page: the suggested routes, the coming events and the
 * packages, each package with its provider's phone, e-mail and website so
 * a price comes with a way to book it.
 */
export function PlanSections(
  { data, events, now, lang, photos }: {
    /** The data set in `lang` (`localizeData`). */
    data: TourismData;
    events: UpcomingEvent[];
    /** The instant `events` were listed at. */
    now: Date;
    lang: Lang;
    /** The routes' and events' photos (`loadPagePhotos`), all lazy: below the fold. */
    photos?: PagePhotos;
  },
) {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const providers = new Map(data.providers.map((p) => [p.slug, p]));
  return (
    <>
      <section id="rutas" aria-labelledby="rutas-title">
        <h2 id="rutas-title">
          <Icon name="route" /> {tr(lang, "sectionRoutes")}
        </h2>
        <div class="stack">
          {data.routes.map((route) => (
            <RouteCard
              route={route}
              names={names}
              lang={lang}
              photos={photos?.of(route.photos)}
              key={route.slug}
            />
          ))}
        </div>
      </section>

      <section id="eventos" aria-labelledby="eventos-title">
        <h2 id="eventos-title">
          <Icon name="calendar" /> {tr(lang, "sectionEvents")}
        </h2>
        {events.length === 0
          ? <p>{tr(lang, "noEvents")}</p>
          : (
            <ul class="events">
              {events.map((upcoming) => {
                const { event, ongoing } = upcoming;
                return (
                  <li
                    class="event"
                    id={`evento-${event.slug}`}
                    key={event.slug}
                  >
                    {ongoing && (
                      <p class="chip event__now">{tr(lang, "ongoing")}</p>
                    )}
                    <p
                      class={event.recurrence
                        ? "event__date event__date--rule"
                        : "event__date"}
                    >
                      <Icon name="calendar" />
                      {describeWhen(upcoming, {
                        lang,
                        now,
                        timeZone: data.municipality.timeZone,
                      })}
                    </p>
                    <h3 class="event__title">
                      <DataText of={event} field="name" lang={lang} />
                    </h3>
                    <PhotoGallery
                      photos={photos?.of(event.photos) ?? []}
                      lang={lang}
                      sizes={EVENT_PHOTO_SIZES}
                    />
                    <p>
                      <DataText of={event} field="description" lang={lang} />
                    </p>
                    <p class="event__place">
                      <Icon name="pin" />{" "}
                      <DataText of={event} field="place" lang={lang} />
                    </p>
                    <p class="event__calendar">
                      <a
                        href={localizePath(
                          lang,
                          `/turismo/eventos/${event.slug}.ics`,
                        )}
                        download={`${event.slug}.ics`}
                      >
                        <Icon name="calendar" /> {tr(lang, "addToCalendar")}
                        <span class="sr-only">: {event.name}</span>
                      </a>
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
        <p class="events__feed">
          <a href={localizePath(lang, "/turismo/eventos.ics")}>
            <Icon name="calendar" /> {tr(lang, "subscribeEvents")}
          </a>{" "}
          <span>{tr(lang, "subscribeEventsNote")}</span>
        </p>
      </section>

      <section id="paquetes" aria-labelledby="paquetes-title">
        <h2 id="paquetes-title">
          <Icon name="ticket" /> {tr(lang, "sectionPackages")}
        </h2>
        <ul class="packages">
          {data.packages.map((pkg) => {
            const provider = pkg.provider && providers.get(pkg.provider);
            return (
              <li class="package" key={pkg.slug}>
                <h3 class="package__title">
                  <DataText of={pkg} field="name" lang={lang} />
                </h3>
                <p class="package__price">
                  {formatMoney(pkg.price, t(lang, "common.noCost"), lang)}{" "}
                  <span>{tr(lang, "per", { per: pkg.per })}</span>
                </p>
                <p>
                  <DataText of={pkg} field="description" lang={lang} />
                </p>
                <p class="package__availability">
                  <Icon name="calendar" />{" "}
                  <DataText of={pkg} field="availability" lang={lang} />
                </p>
                {provider && (
                  <div class="package__provider">
                    <p>
                      {tr(lang, "bookWith")}{" "}
                      <a
                        href={localizePath(
                          lang,
                          `/turismo/servicios/${provider.slug}`,
                        )}
                      >
                        {provider.name}
                      </a>
                    </p>
                    <ContactLinks provider={provider} lang={lang} map={false} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
