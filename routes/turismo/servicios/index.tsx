import { Island } from "@/components/Island.tsx";
import { ProviderCard } from "@/components/ProviderCard.tsx";
import type { AppDeps } from "@/deps.ts";
import NearMe from "@/islands/NearMe.tsx";
import type { LatLng } from "@/lib/data/tourism_data.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import {
  buildDirectory,
  type Directory,
  getDirectoryUrl,
  parseNear,
  parseProviderType,
  PROVIDER_TYPE_LABELS,
} from "@/lib/services/directory.ts";
import {
  getLocalDayNumber,
  ORDER_DISCLOSURE,
  PROVIDER_TYPES,
  type ProviderType,
} from "@/lib/services/order.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/**
 * `/turismo/servicios`: hotels, restaurants and guides. `?tipo=hotel`,
 * `restaurante` or `guia` filters; `?cerca=lat,lng` sorts by distance from
 * the visitor. Without it, each kind is in the day's rotation
 * (lib/services/order.ts), cached per kind and day; a page with a location
 * is the visitor's own: rendered per request, never cached.
 */
export default function services(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const type = parseProviderType(c.req.query("tipo"));
    const near = parseNear(c.req.query("cerca"));
    const now = deps.now();
    const render = () => {
      const { data } = deps.data.current();
      const directory = buildDirectory(data, {
        now,
        type,
        location: near.location,
      });
      const place = data.municipality.name;
      const title = type
        ? `${PROVIDER_TYPE_LABELS[type].filter} en ${place}`
        : `Hoteles, restaurantes y guías en ${place}`;
      return renderPage(c, deps, {
        head: {
          title: `${title} · ${data.branding.name}`,
          description:
            `Dónde dormir, dónde comer y con quién recorrer ${place}: teléfonos, horarios, precios y los atractivos cercanos de ${directory.total} prestadores de servicios turísticos.`,
          shareTitle: title,
          // The canonical list has no location; a visitor's own is not indexed.
          url: getDirectoryUrl({ type }),
          robots: near.location ? "noindex" : undefined,
        },
        body: (
          <ServicesPage
            title={title}
            directory={directory}
            type={type}
            location={near.location}
            invalidLocation={near.invalid === true}
          />
        ),
      });
    };
    if (near.location || near.invalid) {
      // The visitor's own location: cached by no one (this instance, a
      // proxy, the browser's history of pages).
      const res = render();
      if (near.location) res.headers.set("Cache-Control", "private, no-store");
      return res;
    }
    // Keyed by the query it reads and the day, so the rotation turns at
    // the municipality's midnight even for a cached page.
    const day = getLocalDayNumber(
      now,
      deps.data.current().data.municipality.timeZone,
    );
    const key = `${c.req.path}?tipo=${type ?? ""}&dia=${day}`;
    return await servePage(c, deps, { key, ttlMs: PAGE_TTL_MS }, render);
  });
}

function ServicesPage(
  { title, directory, type, location, invalidLocation }: {
    title: string;
    directory: Directory;
    type?: ProviderType;
    location?: LatLng;
    invalidLocation: boolean;
  },
) {
  const shown = directory.groups.reduce((n, g) => n + g.entries.length, 0);
  return (
    <>
      <section class="page-head page-head--services">
        <div class="container">
          <nav aria-label="Ruta de navegación" class="breadcrumbs">
            <ol>
              <li>
                <a href="/">Inicio</a>
              </li>
              <li aria-current="page">Servicios</li>
            </ol>
          </nav>
          <h1>{title}</h1>
          <p class="lead">
            Dónde dormir, dónde comer y con quién recorrer: teléfono, horario,
            precios, cómo llegar y qué atractivos tiene cerca cada lugar.
          </p>
        </div>
      </section>
      <section class="section services" id="lista" aria-label="Prestadores">
        <div class="container">
          <nav aria-label="Filtrar por tipo" class="filters">
            <ul>
              <li>
                <a
                  href={getDirectoryUrl({ location })}
                  aria-current={type ? undefined : "page"}
                >
                  Todos ({directory.total})
                </a>
              </li>
              {PROVIDER_TYPES.filter((kind) => directory.counts[kind] > 0)
                .map((kind) => (
                  <li key={kind}>
                    <a
                      href={getDirectoryUrl({ type: kind, location })}
                      aria-current={kind === type ? "page" : undefined}
                    >
                      {PROVIDER_TYPE_LABELS[kind].filter} (
                      {directory.counts[kind]})
                    </a>
                  </li>
                ))}
            </ul>
          </nav>
          <div class="services-order">
            {invalidLocation && (
              <p class="services-order__warning">
                No pudimos usar la ubicación de la dirección: deben ser una
                latitud y una longitud válidas, como 20.8826,-103.8366. Te
                mostramos el orden de hoy.
              </p>
            )}
            {location
              ? (
                <p class="services-order__rule">
                  <strong>
                    Ordenados por distancia desde tu ubicación
                  </strong>{" "}
                  (en línea recta; el camino puede ser más largo).{" "}
                  <a href={getDirectoryUrl({ type })}>Quitar mi ubicación</a>
                </p>
              )
              : <p class="services-order__rule">{ORDER_DISCLOSURE}</p>}
            <Island
              name="NearMe"
              component={NearMe}
              props={{ active: location !== undefined }}
            />
            <noscript>
              <p class="services-order__note">
                Para ordenar por distancia hace falta JavaScript; sin él ves el
                orden de hoy.
              </p>
            </noscript>
            <p class="services-order__note">
              Tu ubicación solo sirve para calcular las distancias de esta
              página: no la guardamos.
            </p>
          </div>
          <p class="sr-only" role="status">{shown} prestadores</p>
          {directory.groups.map(({ type: kind, entries }) => (
            <section
              class="services__group"
              aria-labelledby={`grupo-${kind}`}
              key={kind}
            >
              <h2 id={`grupo-${kind}`}>{PROVIDER_TYPE_LABELS[kind].heading}</h2>
              <div class="provider-grid">
                {entries.map((entry) => (
                  <ProviderCard entry={entry} key={entry.provider.slug} />
                ))}
              </div>
            </section>
          ))}
        </div>
      </section>
    </>
  );
}
