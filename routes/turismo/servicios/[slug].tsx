import { AttractionCard } from "@/components/AttractionCard.tsx";
import { Icon } from "@/components/Icon.tsx";
import { Breadcrumbs } from "@/components/PageNav.tsx";
import { DataText } from "@/components/DataText.tsx";
import {
  ContactLinks,
  PriceRange,
  ProviderLanguages,
  tServices,
} from "@/components/ProviderCard.tsx";
import type { AppDeps } from "@/deps.ts";
import { PhotoGallery } from "@/components/PhotoGallery.tsx";
import type { PhotoSources } from "@/lib/photos/mod.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { formatDistance, formatMoney } from "@/lib/format/mod.ts";
import { type Lang, localizePath, tRich } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { loadPagePhotos, PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { getDirectoryUrl, getProviderPage } from "@/lib/services/mod.ts";
import { describePlaceHours, type PlaceHours } from "@/lib/hours/mod.ts";
import { DaysHoursTable, HoursNow } from "@/components/OpeningHours.tsx";
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
      // Its "Abierto ahora" line and days' table expire the kept page at
      // their next change or the municipality's midnight (`expireAt`).
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, async (tag, expireAt) => {
        const lang = getLang(c);
        const data = localizeData(deps.data.current().data, lang);
        const page = getProviderPage(data, c.req.param("slug"));
        if (!page) return renderNotFoundPage(c, deps);
        const { provider } = page;
        const photos = await loadPagePhotos(deps.photos, [provider.photos], {
          lang,
          tag,
        });
        const hours = provider.openingHours === undefined
          ? undefined
          : describePlaceHours(provider.openingHours, {
            now: deps.now().getTime(),
            municipality: data.municipality,
            lang,
            days: 7,
          });
        if (hours) expireAt(hours.validUntilMs);
        return renderPage(c, deps, {
          head: {
            title: `${provider.name} · ${data.branding.name}`,
            description: provider.description,
            shareTitle: provider.name,
            url: localizePath(lang, `/turismo/servicios/${provider.slug}`),
          },
          body: (
            <ProviderPage
              page={page}
              lang={lang}
              photos={photos.of(provider.photos)}
              hours={hours}
            />
          ),
        });
      }),
  );
}

function ProviderPage(
  { page, lang, photos, hours }: {
    page: ProviderPageData;
    lang: Lang;
    /** The provider's photos the library holds, in the data set's order. */
    photos: PhotoSources[];
    hours?: PlaceHours;
  },
) {
  const { provider, nearby, dishes, packages } = page;
  const tr = (key: string, values?: Record<string, string | number>) =>
    tServices(lang, key, values);
  const { type } = provider;
  return (
    <>
      <section class="page-head page-head--services">
        <div class="container">
          <Breadcrumbs
            lang={lang}
            trail={[
              { href: "/turismo/servicios", label: tr("services") },
              {
                href: getDirectoryUrl({ type }),
                label: tr("typeFilter", { type }),
              },
            ]}
            current={provider.name}
          />
          <p class="chip chip--light">{tr("typeChip", { type })}</p>
          <h1>{provider.name}</h1>
          <p class="lead">
            <DataText of={provider} field="description" lang={lang} />
          </p>
          {hours && <HoursNow line={hours.line} until={hours.validUntilMs} />}
        </div>
      </section>

      {photos.length > 0 && (
        <div class="container">
          <PhotoGallery photos={photos} lang={lang} eagerFirst />
        </div>
      )}
      <div class="container detail">
        <aside class="detail__aside" aria-labelledby="contacto-title">
          <div class="panel">
            <h2 id="contacto-title" class="panel__title">
              {tr("contactTitle")}
            </h2>
            <dl class="facts">
              <div>
                <dt>
                  <Icon name="cash" /> {tr("prices")}
                </dt>
                <dd>
                  <PriceRange range={provider.priceRange} lang={lang} />
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="calendar" /> {tr("schedule")}
                </dt>
                <dd>
                  {hours && <DaysHoursTable days={hours.days} lang={lang} />}
                  {provider.schedule && (
                    <span class="facts__note">
                      <DataText of={provider} field="schedule" lang={lang} />
                    </span>
                  )}
                  {!hours && !provider.schedule && tr("noSchedule")}
                </dd>
              </div>
              <div>
                <dt>
                  <Icon name="pin" /> {tr("address")}
                </dt>
                <dd>{provider.address}</dd>
              </div>
              {provider.languages && (
                <div>
                  <dt>
                    <Icon name="chat" /> {tr("languages")}
                  </dt>
                  <dd>
                    <ProviderLanguages provider={provider} lang={lang} />
                  </dd>
                </div>
              )}
            </dl>
            <ContactLinks provider={provider} lang={lang} full />
          </div>
        </aside>
        <div class="detail__main">
          {dishes.length > 0 && (
            <section aria-labelledby="probar-title">
              <h2 id="probar-title">{tr("whatToTry")}</h2>
              <ul class="plain-list">
                {dishes.map((dish) => (
                  <li key={dish.dish}>
                    <strong>{dish.dish}</strong>:{" "}
                    <DataText of={dish} field="description" lang={lang} />
                  </li>
                ))}
              </ul>
            </section>
          )}
          {packages.length > 0 && (
            <section aria-labelledby="paquetes-title">
              <h2 id="paquetes-title">{tr("packagesTitle")}</h2>
              <ul class="plain-list">
                {packages.map((pkg) => (
                  <li key={pkg.slug}>
                    {tRich(lang, "page_services.packageItem", {
                      name: <DataText of={pkg} field="name" lang={lang} />,
                      price: formatMoney(pkg.price, undefined, lang),
                      per: tr("per", { per: pkg.per }),
                      description: (
                        <DataText of={pkg} field="description" lang={lang} />
                      ),
                      strong: (chunks) => <strong>{chunks}</strong>,
                    })}
                  </li>
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="antes-title">
            <h2 id="antes-title">{tr("beforeYouGo")}</h2>
            <p>{tr("beforeYouGoText")}</p>
          </section>
        </div>
      </div>

      <section class="section section--tinted" aria-labelledby="cerca-title">
        <div class="container">
          <h2 id="cerca-title">{tr("nearby")}</h2>
          <div class="grid">
            {nearby.map(({ attraction, distanceKm }) => (
              <AttractionCard
                attraction={attraction}
                lang={lang}
                extra={tr("nearbyDistance", {
                  distance: formatDistance(distanceKm, lang),
                })}
                key={attraction.slug}
              />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
