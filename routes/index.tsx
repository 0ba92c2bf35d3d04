import type { ComponentChildren } from "preact";
import { BADGES, getBadgeName } from "@/lib/badges/mod.ts";
import { AttractionCard } from "@/components/AttractionCard.tsx";
import { DataText, Fallback } from "@/components/DataText.tsx";
import { Icon } from "@/components/Icon.tsx";
import { RouteCard } from "@/components/RouteCard.tsx";
import TicketForm from "@/islands/TicketForm.tsx";
import { StampMarksIsland } from "@/routes/_shared/stamp_marks.tsx";
import {
  getFallbackLang,
  localizeData,
  type TourismData,
} from "@/lib/data/mod.ts";
import type { AppDeps } from "@/deps.ts";
import {
  formatDateRange,
  formatDistance,
  formatHours,
  formatMoney,
} from "@/lib/format/mod.ts";
import { Island } from "@/components/Island.tsx";
import {
  getIslandMessages,
  getLangMeta,
  type Lang,
  localizePath,
  t,
  tRich,
} from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { getUpcomingEvents, type UpcomingEvent } from "@/lib/events/mod.ts";
import { createPageRouter, renderPage } from "./_app.tsx";

/** How many attractions the home page features before "see all". */
const FEATURED = 8;

/** `/`: the portal's front page (`/en/` in English). */
export default function home(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) =>
    // Its "próximos eventos" may lag by PAGE_TTL_MS at midnight.
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

