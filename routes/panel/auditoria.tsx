import type { AppDeps } from "@/deps.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import {
  AUDIT_ACTIONS,
  AUDIT_CSV_NAME,
  getAuditActionLabel,
  isAuditFiltered,
  listAuditRows,
  parseAuditQuery,
  requireAdmin,
  streamAuditCsv,
  toAuditSearch,
} from "@/lib/staff/mod.ts";
import { CSV_TYPE, sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** The page's words (`locales/<lang>/panel_audit.json`); the console is Spanish. */
const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_audit.${key}`, values);
}

/**
 * `GET /panel/auditoria[?persona=&accion=&desde=&hasta=&antes=<cursor>]`:
 * every staff action, newest first, 50 a page, in words (people by e-mail,
 * attractions by name, notes by attraction and date), filtered by person,
 * action and days (a plain GET form), with the time in the municipality's
 * time zone. `GET /auditoria.csv` with the same query: the filtered log as
 * CSV with a byte-order mark (audited). Admins only.
 */
export default function auditPage(deps: AppDeps) {
  const source = () => ({ kv: deps.kv, data: deps.data.current(), lang: LANG });
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
        title: tr("title"),
        active: "auditoria",
        children: (
          <>
            <p class="lead">{tr("lead", { municipality })}</p>
            <form
              class="dashboard__range"
              method="get"
              action="/panel/auditoria"
            >
              <fieldset>
                <legend>{tr("filter")}</legend>
                <label>
                  {tr("person")}
                  <input type="email" name="persona" value={query.person} />
                </label>
                <label>
                  {tr("action")}
                  <select name="accion">
                    <option value="">{tr("allActions")}</option>
                    {AUDIT_ACTIONS.map((action) => (
                      <option
                        key={action}
                        value={action}
                        selected={action === query.action}
                      >
                        {getAuditActionLabel(action, LANG)}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  {tr("from")}{" "}
                  <input type="date" name="desde" value={query.from} />
                </label>
                <label>
                  {tr("to")} <input type="date" name="hasta" value={query.to} />
                </label>
                <button class="button" type="submit">{tr("filter")}</button>
              </fieldset>
              {query.problem && (
                <p class="form-error" role="alert">
                  {tr(`problem.${query.problem}`)}
                </p>
              )}
            </form>
            <ul class="button-row">
              {isAuditFiltered(query) && (
                <li>
                  <a class="button button--ghost" href="/panel/auditoria">
                    {tr("clearFilter")}
                  </a>
                </li>
              )}
              <li>
                <a
                  class="button button--ghost"
                  href={`/panel/auditoria/auditoria.csv${search}`}
                  download="auditoria.csv"
                >
                  {tr(
                    isAuditFiltered(query) ? "downloadFiltered" : "downloadAll",
                  )}
                </a>
              </li>
            </ul>
            {page.rows.length === 0
              ? (
                <p role="status">
                  {tr(isAuditFiltered(query) ? "noneMatch" : "noneYet")}
                </p>
              )
              : (
                // Focusable: on a phone the table scrolls sideways.
                <div
                  class="table-scroll"
                  tabIndex={0}
                  role="region"
                  aria-label={tr("region")}
                >
                  <table class="console-table">
                    <caption class="sr-only">{tr("caption")}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{tr("colWhen")}</th>
                        <th scope="col">{tr("colPerson")}</th>
                        <th scope="col">{tr("colRole")}</th>
                        <th scope="col">{tr("colAction")}</th>
                        <th scope="col">{tr("colAbout")}</th>
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
                    {tr("newest")}
                  </a>
                </li>
              )}
              {page.cursor && (
                <li>
                  <a
                    class="button button--ghost"
                    href={more(`antes=${encodeURIComponent(page.cursor)}`)}
                  >
                    {tr("older")}
                  </a>
                </li>
              )}
            </ul>
          </>
        ),
      });
    });
}
