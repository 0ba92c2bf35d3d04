import type { AppDeps } from "@/deps.ts";
import { recordStaffAction } from "@/lib/db/mod.ts";
import {
  buildDailyVisitsCsv,
  buildMonthlyRatingsCsv,
  MIN_PEOPLE,
  OPEN_DATA_FILES,
  streamRatingsWithNotesCsv,
} from "@/lib/open_data/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { csvResponse } from "@/routes/datos/files.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** The admins' full ratings, notes included: never public. */
const RATINGS_WITH_NOTES = "calificaciones-con-notas.csv";

/** Staff downloads are one person's copy: not kept by any cache. */
const PRIVATE = { "Cache-Control": "private, no-store" };

/**
 * The UTF-8 byte-order mark: Excel on Windows opens a CSV without one as
 * the local code page ("DestilerÃ­a"). Staff downloads only: the files at
 * /datos stay plain UTF-8, the interface harvesters read.
 */
const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** `csv` after a byte-order mark, for a spreadsheet on the staff's desk. */
function withBom(csv: string | ReadableStream<Uint8Array>): BodyInit {
  if (typeof csv === "string") return new Blob([BOM, csv]);
  return csv.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start: (controller) => controller.enqueue(BOM),
    }),
  );
}

/**
 * `/panel/exportar`: the open data as staff download it (the same files as
 * /datos), and for admins every rating with its notes (times on the
 * municipality's clock). Each file starts with a UTF-8 byte-order mark, for
 * Excel; each download is recorded in the audit log.
 */
export default function exportPage(deps: AppDeps) {
  const source = () => ({
    kv: deps.kv,
    data: deps.data.current().data,
    now: deps.now(),
  });
  const audit = (c: Parameters<typeof getStaff>[0], file: string) =>
    recordStaffAction(deps.kv, {
      staff: getStaff(c),
      action: "export_downloaded",
      target: file,
      at: deps.now(),
    });

  return createPanelRouter(deps)
    .get("/", (c) => {
      const isAdmin = getStaff(c).role === "admin";
      return renderPanelPage(c, deps, {
        title: "Datos abiertos y exportaciones",
        active: "exportar",
        children: (
          <>
            <p class="lead">
              Los mismos archivos que cualquiera puede descargar en{" "}
              <a href="/datos">/datos</a>: sin datos personales y con las cifras
              menores que {MIN_PEOPLE}{" "}
              en blanco. Cada descarga queda en la auditoría.
            </p>
            <ul>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.visits}`} download>
                  Visitas diarias por atractivo (CSV)
                </a>
              </li>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.ratings}`} download>
                  Calificaciones mensuales por atractivo (CSV)
                </a>
              </li>
              {isAdmin && (
                <li>
                  <a href={`/panel/exportar/${RATINGS_WITH_NOTES}`} download>
                    Todas las calificaciones con sus notas (CSV)
                  </a>{" "}
                  — incluye las palabras de los turistas y las notas ocultas:
                  solo para uso interno.
                </li>
              )}
            </ul>
          </>
        ),
      });
    })
    .get(`/${OPEN_DATA_FILES.visits}`, async (c) => {
      const csv = await buildDailyVisitsCsv(source());
      await audit(c, OPEN_DATA_FILES.visits);
      return csvResponse(withBom(csv), OPEN_DATA_FILES.visits, PRIVATE);
    })
    .get(`/${OPEN_DATA_FILES.ratings}`, async (c) => {
      const csv = await buildMonthlyRatingsCsv(source());
      await audit(c, OPEN_DATA_FILES.ratings);
      return csvResponse(withBom(csv), OPEN_DATA_FILES.ratings, PRIVATE);
    })
    .get(`/${RATINGS_WITH_NOTES}`, requireAdmin(), async (c) => {
      await audit(c, RATINGS_WITH_NOTES);
      return csvResponse(
        withBom(streamRatingsWithNotesCsv(source())),
        RATINGS_WITH_NOTES,
        PRIVATE,
      );
    });
}
