import type { AttractionIndexView } from "@/lib/staff/mod.ts";
import { PeriodForm } from "./Dashboard.tsx";

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
        Abre un atractivo para ver sus visitas por día y por hora, sus
        calificaciones, sus notas y cómo se registra la visita.
      </p>
      <div class="table-scroll">
        <table class="console-table">
          <caption>Atractivos: visitas {view.period} y calificaciones</caption>
          <thead>
            <tr>
              <th scope="col">Atractivo</th>
              <th scope="col">Visitas del periodo</th>
              <th scope="col">Calificación promedio</th>
              <th scope="col">Calificaciones</th>
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
