import type { TourismData } from "@/lib/data/mod.ts";
import { formatDistance, formatHours } from "@/lib/format/mod.ts";
import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";
import type { PhotoSources } from "@/lib/photos/mod.ts";
import { DataText } from "./DataText.tsx";
import { Icon } from "./Icon.tsx";
import { PhotoGallery } from "./PhotoGallery.tsx";

/** A route card's width: the page's main column, all of a phone's. */
const ROUTE_PHOTO_SIZES = "(min-width: 64rem) 45rem, 100vw";

type TourRoute = TourismData["routes"][number];

/**
 * A suggested route: what it is, how long, how hard, and its stops in
 * order, in `lang` (`route` as `localizeData` gives it for that language).
 */
export function RouteCard(
  { route, names, lang, highlight, photos = [] }: {
    route: TourRoute;
    /** Attraction names by slug. */
    names: ReadonlyMap<string, string>;
    lang: Lang;
    /** A stop to mark as "you are here". */
    highlight?: string;
    /** The route's photos (lazy: a card is never the top of a page). */
    photos?: PhotoSources[];
  },
) {
  return (
    <article class="route-card" id={`ruta-${route.slug}`}>
      <h3 class="route-card__title">
        <DataText of={route} field="name" lang={lang} />
      </h3>
      <PhotoGallery photos={photos} lang={lang} sizes={ROUTE_PHOTO_SIZES} />
      <ul class="facts-inline">
        <li>
          <Icon name="clock" />
          <span class="sr-only">{t(lang, "common.duration")}</span>
          {formatHours(route.durationHours, lang)}
        </li>
        <li>
          <Icon name="route" />
          <span class="sr-only">{t(lang, "common.distance")}</span>
          {formatDistance(route.distanceKm, lang)}
        </li>
        <li>
          <Icon name="mountain" />
          {t(lang, "common.routeDifficulty", { difficulty: route.difficulty })}
        </li>
      </ul>
      <p>
        <DataText of={route} field="description" lang={lang} />
      </p>
      <ol
        class="stops"
        aria-label={t(lang, "common.routeStops", { route: route.name })}
      >
        {route.attractions.map((slug) => (
          <li key={slug} class={slug === highlight ? "stops__here" : undefined}>
            <a href={localizePath(lang, `/turismo/atractivos/${slug}`)}>
              {names.get(slug) ?? slug}
            </a>
            {slug === highlight && (
              <span class="sr-only">
                {t(lang, "common.thisAttraction")}
              </span>
            )}
          </li>
        ))}
      </ol>
    </article>
  );
}
