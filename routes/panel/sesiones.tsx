import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import {
  endStaffSession,
  listStaffSessions,
  STAFF_IDLE_MS,
  STAFF_MAX_AGE_MS,
} from "@/lib/db/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { type Lang, negotiateLang, t } from "@/lib/i18n/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR_MS = 60 * 60 * 1000;

/**
 * `GET /panel/sesiones`: every open staff session (who, role, how they
 * signed in, when, last activity; never a session's id), each with a
 * button that ends it: `POST /panel/sesiones/:ref/cerrar`, audited, after
 * which that session's next request, on any instance, is a stranger's.
 * Admins only. The panel lives at one address, so the words follow the
 * browser's `Accept-Language` (Spanish or English).
 */
export default function staffSessionsPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .get("/", requireAdmin(), async (c) => {
      const lang = getPanelLang(c);
      const tr = (key: string, values?: Record<string, string | number>) =>
        t(lang, `panel.${key}`, values);
      const { timeZone } = deps.data.current().data.municipality;
      const when = (iso: string) => formatDateTime(iso, timeZone, lang);
      const me = getStaff(c);
      const sessions = await listStaffSessions(deps.kv, { now: deps.now() });
      return renderPanelPage(c, deps, {
        title: tr("sessionsTitle"),
        active: "sesiones",
        children: (
          <div lang={lang}>
            {c.req.query("aviso") === "cerrada" && (
              <p class="notice" role="status">{tr("sessionsEnded")}</p>
            )}
            <p class="lead">
              {tr("sessionsLead", {
                idleHours: STAFF_IDLE_MS / HOUR_MS,
                maxHours: STAFF_MAX_AGE_MS / HOUR_MS,
              })}
            </p>
            {sessions.length === 0
              ? <p>{tr("sessionsNone")}</p>
              : (
                <div class="table-scroll">
                  <table class="console-table">
                    <caption class="sr-only">{tr("sessionsCaption")}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{tr("colPerson")}</th>
                        <th scope="col">{tr("colRole")}</th>
                        <th scope="col">{tr("colMethod")}</th>
                        <th scope="col">{tr("colStarted")}</th>
                        <th scope="col">{tr("colLastSeen")}</th>
                        <th scope="col">{tr("colEnds")}</th>
                        <th scope="col">{tr("colAction")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {sessions.map((session) => {
                        const person = session.staff.email || session.staff.id;
                        return (
                          <tr key={session.ref} data-session={session.ref}>
                            <td>
                              {person}
                              {session.staff.id === me.id && ` ${tr("you")}`}
                            </td>
                            <td>
                              {tr(
                                session.staff.role === "admin"
                                  ? "roleAdmin"
                                  : session.staff.role === "editor"
                                  ? "roleEditor"
                                  : "roleViewer",
                              )}
                            </td>
                            <td>
                              {tr(
                                session.method === "link"
                                  ? "methodLink"
                                  : "methodProvider",
                              )}
                            </td>
                            <td>
                              <time dateTime={session.createdAt}>
                                {when(session.createdAt)}
                              </time>
                            </td>
                            <td>
                              <time dateTime={session.lastSeenAt}>
                                {when(session.lastSeenAt)}
                              </time>
                            </td>
                            <td>
                              <time dateTime={session.endsAt}>
                                {when(session.endsAt)}
                              </time>
                            </td>
                            <td>
                              <form
                                method="post"
                                action={`/panel/sesiones/${session.ref}/cerrar`}
                              >
                                <button
                                  class="button button--ghost"
                                  type="submit"
                                >
                                  {tr("endButton")}
                                  <span class="sr-only">
                                    {` ${tr("endButtonWhose", { person })}`}
                                  </span>
                                </button>
                              </form>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
          </div>
        ),
      });
    })
    .post("/:ref/cerrar", requireAdmin(), async (c) => {
      const ref = c.req.param("ref");
      const ended = UUID.test(ref)
        ? await endStaffSession(deps.kv, {
          ref,
          by: getStaff(c),
          now: deps.now(),
        })
        : null;
      if (!ended) return c.notFound();
      return c.redirect("/panel/sesiones?aviso=cerrada", 303);
    });
}

/** The panel's words in the browser's language: it has one address for all. */
function getPanelLang(c: Context<AppEnv>): Lang {
  return negotiateLang(c.req.header("accept-language"));
}
