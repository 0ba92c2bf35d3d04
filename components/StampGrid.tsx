import type { Translate } from "@/client/messages.ts";
import { localizePath } from "@/client/paths.ts";
import type { StampState } from "@/client/use_device_passport.ts";
import { Icon } from "./Icon.tsx";

/**
 * The passport's stamps as a grid: every attraction, in the data set's
 * order, collected, pending (a check-in kept on the device, not sent yet)
 * or missing, each with its name, its state in words (never colour alone)
 * and a link to its page. Rendered by the Passport island, whose messages
 * hold `stamps*` and `stamp.*`.
 */
export function StampGrid(
  { attractions, stateOf, lang, t }: {
    /** Slug → name, in the data set's order. */
    attractions: Record<string, string>;
    stateOf: (slug: string) => StampState;
    lang: string;
    t: Translate;
  },
) {
  const slugs = Object.keys(attractions);
  const count = { collected: 0, pending: 0, missing: 0 };
  for (const slug of slugs) count[stateOf(slug)]++;
  return (
    <section class="stamp-grid-section" aria-labelledby="sellos-titulo">
      <h2 id="sellos-titulo">{t("stampsTitle")}</h2>
      <p class="stamps__summary" data-stamp-counts="">
        {t("stampsSummary", count)}
      </p>
      <ul class="stamp-grid">
        {slugs.map((slug) => {
          const state = stateOf(slug);
          return (
            <li class={`stamp-cell stamp-cell--${state}`} key={slug}>
              <a
                class="stamp-cell__link"
                href={localizePath(lang, `/turismo/atractivos/${slug}`)}
              >
                <span class="stamp-cell__seal" aria-hidden="true">
                  {state === "collected" && <Icon name="check" />}
                  {state === "pending" && <Icon name="clock" />}
                </span>
                <span class="stamp-cell__name">{attractions[slug]}</span>
                <span class="stamp-cell__state">{t(`stamp.${state}`)}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
