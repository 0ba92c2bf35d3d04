import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { type AppEnv, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import {
  getTicket,
  hashShareCode,
  isPersonalIndexBackfilled,
  listShareCodesByEmail,
} from "@/lib/db/mod.ts";
import { formatDate } from "@/lib/format/mod.ts";
import {
  exportPersonalData,
  getErasureStatus,
  getExportFileName,
  requestErasure,
  runErasure,
  summarizeExport,
} from "@/lib/personal_data/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { isShareCode } from "@/lib/tickets/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/panel/solicitudes` (admins): a person's request about their data that
 * arrives by e-mail. Staff find the tickets by e-mail address, see what is
 * held (counts only), download it for the person (`GET
 * /:code/datos.json`) or erase it (`POST /:code/borrar`, with a
 * confirmation box); both recorded in the audit log, naming the erasure
 * or a hash of the ticket, never the person.
 */
export default function requestsPage(deps: AppDeps) {
  const findTicket = async (c: Context<AppEnv>) => {
    const code = c.req.param("code") ?? "";
    const ticket = isShareCode(code) ? await getTicket(deps.kv, code) : null;
    if (!ticket) return null;
    return ticket;
  };

  return createPanelRouter(deps)
    .use("*", requireAdmin())
    .get("/", async (c) => {
      const { timeZone } = deps.data.current().data.municipality;
      const email = (c.req.query("correo") ?? "").trim().slice(0, 254);
      const erasureId = c.req.query("borrado") ?? "";
      const erasure = UUID.test(erasureId)
        ? await getErasureStatus(deps, erasureId).catch(() => null)
        : null;
      const found = email ? await findByEmail(email) : [];
      return renderPanelPage(c, deps, {
        title: "Solicitudes de datos personales",
        active: "solicitudes",
        children: (
          <>
            <p class="lead">
              Cuando una persona pide por correo ver, llevarse o borrar sus
              datos, búscala aquí por el correo de su boleto. Cada descarga y
              cada borrado quedan en la auditoría.
            </p>
            {erasure && (
              <p
                class="notice notice--ok"
                role="status"
                data-erasure-state={erasure.state}
              >
                {erasure.state === "done"
                  ? "Borrado terminado: no queda nada de esa persona."
                  : "Borrado en proceso: su página de ruta ya no se ve; el resto se termina de borrar solo (también si el gestor de contenidos no responde ahora)."}
                {" "}
                <a href={`/panel/solicitudes?borrado=${erasure.id}`}>
                  Actualizar
                </a>
              </p>
            )}
            <form method="get" action="/panel/solicitudes" class="panel">
              <label>
                Correo electrónico de la persona
                <input type="email" name="correo" value={email} required />
              </label>
              <button class="button" type="submit">Buscar</button>
            </form>
            {email && found.length === 0 && (
              <p>No hay boletos con ese correo.</p>
            )}
            <ul class="moderation-list">
              {found.map(({ shareCode, name, createdAt, summary }) => (
                <li key={shareCode} class="panel" data-share-code={shareCode}>
                  <p>
                    <strong>{name}</strong> · código <code>{shareCode}</code>
                    {" "}
                    · boleto del {formatDate(createdAt, timeZone)}
                  </p>
                  <p>
                    {summary.visits} visitas, {summary.ratings} calificaciones,
                    {" "}
                    {summary.notes} notas, {summary.badges} insignias,{" "}
                    {summary.sessions} sesiones, {summary.identities}{" "}
                    cuentas vinculadas.
                  </p>
                  <p>
                    <a
                      class="button button--ghost"
                      href={`/panel/solicitudes/${shareCode}/datos.json`}
                    >
                      Descargar sus datos
                    </a>
                  </p>
                  <form
                    method="post"
                    action={`/panel/solicitudes/${shareCode}/borrar`}
                  >
                    <label>
                      <input type="checkbox" name="confirmo" value="si" />{" "}
                      La persona pidió borrar sus datos y confirmé que el correo
                      es suyo.
                    </label>
                    <button class="button button--danger" type="submit">
                      Borrar sus datos
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </>
        ),
      });
    })
    .get("/:code/datos.json", async (c) => {
      const ticket = await findTicket(c);
      if (!ticket) return c.notFound();
      const exported = await exportPersonalData(deps, {
        userId: ticket.userId,
        shareCodes: [ticket.shareCode],
        origin: getPublicOrigin(c, deps.config),
      });
      return await sendStaffDownload(c, deps, {
        file: getExportFileName(deps.now()),
        type: "application/json; charset=UTF-8",
        body: JSON.stringify(exported, null, 2),
        action: "personal_data_exported",
        target: `ticket:${
          (await hashShareCode(ticket.shareCode)).slice(0, 12)
        }`,
      });
    })
    .post("/:code/borrar", async (c) => {
      const ticket = await findTicket(c);
      if (!ticket) return c.notFound();
      const form = await readForm(c);
      if (form.confirmo !== "si") {
        return renderPanelPage(c, deps, {
          title: "Falta confirmar",
          active: "solicitudes",
          status: 400,
          children: (
            <p class="lead">
              Marca la casilla para confirmar que la persona pidió borrar sus
              datos.{" "}
              <a
                href={`/panel/solicitudes?correo=${
                  encodeURIComponent(ticket.email)
                }`}
              >
                Volver
              </a>
            </p>
          ),
        });
      }
      const requested = await requestErasure(deps, {
        userId: ticket.userId,
        shareCodes: [ticket.shareCode],
        origin: "staff",
        staff: getStaff(c),
      });
      await runErasure(deps, requested.id, { waitForCaches: false });
      return c.redirect(`/panel/solicitudes?borrado=${requested.id}`, 303);
    });

  async function findByEmail(email: string) {
    const codes = await listShareCodesByEmail(deps.kv, email, {
      indexed: await isPersonalIndexBackfilled(deps.kv),
    });
    const found = [];
    for (const code of codes) {
      const ticket = await getTicket(deps.kv, code);
      if (!ticket) continue;
      const exported = await exportPersonalData(deps, {
        userId: ticket.userId,
        shareCodes: [code],
        origin: "",
      });
      found.push({
        shareCode: ticket.shareCode,
        name: ticket.name,
        createdAt: ticket.createdAt,
        summary: summarizeExport(exported),
      });
    }
    return found;
  }
}
