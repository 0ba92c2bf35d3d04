import type { AppDeps } from "@/deps.ts";
import {
  buildDailyVisitsCsv,
  buildMonthlyRatingsCsv,
  MIN_PEOPLE,
  OPEN_DATA_FILES,
  streamRatingsWithNotesCsv,
} from "@/lib/open_data/mod.ts";
import {
  buildStaffWorkbook,
  getStaff,
  parseReportMonth,
  requireAdmin,
} from "@/lib/staff/mod.ts";
import { CSV_TYPE, sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** The staff's own figures, exact: never public. */
const WORKBOOK = "libro.xlsx";
const WORKBOOK_NAME = "turismo-cifras.xlsx";

/** The admins' full ratings, notes included: never public. */
const RATINGS_WITH_NOTES = "calificaciones-con-notas.csv";

/**
 * `/panel/exportar`: the staff's own figures (the monthly report as PDF,
 * the workbook with exact counts, the posters), the open data as /datos
 * publishes it (small counts blanked), and for admins every rating with its notes (times on the
 * municipality's clock). Each file starts with a UTF-8 byte-order mark, for
 * Excel; each download is recorded in the audit log.
 */
export default function exportPage(deps: AppDeps) {
  const source = () => ({
    kv: deps.kv,
    data: deps.data.current().data,
    now: deps.now(),
  });
  const csv = (
    c: Parameters<typeof sendStaffDownload>[0],
    file: string,
    body: string | ReadableStream<Uint8Array>,
  ) => sendStaffDownload(c, deps, { file, type: CSV_TYPE, body });

  return createPanelRouter(deps)
    .get("/", (c) => {
      const isAdmin = getStaff(c).role === "admin";
      const { timeZone } = deps.data.current().data.municipality;
      const lastMonth = parseReportMonth(undefined, {
        now: deps.now(),
        timeZone,
      });
      return renderPanelPage(c, deps, {
        title: "Datos abiertos y exportaciones",
        active: "exportar",
        children: (
          <>
            <h2>Tus cifras</h2>
            <p class="lead">
              Para la oficina: cifras exactas, sin nada en blanco. Cada descarga
              queda en la auditoría.
            </p>
            <ul>
              <li>
                <a href={`/panel/informe?mes=${lastMonth}`} download>
                  Informe mensual para el cabildo, {lastMonth} (PDF)
                </a>{" "}
                — cifras del mes y del anterior, visitas por día, atractivos más
                visitados y preguntas sin respuesta. Otro mes:{" "}
                <code>/panel/informe?mes=AAAA-MM</code>.
              </li>
              <li>
                <a href={`/panel/exportar/${WORKBOOK}`} download>
                  Libro de Excel con todas las tablas (XLSX)
                </a>{" "}
                — visitas por día y atractivo, calificaciones por mes, notas,
                pasaportes, boletos y preguntas al asistente; fechas y horas de
                {" "}
                {timeZone}.
              </li>
              {isAdmin && (
                <li>
                  <a href="/panel/carteles.pdf" download>
                    Carteles de todos los atractivos (PDF)
                  </a>{" "}
                  — uno por página, con el código guía vigente, listos para
                  imprimir.
                </li>
              )}
              {isAdmin && (
                <li>
                  <a href={`/panel/exportar/${RATINGS_WITH_NOTES}`} download>
                    Todas las calificaciones con sus notas (CSV)
                  </a>{" "}
                  — incluye las palabras de los turistas: solo para uso interno.
                  Las notas ocultas salen vacías y marcadas; su texto solo está
                  en <a href="/panel/notas">Notas</a>.
                </li>
              )}
            </ul>
            <h2>Datos abiertos (públicos)</h2>
            <p>
              Los mismos archivos que cualquiera puede descargar en{" "}
              <a href="/datos">/datos</a>: sin datos personales y con las cifras
              menores que {MIN_PEOPLE}{" "}
              en blanco, así que no son tus cifras exactas: para eso está el
              libro de Excel.
            </p>
            <ul>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.visits}`} download>
                  Visitas diarias por atractivo, como se publican (CSV)
                </a>
              </li>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.ratings}`} download>
                  Calificaciones mensuales por atractivo, como se publican (CSV)
                </a>
              </li>
            </ul>
          </>
        ),
      });
    })
    .get(
      `/${OPEN_DATA_FILES.visits}`,
      async (c) =>
        csv(c, OPEN_DATA_FILES.visits, await buildDailyVisitsCsv(source())),
    )
    .get(
      `/${OPEN_DATA_FILES.ratings}`,
      async (c) =>
        csv(c, OPEN_DATA_FILES.ratings, await buildMonthlyRatingsCsv(source())),
    )
    .get(`/${WORKBOOK}`, async (c) =>
      sendStaffDownload(c, deps, {
        file: WORKBOOK_NAME,
        type:
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        body: await buildStaffWorkbook(source()),
        target: WORKBOOK,
      }))
    .get(
      `/${RATINGS_WITH_NOTES}`,
      requireAdmin(),
      (c) => csv(c, RATINGS_WITH_NOTES, streamRatingsWithNotesCsv(source())),
    );
}
