import { Island } from "@/components/Island.tsx";
import { Breadcrumbs } from "@/components/PageNav.tsx";
import { ProviderCard, tServices } from "@/components/ProviderCard.tsx";
import type { AppDeps } from "@/deps.ts";
import NearMe from "@/islands/NearMe.tsx";
import { type LatLng, localizeData } from "@/lib/data/mod.ts";
import {
  getIslandMessages,
  type Lang,
  localizePath,
  tRich,
} from "@/lib/i18n/mod.ts";
import { getLang, getPublicOrigin } from "@/lib/http/mod.ts";
import { describeProviders, PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { JsonLd } from "@/components/JsonLd.tsx";
import {
  buildDirectory,
  type Directory,
  formatNear,
  getDirectoryUrl,
  parseNear,
  parseProviderType,
  PROVIDER_TYPES,
  type ProviderType,
} from "@/lib/services/mod.ts";
import { getLocalDayNumber } from "@/lib/calendar/mod.ts";
import { describePlaceHours, type PlaceHours } from "@/lib/hours/mod.ts";
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
    const lang = getLang(c);
    const tr = (key: string, values?: Record<string, string | number>) =>
      tServices(lang, key, values);
    // A kept page expires at the first provider's opening or closing (its
    // cards say "Abierto ahora · cierra a las 22:00"), as the attraction
    // pages do.
    const render = (
      _tag?: unknown,
      expireAt: (ms: number) => void = () => {},
    ) => {
      const data = localizeData(deps.data.current().data, lang);
      const directory = buildDirectory(data, {
        now,
        type,
        location: near.location,
      });
      const hours = new Map<string, PlaceHours>();
      for (const { entries } of directory.groups) {
        for (const { provider } of entries) {
          if (provider.openingHours === undefined) continue;
          const described = describePlaceHours(provider.openingHours, {
            now: now.getTime(),
            municipality: data.municipality,
            lang,
          });
          hours.set(provider.slug, described);
          expireAt(described.validUntilMs);
        }
      }
      const place = data.municipality.name;
      const title = type
        ? tr("titleType", { filter: tr("typeFilter", { type }), place })
        : tr("titleAll", { place });
      return renderPage(c, deps, {
        head: {
          title: `${title} · ${data.branding.name}`,
          description: tr("description", { place, count: directory.total }),
          shareTitle: title,
          // The canonical list has no location; a visitor's own is not indexed.
          url: localizePath(lang, getDirectoryUrl({ type })),
          robots: near.location ? "noindex" : undefined,
          query: {
            tipo: type,
            cerca: near.location && formatNear(near.location),
          },
        },
        body: (
          <>
            <JsonLd
              data={describeProviders(
                directory.groups.flatMap((g) =>
                  g.entries.map((e) => e.provider)
                ),
                {
                  pageUrl: (slug) =>
                    `${getPublicOrigin(c, deps.config)}${
                      localizePath(lang, `/turismo/servicios/${slug}`)
                    }`,
                },
              )}
            />
            <ServicesPage
              lang={lang}
              title={title}
              directory={directory}
              hours={hours}
              type={type}
              location={near.location}
              invalidLocation={near.invalid === true}
            />
          </>
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
  { lang, title, directory, hours, type, location, invalidLocation }: {
    lang: Lang;
    title: string;
    directory: Directory;
    /** Each provider's state now, by slug. */
    hours: Map<string, PlaceHours>;
    type?: ProviderType;
    location?: LatLng;
    invalidLocation: boolean;
  },
) {
  const shown = directory.groups.reduce((n, g) => n + g.entries.length, 0);
  const tr = (key: string, values?: Record<string, string | number>) =>
    tServices(lang, key, values);
  const url = (options: Parameters<typeof getDirectoryUrl>[0]) =>
    localizePath(lang, getDirectoryUrl(options));
  return (
    <>
      <section class="page-head page-head--services">
        <div class="container">
          <Breadcrumbs lang={lang} current={tr("services")} />
          <h1>{title}</h1>
          <p class="lead">{tr("lead")}</p>
        </div>
      </section>
      <section class="section services" id="lista" aria-label={tr("listLabel")}>
        <div class="container">
          <nav aria-label={tr("filtersLabel")} class="filters">
            <ul>
              <li>
                <a
                  href={url({ location })}
                  aria-current={type ? undefined : "page"}
                >
                  {tr("filterAll", { count: directory.total })}
                </a>
              </li>
              {PROVIDER_TYPES.filter((kind) => directory.counts[kind] > 0)
                .map((kind) => (
                  <li key={kind}>
                    <a
                      href={url({ type: kind, location })}
                      aria-current={kind === type ? "page" : undefined}
                    >
                      {tr("filterCount", {
                        label: tr("typeFilter", { type: kind }),
                        count: directory.counts[kind],
                      })}
                    </a>
                  </li>
                ))}
            </ul>
          </nav>
          <div class="services-order">
            {invalidLocation && (
              <p class="services-order__warning">
                {tr("invalidLocation")}
              </p>
            )}
            {location
              ? (
                <p class="services-order__rule">
                  {tRich(lang, "page_services.byDistance", {
                    strong: (chunks) => <strong>{chunks}</strong>,
                  })} <a href={url({ type })}>{tr("removeLocation")}</a>
                </p>
              )
              : <p class="services-order__rule">{tr("orderRule")}</p>}
            <Island
              name="NearMe"
              component={NearMe}
              props={{
                active: location !== undefined,
                ...getIslandMessages(lang, "nearme", { shared: ["location"] }),
              }}
            />
            <noscript>
              <p class="services-order__note">{tr("noScript")}</p>
            </noscript>
            <p class="services-order__note">{tr("locationNotKept")}</p>
          </div>
          <p class="sr-only" role="status">
            {tr("shownCount", { count: shown })}
          </p>
          {directory.groups.map(({ type: kind, entries }) => (
            <section
              class="services__group"
              aria-labelledby={`grupo-${kind}`}
              key={kind}
            >
              <h2 id={`grupo-${kind}`}>
                {tr("typeHeading", { type: kind })}
              </h2>
              <div class="provider-grid">
                {entries.map((entry) => (
                  <ProviderCard
                    entry={entry}
                    lang={lang}
                    hours={hours.get(entry.provider.slug)}
                    key={entry.provider.slug}
                  />
                ))}
              </div>
            </section>
          ))}
        </div>
      </section>
    </>
  );
}