function HomePage(
  { data, events, lang }: {
    /** The data set in `lang` (`localizeData`). */
    data: TourismData;
    events: UpcomingEvent[];
    lang: Lang;
  },
) {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const at = (path: string) => localizePath(lang, path);
  const bold = (children: ComponentChildren[]) => <strong>{children}</strong>;
  const { weather } = data;
  return (
    <>
      <section class="hero" aria-labelledby="hero-title">
        <div class="container hero__inner">
          <div class="hero__main">
            <p class="hero__eyebrow">
              {data.municipality.name}, {data.municipality.state},{" "}
              {data.municipality.country}
            </p>
            <h1 id="hero-title" class="hero__title">{data.branding.name}</h1>
            <p class="hero__tagline">
              <DataText of={data.branding} field="tagline" lang={lang} />
            </p>
            <p class="hero__text">
              <DataText
                of={data.municipality}
                field="description"
                lang={lang}
              />
            </p>
            <ul class="button-row">
              <li>
                <a
                  class="button button--accent"
                  href={at("/turismo/atractivos")}
                >
                  {t(lang, "page_home.exploreAttractions")}{" "}
                  <Icon name="arrow" />
                </a>
              </li>
              <li>
                <a class="button button--light" href="#boleto">
                  <Icon name="ticket" /> {t(lang, "page_home.getTicket")}
                </a>
              </li>
            </ul>
            <ul class="hero__stats">
              <li>
                {tRich(lang, "page_home.statAttractions", {
                  count: data.attractions.length,
                  b: bold,
                })}
              </li>
              <li>
                {tRich(lang, "page_home.statRoutes", {
                  count: data.routes.length,
                  b: bold,
                })}
              </li>
              {events.length > 0 && (
                <li>
                  {tRich(lang, "page_home.statEvents", {
                    count: events.length,
                    b: bold,
                  })}
                </li>
              )}
            </ul>
          </div>
          <aside class="plan-card" aria-labelledby="plan-title">
            <h2 id="plan-title" class="plan-card__title">
              <Icon name="route" /> {t(lang, "page_home.planTitle")}
            </h2>
            <ul class="plan-card__routes">
              {data.directions.map((d) => (
                <li key={d.fromCity}>
                  <span>
                    {t(lang, "page_home.fromCity", { city: d.fromCity })}
                  </span>
                  <strong>
                    {formatDistance(d.distanceKm, lang)} ·{" "}
                    {formatHours(d.durationHours, lang)}
                  </strong>
                </li>
              ))}
            </ul>
            <p class="plan-card__season">
              <Icon name="calendar" />
              <span>
                {tRich(lang, "page_home.bestSeason", {
                  b: bold,
                  season: (
                    <Fallback
                      lang={lang}
                      from={getFallbackLang(weather, "bestSeason")}
                    >
                      {weather.bestSeason.split(";")[0]}
                    </Fallback>
                  ),
                })}
              </span>
            </p>
            <ul class="plan-card__links">
              <li>
                <a href={at("/turismo/servicios")}>
                  {t(lang, "page_home.whereToStay")} <Icon name="arrow" />
                </a>
              </li>
              <li>
                <a href={at("/turismo/informacion-practica")}>
                  {t(lang, "page_home.weatherAndPhones")} <Icon name="arrow" />
                </a>
              </li>
            </ul>
          </aside>
        </div>
      </section>

      <section class="section" aria-labelledby="atractivos-title">
        <div class="container">
          <div class="section__head">
            <h2 id="atractivos-title">{t(lang, "page_home.mustSee")}</h2>
            <a class="section__more" href={at("/turismo/atractivos")}>
              {t(lang, "page_home.seeAll", { count: data.attractions.length })}
              {" "}
              <Icon name="arrow" />
            </a>
          </div>
          <StampMarksIsland lang={lang} />
          <div class="grid">
            {data.attractions.slice(0, FEATURED).map((attraction) => (
              <AttractionCard
                attraction={attraction}
                lang={lang}
                key={attraction.slug}
                stampSlot
              />
            ))}
          </div>
        </div>
      </section>

      <section
        class="section section--tinted"
        id="rutas"
        aria-labelledby="rutas-title"
      >
        <div class="container">
          <div class="section__head">
            <h2 id="rutas-title">{t(lang, "page_home.routes")}</h2>
          </div>
          <div class="grid grid--wide">
            {data.routes.map((route) => (
              <RouteCard
                route={route}
                names={names}
                lang={lang}
                key={route.slug}
              />
            ))}
          </div>
        </div>
      </section>

      <section class="section" id="eventos" aria-labelledby="eventos-title">
        <div class="container">
          <h2 id="eventos-title">{t(lang, "page_home.events")}</h2>
          {events.length === 0
            ? <p>{t(lang, "page_home.noEvents")}</p>
            : (
              <ul class="events">
                {events.map(({ event, ongoing }) => (
                  <li class="event" key={event.slug}>
                    {ongoing && (
                      <p class="chip event__now">
                        {t(lang, "page_home.ongoing")}
                      </p>
                    )}
                    <p class="event__date">
                      <Icon name="calendar" />
                      {formatDateRange(event.startDate, event.endDate, lang)}
                    </p>
                    <h3 class="event__title">
                      <DataText of={event} field="name" lang={lang} />
                    </h3>
                    <p>
                      <DataText of={event} field="description" lang={lang} />
                    </p>
                    <p class="event__place">
                      <Icon name="pin" />{" "}
                      <DataText of={event} field="place" lang={lang} />
                    </p>
                  </li>
                ))}
              </ul>
            )}
        </div>
      </section>

      <section class="section section--tinted" aria-labelledby="paquetes-title">
        <div class="container">
          <h2 id="paquetes-title">{t(lang, "page_home.packages")}</h2>
          <ul class="packages">
            {data.packages.map((pkg) => (
              <li class="package" key={pkg.slug}>
                <h3 class="package__title">
                  <DataText of={pkg} field="name" lang={lang} />
                </h3>
                <p class="package__price">
                  {formatMoney(pkg.price, t(lang, "common.noCost"), lang)}{" "}
                  <span>{t(lang, "page_home.per", { per: pkg.per })}</span>
                </p>
                <p>
                  <DataText of={pkg} field="description" lang={lang} />
                </p>
                <p class="package__availability">
                  <Icon name="calendar" />{" "}
                  <DataText of={pkg} field="availability" lang={lang} />
                </p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        class="section ticket"
        id="boleto"
        aria-labelledby="boleto-title"
      >
        <div class="container ticket__inner">
          <div class="ticket__intro">
            <h2 id="boleto-title">{t(lang, "page_home.ticketTitle")}</h2>
            <p class="lead">{t(lang, "page_home.ticketLead")}</p>
            <ul class="ticket__perks">
              <li>
                <Icon name="check" /> {t(lang, "page_home.perkRoute")}
              </li>
              <li>
                <Icon name="check" /> {t(lang, "page_home.perkBadges", {
                  badges: new Intl.ListFormat(getLangMeta(lang).intlLocale, {
                    type: "conjunction",
                  }).format(
                    BADGES.map((badge) => getBadgeName(lang, badge)),
                  ),
                })}
              </li>
              <li>
                <Icon name="check" /> {t(lang, "page_home.perkShare")}
              </li>
            </ul>
            <p class="ticket__signin">
              {tRich(lang, "page_home.signedIn", {
                link: (children) => (
                  <a href={at("/mi-pasaporte")}>{children}</a>
                ),
              })}
            </p>
          </div>
          <div class="ticket__form">
            <Island
              name="TicketForm"
              component={TicketForm}
              props={getIslandMessages(lang, "ticket", { shared: ["session"] })}
            />
            <noscript>
              <p class="form-error">{t(lang, "page_home.noscript")}</p>
            </noscript>
          </div>
        </div>
      </section>
    </>
  );
}
