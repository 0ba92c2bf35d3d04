import { PrivacyNotice } from "@/components/PrivacyNotice.tsx";
import type { AppDeps } from "@/deps.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { localizePath, t } from "@/lib/i18n/mod.ts";
import { getLang } from "@/lib/http/mod.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/mod.ts";
import { listPersonalRecords } from "@/lib/personal_data/mod.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/**
 * `/aviso-de-privacidad`: the privacy notice (integral, with its simplified
 * summary), from the data set's responsible office and the record table of
 * lib/personal_data, so the periods it states are the ones the code keeps.
 * The Spanish notice is the legally binding one; `/en/aviso-de-privacidad`
 * is its translation and says so.
 */
export default function privacyNotice(deps: AppDeps) {
  const { config } = deps;
  const records = listPersonalRecords(config);
  const cmsHost = config.wordpress && new URL(config.wordpress.url).host;
  const modelHost = config.openai.baseUrl &&
    new URL(config.openai.baseUrl).host;
  // `{s}.` stands for any of the host's subdomains: named by its domain.
  const mapHost = config.mapTiles.imageSource.replace(/^\w+:\/\/(\*\.)?/, "");
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const lang = getLang(c);
        const data = localizeData(deps.data.current().data, lang);
        const brand = data.branding.name;
        return renderPage(c, deps, {
          head: {
            title: `${t(lang, "page_privacy.title")} · ${brand}`,
            description: t(lang, "page_privacy.description", {
              municipality: data.municipality.name,
            }),
            shareTitle: t(lang, "page_privacy.shareTitle", { brand }),
            url: localizePath(lang, "/aviso-de-privacidad"),
          },
          body: (
            <PrivacyNotice
              lang={lang}
              brandName={brand}
              municipality={data.municipality}
              privacy={data.privacy}
              demo={data.meta.demo}
              records={records}
              cmsHost={cmsHost || undefined}
              modelHost={modelHost || undefined}
              mapHost={mapHost}
            />
          ),
        });
      }),
  );
}
