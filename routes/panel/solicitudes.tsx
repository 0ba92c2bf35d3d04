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
import { DEFAULT_LANG, t, tRich } from "@/lib/i18n/mod.ts";
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

/** The page's words (`locales/<lang>/panel_requests.json`); the console is Spanish. */
const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_requests.${key}`, values);
}

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
        title: tr("title"),
        active: "solicitudes",
        children: (
          <>
            <p class="lead">{tr("lead")}</p>
            {erasure && (
              <p
                class="notice notice--ok"
                role="status"
                data-erasure-state={erasure.state}
              >
                {tr(
                  erasure.state === "done" ? "erasureDone" : "erasureRunning",
                )}{" "}
                <a href={`/panel/solicitudes?borrado=${erasure.id}`}>
                  {tr("refresh")}
                </a>
              </p>
            )}
            <form method="get" action="/panel/solicitudes" class="panel">
              <label>
                {tr("email")}
                <input type="email" name="correo" value={email} required />
              </label>
              <button class="button" type="submit">{tr("search")}</button>
            </form>
            {email && found.length === 0 && <p>{tr("none")}</p>}
            <ul class="moderation-list">
              {found.map(({ shareCode, name, createdAt, summary }) => (
                <li key={shareCode} class="panel" data-share-code={shareCode}>
                  <p>
                    {tRich(LANG, "panel_requests.ticket", {
                      name,
                      shareCode,
                      date: formatDate(createdAt, timeZone, LANG),
                      b: (children) => <strong>{children}</strong>,
                      code: (children) => <code>{children}</code>,
                    })}
                  </p>
                  <p>
                    {tr("summary", {
                      visits: summary.visits,
                      ratings: summary.ratings,
                      notes: summary.notes,
                      badges: summary.badges,
                      sessions: summary.sessions,
                      identities: summary.identities,
                    })}
                  </p>
                  <p>
                    <a
                      class="button button--ghost"
                      href={`/panel/solicitudes/${shareCode}/datos.json`}
                    >
                      {tr("download")}
                    </a>
                  </p>
                  <form
                    method="post"
                    action={`/panel/solicitudes/${shareCode}/borrar`}
                  >
                    <label>
                      <input type="checkbox" name="confirmo" value="si" />{" "}
                      {tr("confirm")}
                    </label>
                    <button class="button button--danger" type="submit">
                      {tr("erase")}
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
          title: tr("unconfirmedTitle"),
          active: "solicitudes",
          status: 400,
          children: (
            <p class="lead">
              {tr("unconfirmed")}{" "}
              <a
                href={`/panel/solicitudes?correo=${
                  encodeURIComponent(ticket.email)
                }`}
              >
                {tr("back")}
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
