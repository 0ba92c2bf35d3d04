import { Icon } from "@/components/Icon.tsx";
import type { AppDeps } from "@/deps.ts";
import { formatDistance, formatHours } from "@/lib/format/format.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import {
  getPracticalInfo,
  type PracticalInfo,
} from "@/lib/services/practical_info.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/** The page's sections, for its table of contents. */
const SECTIONS = [
  { id: "clima", label: "Clima y qué llevar" },
  { id: "como-llegar", label: "Cómo llegar" },
  { id: "comida", label: "Qué comer" },
  { id: "cultura", label: "Historia y costumbres" },
  { id: "emergencias", label: "Teléfonos de emergencia" },
];

/**
 * `/turismo/informacion-practica`: weather and packing by season, how to
 * get there, food, culture and every emergency number.
 */
export default function practicalInfo(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const { data } = deps.data.current();
        const place = data.municipality.name;
        const title = `Información práctica para visitar ${place}`;
        return renderPage(c, deps, {
          head: {
            title: `${title} · ${data.branding.name}`,
            description:
              `Clima y qué llevar en cada temporada, cómo llegar, qué comer, costumbres y teléfonos de emergencia de ${place}, ${data.municipality.state}.`,
            shareTitle: title,
            url: "/turismo/informacion-practica",
          },
          body: (
            <PracticalInfoPage
              title={title}
              info={getPracticalInfo(data)}
            />
          ),
        });
      }),
  );
}

function PracticalInfoPage(
  { title, info }: { title: string; info: PracticalInfo },
) {
  const { weather, culture } = info;
  return (
    <>
      <section class="page-head page-head--info">
        <div class="container">
          <nav aria-label="Ruta de navegación" class="breadcrumbs">
            <ol>
              <li>
                <a href="/">Inicio</a>
              </li>
              <li aria-current="page">Información práctica</li>
            </ol>
          </nav>
          <h1>{title}</h1>
          <p class="lead">
            Lo que conviene saber antes de salir: el clima de cada temporada,
            qué llevar, cómo llegar, qué comer, las costumbres del pueblo y a
            quién llamar si algo sale mal.
          </p>
        </div>
      </section>
      <div class="container info-toc">
        <nav class="filters" aria-label="En esta página">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>

      <div class="container detail info">
        <div class="detail__main">
          <section id="clima" aria-labelledby="clima-title">
            <h2 id="clima-title">
              <Icon name="calendar" /> Clima y qué llevar
            </h2>
            <p>{weather.climate}</p>
            <p class="tips">
              <strong>Mejor temporada:</strong> {weather.bestSeason}
            </p>
            <ul class="seasons">
              {weather.seasons.map((season) => (
                <li class="season" key={season.months}>
                  <h3 class="season__months">{season.months}</h3>
                  <p class="season__temp">
                    {season.avgTempC.min} a {season.avgTempC.max} °C
                    <span class="sr-only">
                      {" "}de temperatura promedio, mínima y máxima
                    </span>
                  </p>
                  <p>{season.description}</p>
                </li>
              ))}
            </ul>
            <h3>Qué llevar</h3>
            <ul class="checklist">
              {weather.packing.map((item) => (
                <li key={item}>
                  <Icon name="check" /> {item}
                </li>
              ))}
            </ul>
          </section>

          <section id="como-llegar" aria-labelledby="como-llegar-title">
            <h2 id="como-llegar-title">
              <Icon name="route" /> Cómo llegar
            </h2>
            <ul class="info-list">
              {info.directions.map((d) => (
                <li key={d.fromCity}>
                  <h3>
                    Desde {d.fromCity}{" "}
                    <span class="info-list__meta">
                      {formatDistance(d.distanceKm)} · unas{" "}
                      {formatHours(d.durationHours)}
                    </span>
                  </h3>
                  <p>
                    <strong>En auto:</strong> {d.byCar}
                  </p>
                  <p>
                    <strong>En autobús:</strong> {d.byBus}
                  </p>
                </li>
              ))}
            </ul>
          </section>

          <section id="comida" aria-labelledby="comida-title">
            <h2 id="comida-title">
              <Icon name="gastronomia" /> Qué comer
            </h2>
            <ul class="info-list">
              {info.dishes.map((d) => (
                <li key={d.dish}>
                  <h3>{d.dish}</h3>
                  <p>{d.description}</p>
                  {d.place && (
                    <p class="info-list__where">
                      Dónde probarlo:{" "}
                      <a href={`/turismo/servicios/${d.place.slug}`}>
                        {d.place.name}
                      </a>
                    </p>
                  )}
                </li>
              ))}
            </ul>
            <p>
              <a href="/turismo/servicios?tipo=restaurante">
                Ver todos los restaurantes <Icon name="arrow" />
              </a>
            </p>
          </section>

          <section id="cultura" aria-labelledby="cultura-title">
            <h2 id="cultura-title">
              <Icon name="cultura" /> Historia y costumbres
            </h2>
            <p>{culture.history}</p>
            <h3>Tradiciones</h3>
            <ul class="plain-list">
              {culture.traditions.map((t) => <li key={t}>{t}</li>)}
            </ul>
            <h3>Costumbres y buenos modales</h3>
            <ul class="plain-list">
              {culture.etiquette.map((t) => <li key={t}>{t}</li>)}
            </ul>
          </section>
        </div>

        <aside
          class="detail__aside"
          id="emergencias"
          aria-labelledby="emergencias-title"
        >
          <div class="panel panel--emergency">
            <h2 id="emergencias-title" class="panel__title">
              <Icon name="phone" /> Teléfonos de emergencia
            </h2>
            <ul class="emergency-list">
              {info.emergency.map((e) => (
                <li key={e.name}>
                  <span class="emergency-list__name">{e.name}</span>
                  <a class="emergency-list__phone" href={e.telUrl}>
                    <span class="sr-only">Llamar al</span> {e.phone}
                  </a>
                  {e.notes && (
                    <span class="emergency-list__notes">{e.notes}</span>
                  )}
                </li>
              ))}
            </ul>
          </div>
        </aside>
      </div>
    </>
  );
}
