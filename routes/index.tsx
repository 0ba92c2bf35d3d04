import { BADGE_DEFINITIONS } from "@/lib/passport/badges.ts";
import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Icon } from "@/components/Icon.tsx";
import { RouteCard } from "@/components/RouteCard.tsx";
import TicketForm from "@/islands/TicketForm.tsx";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import type { AppDeps } from "@/deps.ts";
import {
  formatDateRange,
  formatDistance,
  formatHours,
  formatMoney,
} from "@/lib/format/format.ts";
import { Island } from "@/components/Island.tsx";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import {
  getUpcomingEvents,
  type UpcomingEvent,
} from "@/lib/events/upcoming.ts";
import { createPageRouter, renderPage } from "./_app.tsx";

/** How many attractions the home page features before "see all". */
const FEATURED = 8;

/** `/`: the portal's front page. */
export default function home(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) =>
    // Its "próximos eventos" may lag by PAGE_TTL_MS at midnight.
    servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
      const { data } = deps.data.current();
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
        body: <HomePage data={data} events={events} />,
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
  { data, events }: { data: TourismData; events: UpcomingEvent[] },
) {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
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
            <p class="hero__tagline">{data.branding.tagline}</p>
            <p class="hero__text">{data.municipality.description}</p>
            <ul class="button-row">
              <li>
                <a class="button button--accent" href="/turismo/atractivos">
                  Explorar atractivos <Icon name="arrow" />
                </a>
              </li>
              <li>
                <a class="button button--light" href="#boleto">
                  <Icon name="ticket" /> Obtén tu boleto
                </a>
              </li>
            </ul>
            <ul class="hero__stats">
              <li>
                <strong>{data.attractions.length}</strong> atractivos
              </li>
              <li>
                <strong>{data.routes.length}</strong> rutas
              </li>
              {events.length > 0 && (
                <li>
                  <strong>{events.length}</strong>{" "}
                  {events.length === 1 ? "próximo evento" : "próximos eventos"}
                </li>
              )}
            </ul>
          </div>
          <aside class="plan-card" aria-labelledby="plan-title">
            <h2 id="plan-title" class="plan-card__title">
              <Icon name="route" /> Planea tu visita
            </h2>
            <ul class="plan-card__routes">
              {data.directions.map((d) => (
                <li key={d.fromCity}>
                  <span>Desde {d.fromCity}</span>
                  <strong>
                    {formatDistance(d.distanceKm)} ·{" "}
                    {formatHours(d.durationHours)}
                  </strong>
                </li>
              ))}
            </ul>
            <p class="plan-card__season">
              <Icon name="calendar" />
              <span>
                <strong>Mejor temporada:</strong>{" "}
                {data.weather.bestSeason.split(";")[0]}
              </span>
            </p>
            <ul class="plan-card__links">
              <li>
                <a href="/turismo/servicios">
                  Dónde dormir, comer y contratar guía <Icon name="arrow" />
                </a>
              </li>
              <li>
                <a href="/turismo/informacion-practica">
                  Clima, qué llevar y teléfonos útiles <Icon name="arrow" />
                </a>
              </li>
            </ul>
          </aside>
        </div>
      </section>

      <section class="section" aria-labelledby="atractivos-title">
        <div class="container">
          <div class="section__head">
            <h2 id="atractivos-title">Atractivos imperdibles</h2>
            <a class="section__more" href="/turismo/atractivos">
              Ver los {data.attractions.length} atractivos <Icon name="arrow" />
            </a>
          </div>
          <div class="grid">
            {data.attractions.slice(0, FEATURED).map((attraction) => (
              <AttractionCard attraction={attraction} key={attraction.slug} />
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
            <h2 id="rutas-title">Rutas sugeridas</h2>
          </div>
          <div class="grid grid--wide">
            {data.routes.map((route) => (
              <RouteCard route={route} names={names} key={route.slug} />
            ))}
          </div>
        </div>
      </section>

      <section class="section" id="eventos" aria-labelledby="eventos-title">
        <div class="container">
          <h2 id="eventos-title">Próximos eventos</h2>
          {events.length === 0
            ? (
              <p>
                Por ahora no hay eventos próximos en la agenda. ¡Vuelve pronto!
              </p>
            )
            : (
              <ul class="events">
                {events.map(({ event, ongoing }) => (
                  <li class="event" key={event.slug}>
                    {ongoing && <p class="chip event__now">En curso</p>}
                    <p class="event__date">
                      <Icon name="calendar" />
                      {formatDateRange(event.startDate, event.endDate)}
                    </p>
                    <h3 class="event__title">{event.name}</h3>
                    <p>{event.description}</p>
                    <p class="event__place">
                      <Icon name="pin" /> {event.place}
                    </p>
                  </li>
                ))}
              </ul>
            )}
        </div>
      </section>

      <section class="section section--tinted" aria-labelledby="paquetes-title">
        <div class="container">
          <h2 id="paquetes-title">Paquetes turísticos</h2>
          <ul class="packages">
            {data.packages.map((pkg) => (
              <li class="package" key={pkg.slug}>
                <h3 class="package__title">{pkg.name}</h3>
                <p class="package__price">
                  {formatMoney(pkg.price, "Sin costo")}{" "}
                  <span>por {pkg.per}</span>
                </p>
                <p>{pkg.description}</p>
                <p class="package__availability">
                  <Icon name="calendar" /> {pkg.availability}
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
            <h2 id="boleto-title">Tu boleto turístico</h2>
            <p class="lead">
              Regístrate gratis y recibe tu página personal de viaje: en cada
              atractivo encontrarás un código guía para registrar tu visita,
              calificarla y ganar insignias.
            </p>
            <ul class="ticket__perks">
              <li>
                <Icon name="check" /> Tu ruta con los lugares que visitas
              </li>
              <li>
                <Icon name="check" /> Insignias:{" "}
                {new Intl.ListFormat("es", { type: "conjunction" }).format(
                  BADGE_DEFINITIONS.map((badge) => badge.name),
                )}
              </li>
              <li>
                <Icon name="check" /> Una imagen para compartir en redes
              </li>
            </ul>
            <p class="ticket__signin">
              ¿Ya registras tus visitas? Tu boleto también se crea desde{" "}
              <a href="/mi-pasaporte">Mi pasaporte</a>, unido a tu cuenta.
            </p>
          </div>
          <div class="ticket__form">
            <Island name="TicketForm" component={TicketForm} props={{}} />
            <noscript>
              <p class="form-error">
                Para obtener tu boleto necesitas activar JavaScript en tu
                navegador.
              </p>
            </noscript>
          </div>
        </div>
      </section>
    </>
  );
}
