import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import {
  getOpenDataUpdatedAt,
  MIN_PEOPLE,
  OPEN_DATA_FILES,
} from "@/lib/open_data/mod.ts";
import type { OpenDataLicense } from "@/lib/config/mod.ts";
import { Icon } from "@/components/Icon.tsx";
import { localizeData } from "@/lib/data/mod.ts";
import { formatDate } from "@/lib/format/mod.ts";
import { type Lang, localizePath, t, tRich } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/** The files' columns, as their header rows name them (Spanish: open data is for machines). */
const COLUMNS = [
  "fecha",
  "mes",
  "atractivo",
  "nombre",
  "visitas",
  "calificaciones",
  "promedio",
];

/** A message of this page (`locales/<lang>/page_data.json`). */
function tData(
  lang: Lang,
  key: string,
  values?: Record<string, string | number>,
): string {
  return t(lang, `page_data.${key}`, values);
}

/** A licence's title in `lang`: a known one's from the catalogue, an operator's own as configured. */
function getLicenseTitle(lang: Lang, license: OpenDataLicense): string {
  return tData(lang, "licenseTitle", {
    id: license.name.replace(/[^A-Za-z0-9]/g, "_"),
    title: license.title,
  });
}

/**
 * `/datos`: the open data for anyone (and a city's open-data portal) to
 * take: what each file holds, its licence, when it was last brought up to
 * date, and the rule that keeps anyone from being singled out. The page
 * speaks the visitor's language; the files stay Spanish (their column
 * names are an interface), which the English page says.
 */
export default function openDataPage(deps: AppDeps) {
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const lang = getLang(c);
        const tr = (key: string, values?: Record<string, string | number>) =>
          tData(lang, key, values);
        const data = localizeData(deps.data.current().data, lang);
        const { name, timeZone } = data.municipality;
        const license = deps.config.openDataLicense;
        const updated = getOpenDataUpdatedAt(deps.now(), timeZone).slice(0, 10);
        const title = tr("title", { name });
        const link = (href: string) => (chunks: ComponentChildren) => (
          <a href={href}>{chunks}</a>
        );
        return renderPage(c, deps, {
          head: {
            title: `${title} · ${data.branding.name}`,
            description: tr("description", { name, license: license.name }),
            shareTitle: title,
            url: localizePath(lang, "/datos"),
          },
          body: (
            <>
              <section class="page-head page-head--info">
                <div class="container">
                  <h1>{title}</h1>
                  <p class="lead">{tr("lead")}</p>
                  {data.meta.demo && (
                    <p class="demo-mark">
                      <Icon name="info" /> {tr("demo")}
                    </p>
                  )}
                </div>
              </section>
              <div class="container open-data">
                <h2>{tr("files")}</h2>
                <ul class="data-files">
                  <li>
                    {tRich(lang, "page_data.visitsFile", {
                      link: link(`/datos/${OPEN_DATA_FILES.visits}`),
                    })}
                  </li>
                  <li>
                    {tRich(lang, "page_data.ratingsFile", {
                      link: link(`/datos/${OPEN_DATA_FILES.ratings}`),
                    })}
                  </li>
                  <li>
                    {tRich(lang, "page_data.redemptionsFile", {
                      link: link(`/datos/${OPEN_DATA_FILES.redemptions}`),
                    })}
                  </li>
                  <li>
                    {tRich(lang, "page_data.descriptorFile", {
                      link: link(`/datos/${OPEN_DATA_FILES.descriptor}`),
                    })}
                  </li>
                </ul>
                <h2>{tr("howMade")}</h2>
                <ul class="plain-list">
                  <li>{tr("format", { name })}</li>
                  <li>{tr("noPersonalData", { min: MIN_PEOPLE })}</li>
                  <li>{tr("closedPeriods")}</li>
                  <li>{tr("noTotals", { min: MIN_PEOPLE })}</li>
                  <li>
                    {tr("updated", {
                      date: formatDate(updated, timeZone, lang),
                    })}
                  </li>
                  <li>
                    {tRich(lang, "page_data.license", {
                      title: getLicenseTitle(lang, license),
                      name: license.name,
                      source: data.branding.name,
                      link: link(license.path),
                    })}
                  </li>
                </ul>
                <h2>{tr("columns")}</h2>
                <p>{tr("columnsIntro")}</p>
                <dl class="data-columns">
                  {COLUMNS.map((column) => (
                    <div key={column}>
                      <dt>
                        <code lang="es">{column}</code>
                      </dt>
                      <dd>{tr("column", { column })}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            </>
          ),
        });
      }),
  );
}
