import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Icon } from "@/components/Icon.tsx";
import { ContactLinks, PriceRange } from "@/components/ProviderCard.tsx";
import type { AppDeps } from "@/deps.ts";
import { formatDistance, formatMoney } from "@/lib/format/format.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import {
  getDirectoryUrl,
  getProviderPage,
  PROVIDER_TYPE_LABELS,
} from "@/lib/services/directory.ts";
import {
  createPageRouter,
  renderNotFoundPage,
  renderPage,
} from "@/routes/_app.tsx";

type ProviderPageData = NonNullable<ReturnType<typeof getProviderPage>>;

/** `/turismo/servicios/<slug>`: one hotel, restaurant or guide. */
export default function provider(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/:slug",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const { data } = deps.data.current();
        const page = getProviderPage(data, c.req.param("slug"));
        if (!page) return renderNotFoundPage(c, deps);
        const { provider } = page;
        return renderPage(c, deps, {
          head: {
            title: `${provider.name} · ${data.branding.name}`,
            description: provider.description,
            shareTitle: provider.name,
            url: `/turismo/servicios/${provider.slug}`,
          },
          body: <ProviderPage page={page} />,
        });
      }),
  );
}

function ProviderPage({ page }: { page: ProviderPageData }) {
  const { provider, nearby, dishes, packages } = page;
  const labels = PROVIDER_TYPE_LABELS[provider.type];
  return (
    <>
      <section class="page-head page-head--services">
        <div class="container">
          <nav aria-label="Ruta de navegación" class="breadcrumbs">
            <ol>
              <li>
                <a href="/">Inicio</a>
              </li>
              <li>
                <a href="/turismo/servicios">Servicios</a>
              </li>
              <li>
                <a href={getDirectoryUrl({ type: provider.type })}>
                  {labels.filter}
                </a>
              </li>
              <li aria-current="page">{provider.name}</li>
            </ol>
          </nav>
          <p class="chip chip--light">{labels.chip}</p>
          <h1>{provider.name}</h1>
          <p class="lead">{provider.description}</p>
        </div>
      </section>

      <div class="container detail">
        <aside class="detail__aside" aria-labelledby="contacto-title">
          <div class="panel">
            <h2 id="contacto-title" class="panel__title">Datos y contacto</h2>
            <dl class="facts">
              <div>
                <dt>
                  <Icon name="cash" /> Precios
                </dt>
                <dd>
                  <PriceRange range={provider.priceRange} />
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="calendar" /> Horario
                </dt>
                <dd>
                  {provider.schedule ??
                    "Pregunta por teléfono antes de ir."}
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="pin" /> Dirección
                </dt>
                <dd>{provider.address}</dd>
              </div>
              {provider.languages && (
                <div>
                  <dt>
                    <Icon name="chat" /> Idiomas
                  </dt>
                  <dd>{provider.languages.join(", ")}</dd>
                </div>
              )}
            </dl>
            <ContactLinks provider={provider} full />
          </div>
        </aside>
        <div class="detail__main">
          {dishes.length > 0 && (
            <section aria-labelledby="probar-title">
              <h2 id="probar-title">Qué probar aquí</h2>
              <ul class="plain-list">
                {dishes.map((dish) => (
                  <li key={dish.dish}>
                    <strong>{dish.dish}</strong>: {dish.description}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {packages.length > 0 && (
            <section aria-labelledby="paquetes-title">
              <h2 id="paquetes-title">Paquetes que ofrece</h2>
              <ul class="plain-list">
                {packages.map((pkg) => (
                  <li key={pkg.slug}>
                    <strong>{pkg.name}</strong> ({formatMoney(pkg.price)} por
                    {" "}
                    {pkg.per}): {pkg.description}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="antes-title">
            <h2 id="antes-title">Antes de ir</h2>
            <p>
              Los datos los proporciona el prestador; confirma precios y
              horarios por teléfono, sobre todo en temporada alta y días
              festivos.
            </p>
          </section>
        </div>
      </div>

      <section class="section section--tinted" aria-labelledby="cerca-title">
        <div class="container">
          <h2 id="cerca-title">Atractivos cerca</h2>
          <div class="grid">
            {nearby.map(({ attraction, distanceKm }) => (
              <AttractionCard
                attraction={attraction}
                extra={`A ${formatDistance(distanceKm)} en línea recta`}
                key={attraction.slug}
              />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
