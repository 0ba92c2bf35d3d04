import type { AppDeps } from "@/deps.ts";
import type { StaffAction } from "@/lib/db/mod.ts";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_CSV_NAME,
  isAuditFiltered,
  listAuditRows,
  parseAuditQuery,
  requireAdmin,
  streamAuditCsv,
  toAuditSearch,
} from "@/lib/staff/mod.ts";
import { CSV_TYPE, sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const PROBLEM = {
  invalid: "Una de las fechas no es válida: se muestra sin filtro de fechas.",
  reversed:
    "La fecha de inicio es posterior a la final: se muestra sin filtro de fechas.",
};

/**
 * `GET /panel/auditoria[?persona=&accion=&desde=&hasta=&antes=<cursor>]`:
 * every staff action, newest first, 50 a page, in words (people by e-mail,
 * attractions by name, notes by attraction and date), filtered by person,
 * action and days (a plain GET form), with the time in the municipality's
 * time zone. `GET /auditoria.csv` with the same query: the filtered log as
 * CSV with a byte-order mark (audited). Admins only.
 */
export default function auditPage(deps: AppDeps) {
  const source = () => ({ kv: deps.kv, data: deps.data.current() });
  return createPanelRouter(deps)
    .use(requireAdmin())
    .get("/auditoria.csv", (c) =>
      sendStaffDownload(c, deps, {
        file: AUDIT_CSV_NAME,
        type: CSV_TYPE,
        body: streamAuditCsv(source(), parseAuditQuery(c.req.query())),
      }))
    .get("/", async (c) => {
      const { name: municipality } = deps.data.current().data.municipality;
      const query = parseAuditQuery(c.req.query());
      const cursor = c.req.query("antes");
      const page = await listAuditRows(source(), query, { cursor });
      const search = toAuditSearch(query);
      const more = (extra: string) =>
        `/panel/auditoria${search ? `${search}&` : "?"}${extra}`;
      return renderPanelPage(c, deps, {
        title: "Auditoría",
        active: "auditoria",
        children: (
          <>
            <p class="lead">
              Cada acción del personal en el panel: quién, qué, sobre qué y
              cuándo (hora local de {municipality}). Se conserva un año.
            </p>
            <form
              class="dashboard__range"
              method="get"
              action="/panel/auditoria"
            >
              <fieldset>
                <legend>Filtrar</legend>
                <label>
                  Persona (correo)
                  <input type="email" name="persona" value={query.person} />
                </label>
                <label>
                  Acción
                  <select name="accion">
                    <option value="">Todas</option>
                    {(Object.entries(AUDIT_ACTION_LABELS) as [
                      StaffAction,
                      string,
                    ][]).map(([action, label]) => (
                      <option
                        key={action}
                        value={action}
                        selected={action === query.action}
                      >
                        {label}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Desde <input type="date" name="desde" value={query.from} />
                </label>
                <label>
                  Hasta <input type="date" name="hasta" value={query.to} />
                </label>
                <button class="button" type="submit">Filtrar</button>
              </fieldset>
              {query.problem && (
                <p class="form-error" role="alert">{PROBLEM[query.problem]}</p>
              )}
            </form>
            <ul class="button-row">
              {isAuditFiltered(query) && (
                <li>
                  <a class="button button--ghost" href="/panel/auditoria">
                    Quitar el filtro
                  </a>
                </li>
              )}
              <li>
                <a
                  class="button button--ghost"
                  href={`/panel/auditoria/auditoria.csv${search}`}
                  download="auditoria.csv"
                >
                  {isAuditFiltered(query)
                    ? "Descargar lo filtrado (CSV)"
                    : "Descargar todo (CSV)"}
                </a>
              </li>
            </ul>
            {page.rows.length === 0
              ? (
                <p role="status">
                  {isAuditFiltered(query)
                    ? "Ninguna acción coincide con el filtro."
                    : "Todavía no hay acciones registradas."}
                </p>
              )
              : (
                // Focusable: on a phone the table scrolls sideways.
                <div
                  class="table-scroll"
                  tabIndex={0}
                  role="region"
                  aria-label="Bitácora de auditoría"
                >
                  <table class="console-table">
                    <caption class="sr-only">
                      Acciones del personal, de la más reciente a la más antigua
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">Fecha y hora</th>
                        <th scope="col">Persona</th>
                        <th scope="col">Rol</th>
                        <th scope="col">Acción</th>
                        <th scope="col">Sobre</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.rows.map((row) => (
                        <tr key={row.id}>
                          <td>
                            <time dateTime={row.at}>{row.when}</time>
                          </td>
                          <td>{row.person}</td>
                          <td>{row.role}</td>
                          <td>{row.action}</td>
                          <td>{row.about}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            <ul class="button-row">
              {cursor && (
                <li>
                  <a
                    class="button button--ghost"
                    href={`/panel/auditoria${search}`}
                  >
                    Ver las más recientes
                  </a>
                </li>
              )}
              {page.cursor && (
                <li>
                  <a
                    class="button button--ghost"
                    href={more(`antes=${encodeURIComponent(page.cursor)}`)}
                  >
                    Ver anteriores
                  </a>
                </li>
              )}
            </ul>
          </>
        ),
      });
    });
}
