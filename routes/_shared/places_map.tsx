import { useContext } from "preact/hooks";
import { getCategoryLabel } from "@/lib/format/mod.ts";
import { Island } from "@/components/Island.tsx";
import { PageImageSources } from "@/components/PagePolicy.tsx";
import PlacesMap from "@/islands/PlacesMap.tsx";
import type { MapTiles } from "@/lib/config/mod.ts";
import type { TourismData } from "@/lib/data/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  t,
} from "@/lib/i18n/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";

/** What every map needs: the data set in the page's language and the tiles. */
export interface MapSource {
  lang: Lang;
  /** The data set in `lang` (`localizeData`). */
  data: TourismData;
  /** `deps.config.mapTiles`. */
  tiles: MapTiles;
}

/**
 * The PlacesMap island for the data set: every attraction, every route
 * through its stops in order. Rendering it lets the page's CSP load the
 * tile host's images (`PageImageSources`), and nothing else does.
 */
export function PlacesMapIsland(
  { lang, data, tiles, focus, visits }: MapSource & {
    focus?: string;
    visits?: { person: string; slugs: string[] };
  },
) {
  useContext(PageImageSources)?.add(tiles.imageSource);
  const bySlug = new Map(data.attractions.map((a) => [a.slug, a]));
  return (
    <>
      <Island
        name="PlacesMap"
        component={PlacesMap}
        props={{
          ...getIslandMessages(lang, "map"),
          places: data.attractions.map((a) => ({
            slug: a.slug,
            name: a.name,
            href: localizePath(lang, `/turismo/atractivos/${a.slug}`),
            lat: a.location.lat,
            lng: a.location.lng,
          })),
          routes: data.routes.map((route) => ({
            slug: route.slug,
            name: route.name,
            stops: route.attractions.flatMap((slug): [number, number][] => {
              const place = bySlug.get(slug);
              return place ? [[place.location.lat, place.location.lng]] : [];
            }),
          })),
          tiles: { url: tiles.url, attribution: tiles.attribution },
          stylesheet: getAssets()?.mapStyles ?? null,
          focus,
          visits,
        }}
      />
      {/* Outside the island: hydrating a <noscript> would fill it in. */}
      <noscript>
        <p class="places-map__status">{t(lang, "map.noScript")}</p>
      </noscript>
    </>
  );
}

/**
 * The map's text equivalent: every place with its category and a link to
 * its page; with `stampSlots`, an empty place for the StampMarks island's
 * "Sellado".
 */
export function PlacesList(
  { lang, data, stampSlots = false }: Pick<MapSource, "lang" | "data"> & {
    stampSlots?: boolean;
  },
) {
  return (
    <ul class="places-list">
      {data.attractions.map((a) => (
        <li key={a.slug}>
          <a href={localizePath(lang, `/turismo/atractivos/${a.slug}`)}>
            {a.name}
          </a>{" "}
          <span class="places-list__category">
            {getCategoryLabel(a.category, lang)}
          </span>
          {stampSlots && (
            <span class="places-list__stamp" data-stamp-slot={a.slug} />
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The map block of an attraction's page and a route page: the map, a link
 * to the map page, and the places as a list (folded: the page has its own
 * content).
 */
export function MapSection(
  props: MapSource & {
    focus?: string;
    visits?: { person: string; slugs: string[] };
  },
) {
  const { lang, data } = props;
  return (
    <section class="section map-section" aria-labelledby="mapa-title">
      <div class="container">
        <h2 id="mapa-title">{t(lang, "map.title")}</h2>
        <PlacesMapIsland {...props} />
        <details class="places-map__list">
          <summary>
            {t(lang, "map.listSummary", { count: data.attractions.length })}
          </summary>
          <PlacesList lang={lang} data={data} />
        </details>
        <p>
          <a href={localizePath(lang, "/turismo/mapa")}>
            {t(lang, "map.openMap")}
          </a>
        </p>
      </div>
    </section>
  );
}
