import type { AppDeps } from "@/deps.ts";
import { listStaffActions, type StaffAction } from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const PAGE_SIZE = 50;

const ACTION_LABEL: Record<StaffAction, string> = {
  signin: "Entró al panel",
  signout: "Salió del panel",
  session_ended: "Cerró la sesión de otra persona",
  access_removed: "Perdió el acceso (ya no está en STAFF)",
  code_replaced: "Reemplazó un código",
  note_hidden: "Ocultó una nota",
  note_shown: "Volvió a mostrar una nota",
  question_resolved: "Marcó una pregunta como resuelta",
  export_downloaded: "Descargó una exportación",
  erasure: "Borró datos personales",
  personal_data_exported: "Exportó los datos personales de una persona",
};

const METHOD_LABEL = {
  link: "con un enlace de acceso",
  provider: "con el proveedor de identidad",
} as const;

const ROLE_LABEL = { admin: "Administración", viewer: "Consulta" } as const;

/**
 * `GET /panel/auditoria[?antes=<cursor>]`: every staff action, newest first,
 * 50 a page, with the time in the municipality's time zone. Admins only.
 */
export default function auditPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/", requireAdmin(), async (c) => {
    const { timeZone, name: municipality } =
      deps.data.current().data.municipality;
    const cursor = c.req.query("antes");
    const page = await listStaffActions(deps.kv, {
      limit: PAGE_SIZE,
      cursor,
    });
    return renderPanelPage(c, deps, {
      title: "Auditoría",
      active: "auditoria",
      children: (
        <>
          <p class="lead">
            Cada acción del personal en el panel: quién, qué y cuándo (hora
            local de {municipality}). Se conserva un año.
          </p>
          {page.values.length === 0
            ? <p>Todavía no hay acciones registradas.</p>
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
                    {page.values.map((entry) => (
                      <tr key={entry.id}>
                        <td>
                          <time dateTime={entry.at}>
                            {formatDateTime(entry.at, timeZone)}
                          </time>
                        </td>
                        <td>{entry.staff.email || entry.staff.id}</td>
                        <td>{ROLE_LABEL[entry.staff.role]}</td>
                        <td>
                          {ACTION_LABEL[entry.action] ?? entry.action}
                          {entry.method && ` (${METHOD_LABEL[entry.method]})`}
                        </td>
                        <td>{entry.target ?? "—"}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          <ul class="button-row">
            {cursor && (
              <li>
                <a class="button button--ghost" href="/panel/auditoria">
                  Ver las más recientes
                </a>
              </li>
            )}
            {page.cursor && (
              <li>
                <a
                  class="button button--ghost"
                  href={`/panel/auditoria?antes=${
                    encodeURIComponent(page.cursor)
                  }`}
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
