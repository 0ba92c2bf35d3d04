import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { getPublicOrigin } from "@/lib/http/mod.ts";
import { createRouter } from "@/lib/http/router.ts";
import {
  buildDailyVisitsCsv,
  buildDataPackage,
  buildMonthlyRatingsCsv,
  buildMonthlyRedemptionsCsv,
  OPEN_DATA_FILES,
} from "@/lib/open_data/mod.ts";
import { csvResponse } from "@/routes/_shared/download.ts";

/** Harvesters poll; the visits change once a day, the ratings as given. */
const OPEN_DATA_HEADERS = {
  "Cache-Control": "public, max-age=900",
  // Public, credential-free data: any site may read it.
  "Access-Control-Allow-Origin": "*",
};

/** An open data CSV answer: public, cached a while, readable from any site. */
function openCsv(body: BodyInit, name: string): Response {
  return csvResponse(body, name, OPEN_DATA_HEADERS);
}

/**
 * The open data's files: `GET /datos/visitas-diarias.csv`,
 * `/datos/calificaciones-mensuales.csv`,
 * `/datos/premios-canjeados-mensuales.csv` and `/datos/datapackage.json`
 * (lib/open_data/open_data.ts says what is in them).
 */
export default function openDataFiles(deps: AppDeps) {
  const source = () => ({
    kv: deps.kv,
    data: deps.data.current().data,
    now: deps.now(),
  });
  return createRouter()
    .get(
      `/${OPEN_DATA_FILES.visits}`,
      async () =>
        openCsv(
          await buildDailyVisitsCsv(source()),
          OPEN_DATA_FILES.visits,
        ),
    )
    .get(`/${OPEN_DATA_FILES.ratings}`, async () =>
      openCsv(
        await buildMonthlyRatingsCsv(source()),
        OPEN_DATA_FILES.ratings,
      ))
    .get(`/${OPEN_DATA_FILES.redemptions}`, async () =>
      openCsv(
        await buildMonthlyRedemptionsCsv(source()),
        OPEN_DATA_FILES.redemptions,
      ))
    .get(`/${OPEN_DATA_FILES.descriptor}`, (c: Context) =>
      c.json(
        buildDataPackage({
          ...source(),
          license: deps.config.openDataLicense,
          origin: getPublicOrigin(c, deps.config),
        }),
        200,
        OPEN_DATA_HEADERS,
      ));
}
