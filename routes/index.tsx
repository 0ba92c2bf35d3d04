import { DataText } from "@/components/DataText.tsx";
import { Icon } from "@/components/Icon.tsx";
import { StampMarksIsland } from "@/routes/_shared/stamp_marks.tsx";
import { localizeData, type TourismData } from "@/lib/data/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { getCategoryLabel } from "@/lib/format/mod.ts";
import { type Lang, localizePath, t } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { getUpcomingEvents, type UpcomingEvent } from "@/lib/events/mod.ts";
import { createPageRouter, renderPage } from "./_app.tsx";

/** `/`: the portal's front page (`/en/` in English). */
export default function home(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) =>
    // Its count of "próximos eventos" may lag by PAGE_TTL_MS when an event
    // ends (at midnight, or at its endTime).
    servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
      const lang = getLang(c);
      const data = localizeData(deps.data.current().data, lang);
      const events = getUpcomingEvents(data.events, {
        now: deps.now(),
        timeZone: data.municipality.timeZone,
      });
      return renderPage(c, deps, {
        // Its share picture is the site's default: the home page's card.
        head: {
          title: `${data.branding.name}: ${data.branding.tagline}`,
          description: clipDescription(data.municipality.description),
          url: "/",
        },
        body: <HomePage data={data} events={events} lang={lang} />,
      });
    }));
}

/**
 * A meta description of at most `max` characters: the first sentence when it
 * fits, else cut at a word with an ellipsis (search results and link
 * previews show about 160).
 */
function clipDescription(text: string, max = 160): string {
  if (text.length <= max) return text;
  const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0];
  if (sentence && sentence.length <= max) return sentence;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ")).replace(/[\s,;:]+$/, "")}…`;
}

/**
 * The home page a tourist reads in two or three phone screens: what the
 * passport is and how to start it, the attractions in a compact list, and
 * links to the rest (the full list, the ticket on the passport page, routes,
 * events and packages on the practical-information page).
 */
function HomePage(
  { data, events, lang }: {
    /** The data set in `lang` (`localizeData`). */
    data: TourismData;
    events: UpcomingEvent[];
    lang: Lang;
  },
) {
  const at = (path: string) => localizePath(lang, path);
  return (
    <>
      <section class="hero hero--short" aria-labelledby="hero-title">
        <div class="container hero__inner">
          <div class="hero__main">
            <h1 id="hero-title" class="hero__title">{data.branding.name}</h1>
            <p class="hero__tagline">
              <DataText of={data.branding} field="tagline" lang={lang} />
            </p>
            <h2 class="hero__subtitle">{t(lang, "page_home.passportTitle")}</h2>
            <p class="hero__text">{t(lang, "common.passportIdea")}</p>
            <p class="hero__text">{t(lang, "common.ticketIdea")}</p>
            <ul class="button-row">
              <li>
                <a class="button button--accent" href={at("/mi-pasaporte")}>
                  {t(lang, "page_home.startPassport")}
                </a>
              </li>
              <li>
                <a
                  class="button button--light"
                  href={at("/mi-pasaporte#boleto")}
                >
                  {t(lang, "page_home.getTicket")}
                </a>
              </li>
            </ul>
          </div>
        </div>
      </section>

      <section
        class="section section--compact"
        aria-labelledby="atractivos-title"
      >
        <div class="container">
          <div class="section__head">
            <h2 id="atractivos-title">{t(lang, "page_home.attractions")}</h2>
            <a class="section__more" href={at("/turismo/atractivos")}>
              {t(lang, "page_home.seeAll", { count: data.attractions.length })}
              {" "}
              <Icon name="arrow" />
            </a>
          </div>
          <StampMarksIsland lang={lang} />
          <ul class="place-list">
            {data.attractions.map((attraction) => (
              <li class="place-list__item" key={attraction.slug}>
                <a
                  class="place-list__link"
                  href={at(`/turismo/atractivos/${attraction.slug}`)}
                >
                  <Icon name={attraction.category} />
                  <span>{attraction.name}</span>
                  <span class="sr-only">
                    , {getCategoryLabel(attraction.category, lang)}
                  </span>
                </a>

                <span
                  class="place-list__stamp"
                  data-stamp-slot={attraction.slug}
                />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        class="section section--tinted section--compact"
        aria-labelledby="planea-title"
      >
        <div class="container">
          <h2 id="planea-title">{t(lang, "page_home.planTitle")}</h2>
          <ul class="plan-links">
            <li>
              <a href={at("/turismo/informacion-practica#rutas")}>
                <Icon name="route" />{" "}
                {t(lang, "page_home.routesLink", { count: data.routes.length })}
              </a>
            </li>
            <li>
              <a href={at("/turismo/informacion-practica#eventos")}>
                <Icon name="calendar" />{" "}
                {t(lang, "page_home.eventsLink", { count: events.length })}
              </a>
            </li>
            <li>
              <a href={at("/turismo/informacion-practica#paquetes")}>
                <Icon name="ticket" /> {t(lang, "page_home.packagesLink", {
                  count: data.packages.length,
                })}
              </a>
            </li>
            <li>
              <a href={at("/turismo/servicios")}>
                <Icon name="pin" /> {t(lang, "page_home.whereToStay")}
              </a>
            </li>
            <li>
              <a href={at("/turismo/informacion-practica")}>
                <Icon name="bulb" /> {t(lang, "page_home.weatherAndPhones")}
              </a>
            </li>
          </ul>
        </div>
      </section>
    </>
  );
}
