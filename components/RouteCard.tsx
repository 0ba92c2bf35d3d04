import type { TourismData } from "@/lib/data/tourism_data.ts";
import {
  DIFFICULTY_LABELS,
  formatDistance,
  formatHours,
} from "@/lib/format/format.ts";
import { Icon } from "./Icon.tsx";

type TourRoute = TourismData["routes"][number];

/** A suggested route: what it is, how long, how hard, and its stops in order. */
export function RouteCard(
  { route, names, highlight }: {
    route: TourRoute;
    /** Attraction names by slug. */
    names: ReadonlyMap<string, string>;
    /** A stop to mark as "you are here". */
    highlight?: string;
  },
) {
  return (
    <article class="route-card" id={`ruta-${route.slug}`}>
      <h3 class="route-card__title">{route.name}</h3>
      <ul class="facts-inline">
        <li>
          <Icon name="clock" />
          <span class="sr-only">Duración:</span>
          {formatHours(route.durationHours)}
        </li>
        <li>
          <Icon name="route" />
          <span class="sr-only">Distancia:</span>
          {formatDistance(route.distanceKm)}
        </li>
        <li>
          <Icon name="mountain" />
          Dificultad {DIFFICULTY_LABELS[route.difficulty]?.toLowerCase() ??
            route.difficulty}
        </li>
      </ul>
      <p>{route.description}</p>
      <ol class="stops" aria-label={`Paradas de ${route.name}`}>
        {route.attractions.map((slug) => (
          <li key={slug} class={slug === highlight ? "stops__here" : undefined}>
            <a href={`/turismo/atractivos/${slug}`}>
              {names.get(slug) ?? slug}
            </a>
            {slug === highlight && (
              <span class="sr-only">
                (este atractivo)
              </span>
            )}
          </li>
        ))}
      </ol>
    </article>
  );
}
