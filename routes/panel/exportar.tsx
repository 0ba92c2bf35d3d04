import type { AppDeps } from "@/deps.ts";
import { negotiateLang } from "@/lib/i18n/mod.ts";
import {
  buildDailyVisitsCsv,
  buildMonthlyRatingsCsv,
  MIN_PEOPLE,
  OPEN_DATA_FILES,
  streamRatingsWithNotesCsv,
} from "@/lib/open_data/mod.ts";
import {
  buildStaffWorkbook,
  formatReportMonth,
  getStaff,
  loadExportMonths,
  parseExportMonth,
  requireAdmin,
} from "@/lib/staff/mod.ts";
import { CSV_TYPE, sendStaffDownload } from "@/routes/_shared/download.ts";
import { renderMonthProblem, sayExports } from "./_exports.tsx";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** The staff's own figures, exact: never public. */
const WORKBOOK = "libro.xlsx";

/** The admins' full ratings, notes included: never public. */
const RATINGS_WITH_NOTES = "calificaciones-con-notas.csv";

/**
 * `/panel/exportar`: the staff's own figures (the monthly report as PDF
 * and the workbook with exact counts, each for the month picked, the
 * posters), the open data as /datos publishes it (small counts blanked),
 * and for admins every rating with its notes (times on the municipality's
 * clock). Each file starts with a UTF-8 byte-order mark, for Excel; each
 * download is recorded in the audit log. The page's words follow the
 * browser's language; the files are in Spanish, the office's.
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
    .get("/", async (c) => {
      const lang = negotiateLang(c.req.header("accept-language"));
      const say = (key: string, values?: Record<string, string | number>) =>
        sayExports(lang, key, values);
      const isAdmin = getStaff(c).role === "admin";
      const { data } = deps.data.current();
      const months = await loadExportMonths(deps.kv, {
        now: deps.now(),
        timeZone: data.municipality.timeZone,
      });
      const picker = (id: string, label: string) => (
        <label for={id}>
          {label}
          <select id={id} name="mes">
            {months.map((month, i) => (
              <option key={month} value={month} selected={i === 0}>
                {say(i === 0 ? "monthRunning" : "month", {
                  month: formatReportMonth(month, lang),
                })}
              </option>
            ))}
          </select>
        </label>
      );
      return renderPanelPage(c, deps, {
        title: say("pageTitle"),
        active: "exportar",
        children: (
          <div lang={lang}>
            <h2>{say("yoursHeading")}</h2>
            <p class="lead">
              {say("yoursLead", { place: data.municipality.name })}
            </p>
            <h3>{say("reportHeading")}</h3>
            <p>{say("reportHint")}</p>
            <form class="dashboard__range" method="get" action="/panel/informe">
              <fieldset>
                {picker("mes-informe", say("reportMonth"))}
                <button class="button" type="submit">
                  {say("reportButton")}
                </button>
              </fieldset>
            </form>
            <h3>{say("workbookHeading")}</h3>
            <p>{say("workbookHint")}</p>
            <form
              class="dashboard__range"
              method="get"
              action={`/panel/exportar/${WORKBOOK}`}
            >
              <fieldset>
                {picker("mes-libro", say("workbookMonth"))}
                <button class="button" type="submit">
                  {say("workbookButton")}
                </button>
              </fieldset>
            </form>
            {isAdmin && (
              <>
                <h3>{say("postersHeading")}</h3>
                <p>
                  <a href="/panel/carteles.pdf" download>
                    {say("postersAll")}
                  </a>{" "}
                  {say("postersAllHint")}
                </p>
                <details>
                  <summary>{say("postersOne")}</summary>
                  <ul>
                    {data.attractions.map((a) => (
                      <li key={a.slug}>
                        <a
                          href={`/panel/carteles.pdf?atractivo=${
                            encodeURIComponent(a.slug)
                          }`}
                          download
                        >
                          {say("posterLink", { name: a.name })}
                        </a>
                      </li>
                    ))}
                  </ul>
                </details>
                <h3>{say("notesHeading")}</h3>
                <p>
                  <a href={`/panel/exportar/${RATINGS_WITH_NOTES}`} download>
                    {say("notesLink")}
                  </a>{" "}
                  {say("notesHint")}{" "}
                  <a href="/panel/notas">{say("notesPage")}</a>
                </p>
              </>
            )}
            <h2>{say("openHeading")}</h2>
            <p>
              {say("openLead", { min: MIN_PEOPLE })}{" "}
              <a href="/datos">{say("openPage")}</a>
            </p>
            <ul>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.visits}`} download>
                  {say("openVisits")}
                </a>
              </li>
              <li>
                <a href={`/panel/exportar/${OPEN_DATA_FILES.ratings}`} download>
                  {say("openRatings")}
                </a>
              </li>
            </ul>
          </div>
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
    .get(`/${WORKBOOK}`, async (c) => {
      const { now, data } = source();
      const choice = parseExportMonth(c.req.query("mes"), {
        now,
        timeZone: data.municipality.timeZone,
        fallback: "current",
      });
      if (choice.problem) {
        return renderMonthProblem(c, deps, {
          problem: choice.problem,
          lang: negotiateLang(c.req.header("accept-language")),
        });
      }
      return await sendStaffDownload(c, deps, {
        file: `turismo-cifras-${choice.month}.xlsx`,
        type:
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        body: await buildStaffWorkbook({ ...source(), month: choice.month }),
        target: WORKBOOK,
      });
    })
    .get(
      `/${RATINGS_WITH_NOTES}`,
      requireAdmin(),
      (c) => csv(c, RATINGS_WITH_NOTES, streamRatingsWithNotesCsv(source())),
    );
}
