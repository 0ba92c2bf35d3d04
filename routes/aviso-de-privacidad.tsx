import { PrivacyNotice } from "@/components/PrivacyNotice.tsx";
import type { AppDeps } from "@/deps.ts";
import { PAGE_TTL_MS, servePage } from "@/lib/pages/page_cache.ts";
import { listPersonalRecords } from "@/lib/personal_data/retention.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";

/**
 * `/aviso-de-privacidad`: the privacy notice (integral, with its simplified
 * summary), from the data set's responsible office and the record table of
 * lib/personal_data, so the periods it states are the ones the code keeps.
 */
export default function privacyNotice(deps: AppDeps) {
  const { config } = deps;
  const records = listPersonalRecords(config);
  const cmsHost = config.wordpress && new URL(config.wordpress.url).host;
  const modelHost = config.openai.baseUrl &&
    new URL(config.openai.baseUrl).host;
  return createPageRouter(deps).get(
    "/",
    (c) =>
      servePage(c, deps, { ttlMs: PAGE_TTL_MS }, () => {
        const { data } = deps.data.current();
        return renderPage(c, deps, {
          head: {
            title: `Aviso de privacidad · ${data.branding.name}`,
            description:
              `Qué datos personales recaba el portal turístico de ${data.municipality.name}, para qué, a dónde van, cuánto tiempo se guardan y cómo consultarlos, corregirlos o borrarlos.`,
            shareTitle: `Aviso de privacidad de ${data.branding.name}`,
            url: "/aviso-de-privacidad",
          },
          body: (
            <PrivacyNotice
              brandName={data.branding.name}
              municipality={data.municipality}
              privacy={data.privacy}
              demo={data.meta.demo}
              records={records}
              cmsHost={cmsHost || undefined}
              modelHost={modelHost || undefined}
            />
          ),
        });
      }),
  );
}
