import type { Attraction } from "@/lib/data/tourism_data.ts";
import {
  CATEGORY_LABELS,
  formatMinutes,
  formatMoney,
} from "@/lib/format/format.ts";
import { Icon } from "./Icon.tsx";

/** An attraction in a grid: category, name, summary, cost and time. */
export function AttractionCard(
  { attraction, headingLevel = 3, extra }: {
    attraction: Attraction;
    headingLevel?: 2 | 3;
    /** A line under the summary, e.g. a distance. */
    extra?: string;
  },
) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article class={`card card--${attraction.category}`}>
      <div class="card__band" aria-hidden="true">
        <Icon name={attraction.category} class="card__icon" />
      </div>
      <div class="card__body">
        <p class="chip">{CATEGORY_LABELS[attraction.category]}</p>
        <Heading class="card__title">
          <a
            class="card__link"
            href={`/turismo/atractivos/${attraction.slug}`}
          >
            {attraction.name}
          </a>
        </Heading>
        <p class="card__summary">{attraction.summary}</p>
        {extra && <p class="card__extra">{extra}</p>}
        <ul class="facts-inline">
          <li>
            <Icon name="cash" />
            <span class="sr-only">Costo:</span>
            {formatMoney(attraction.cost.adult)}
          </li>
          <li>
            <Icon name="clock" />
            <span class="sr-only">Duración sugerida:</span>
            {formatMinutes(attraction.durationMinutes)}
          </li>
        </ul>
      </div>
    </article>
  );
}
