import type { AttractionIndexView } from "@/lib/staff/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { PeriodForm } from "./Dashboard.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

const integer = new Intl.NumberFormat("es-MX");

/**
 * The console's list of attractions (`/panel/atractivos`), as its
 * presenter (lib/staff/attraction.ts `loadAttractionIndex`) gives it: the
 * period, then one row per attraction with a link to its page, its visits
 * in the period and its ratings.
 */
export function AttractionIndex({ view }: { view: AttractionIndexView }) {
  return (
    <div class="dashboard attraction-index">
      <PeriodForm action="/panel/atractivos" view={view} />
      <p class="lead">
        {t(LANG, "panel_figures.ui.indexLead")}
      </p>
      <div class="table-scroll">
        <table class="console-table">
          <caption>
            {t(LANG, "panel_figures.ui.indexCaption", { period: view.period })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t(LANG, "panel_figures.col.attraction")}</th>
              <th scope="col">{t(LANG, "panel_figures.ui.colPeriodVisits")}</th>
              <th scope="col">{t(LANG, "panel_figures.ui.colAverage")}</th>
              <th scope="col">{t(LANG, "panel_figures.col.ratings")}</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => (
              <tr key={row.slug}>
                <th scope="row">
                  <a href={row.href}>{row.name}</a>
                </th>
                <td>{integer.format(row.visits)}</td>
                <td>{row.average}</td>
                <td>{integer.format(row.ratings)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
