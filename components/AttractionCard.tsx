import type { Attraction } from "@/lib/data/mod.ts";
import {
  formatMinutes,
  formatMoney,
  getCategoryLabel,
} from "@/lib/format/mod.ts";
import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";
import { DataText } from "./DataText.tsx";
import { Icon } from "./Icon.tsx";
import type { PlaceHours } from "@/lib/hours/mod.ts";
import { HoursNow } from "./OpeningHours.tsx";

/**
 * An attraction in a grid: category, name, summary, cost and time, in
 * `lang` (`attraction` as `localizeData` gives it for that language).
 */
export function AttractionCard(
  {
    attraction,
    lang,
    headingLevel = 3,
    extra,
    hours,
    stampSlot = false,
    distanceSlot = false,
  }: {
    attraction: Attraction;
    lang: Lang;
    headingLevel?: 2 | 3;
    /** A line under the summary, e.g. a distance. */
    extra?: string;
    /** Whether it is open now, in words ("Abierto ahora · cierra a las 18:00"). */
    hours?: PlaceHours;
    /**
     * An empty place for the passport's mark ("Sellado"), filled in the
     * browser by the StampMarks island from the device's passport.
     */
    stampSlot?: boolean;
    /**
     * An empty place for "a 1.2 km", filled in the browser by the
     * NearestFirst island when the tourist sorts the list by distance.
     */
    distanceSlot?: boolean;
  },
) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article class={`card card--${attraction.category}`}>
      <div class="card__band" aria-hidden="true">
        <Icon name={attraction.category} class="card__icon" />
      </div>
      <div class="card__body">
        <p class="chip">{getCategoryLabel(attraction.category, lang)}</p>
        <Heading class="card__title">
          <a
            class="card__link"
            href={localizePath(lang, `/turismo/atractivos/${attraction.slug}`)}
          >
            {attraction.name}
          </a>
        </Heading>
        {stampSlot && (
          <p class="card__stamp" data-stamp-slot={attraction.slug} />
        )}
        <p class="card__summary">
          <DataText of={attraction} field="summary" lang={lang} />
        </p>
        {extra && <p class="card__extra">{extra}</p>}
        {hours && (
          <HoursNow line={hours.line} until={hours.validUntilMs} compact />
        )}
        {distanceSlot && (
          <p class="card__distance" data-distance-slot={attraction.slug} />
        )}
        <ul class="facts-inline">
          <li>
            <Icon name="cash" />
            <span class="sr-only">{t(lang, "common.cost")}</span>
            {formatMoney(attraction.cost.adult, undefined, lang)}
          </li>
          <li>
            <Icon name="clock" />
            <span class="sr-only">{t(lang, "common.suggestedDuration")}</span>
            {formatMinutes(attraction.durationMinutes, lang)}
          </li>
        </ul>
      </div>
    </article>
  );
}
