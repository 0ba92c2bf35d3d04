import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Island } from "@/components/Island.tsx";
import type { AppDeps } from "@/deps.ts";
import CopyButton from "@/islands/CopyButton.tsx";
import { getLocalClockTime } from "@/lib/calendar/mod.ts";
import { formatDate } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { type AppEnv, getPublicOrigin, readForm } from "@/lib/http/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";
import {
  changeStaffRole,
  checkStaffRemoval,
  getStaff,
  inviteStaffMember,
  issueStaffLink,
  listStaff,
  parseStaffEmail,
  parseStaffRole,
  removeStaff,
  requireAdmin,
  StaffChangeError,
  type StaffChangeProblem,
} from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** Each refusal's status; its words are `panel_staff.problem.<problem>`. */
const PROBLEM_STATUS: Record<StaffChangeProblem, ContentfulStatusCode> = {
  invalid_email: 400,
  invalid_role: 400,
  exists: 409,
  full: 409,
  missing: 404,
  unchanged: 409,
  bootstrap: 409,
  self: 409,
  last_admin: 409,
};

/** The notices an address may ask for (`?aviso=`): `panel_staff.notice.<name>`. */
const NOTICES = new Set(["rol", "quitada"]);

/** The page's words (`locales/<lang>/panel_staff.json`); the console is Spanish. */
const LANG = DEFAULT_LANG;

function tr(key: string, values?: Record<string, string | number>): string {
  return t(LANG, `panel_staff.${key}`, values);
}

/** A sign-in link just made: shown once, never in an address or a log. */
interface ShownLink {
  email: string;
  url: string;
  expiresAt: Date;
}

/**
 * `/panel/personal` (admins): who is on the staff (`STAFF`, set in the
 * server's configuration, which the console cannot change, the people
 * added here, and the admin looking, whoever let them in), an
 * invitation by e-mail that shows a single-use sign-in link to hand over
 * (`POST /invitar`; a new one: `POST /enlace`), a change of role
 * (`POST /rol`) and a removal whose sessions end at once: the row's button
 * posts to `POST /quitar/confirmar`, which changes nothing and asks to
 * confirm; its button posts to `POST /quitar`. Each change is in the audit
 * log.
 */
export default function staffPage(deps: AppDeps) {
  const manage = { kv: deps.kv, now: deps.now, config: deps.config };
  const render = async (
    c: Context<AppEnv>,
    { link, problem }: { link?: ShownLink; problem?: StaffChangeProblem } = {},
  ) => {
    const { timeZone } = deps.data.current().data.municipality;
    const me = getStaff(c);
    const staff = await listStaff(manage, { signedIn: me });
    const notice = c.req.query("aviso") ?? "";
    return renderPanelPage(c, deps, {
      title: tr("title"),
      active: "personal",
      status: problem ? PROBLEM_STATUS[problem] : undefined,
      children: (
        <>
          <p class="lead">{tr("lead")}</p>
          {NOTICES.has(notice) && (
            <p class="notice notice--ok" role="status">
              {tr(`notice.${notice}`)}
            </p>
          )}
          {problem && (
            <p class="form-error" role="alert">{tr(`problem.${problem}`)}</p>
          )}
          {link && (
            <LinkReveal link={link} timeZone={timeZone} now={deps.now()} />
          )}
          <form
            class="dashboard__range"
            method="post"
            action="/panel/personal/invitar"
          >
            <fieldset>
              <legend>{tr("invite")}</legend>
              <label>
                {tr("email")}
                <input type="email" name="correo" required autocomplete="off" />
              </label>
              <label>
                {tr("role")}
                <select name="rol">
                  <option value="viewer">{tr("role.viewer")}</option>
                  <option value="editor">{tr("role.editor")}</option>
                  <option value="admin">{tr("role.admin")}</option>
                </select>
              </label>
              <button class="button" type="submit">{tr("inviteButton")}</button>
            </fieldset>
          </form>
          <h2>{tr("listTitle")}</h2>
          <p>{tr("listRules")}</p>
          <p>{tr("adminRules")}</p>
          <div
            class="table-scroll"
            tabIndex={0}
            role="region"
            aria-label={tr("listTitle")}
          >
            <table class="console-table">
              <caption class="sr-only">{tr("caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{tr("colPerson")}</th>
                  <th scope="col">{tr("colRole")}</th>
                  <th scope="col">{tr("colSource")}</th>
                  <th scope="col">{tr("colActions")}</th>
                </tr>
              </thead>
              <tbody>
                {staff.map((entry) => (
                  <tr key={entry.identity} data-person={entry.identity}>
                    <td>
                      {entry.identity}
                      {(entry.identity === me.email ||
                        entry.identity === me.id) && ` ${tr("you")}`}
                    </td>
                    <td>{tr(`role.${entry.role}`)}</td>
                    <td>
                      {entry.source === "console"
                        ? tr("source.console", {
                          by: entry.addedBy ?? "",
                          date: formatDate(entry.addedAt!, timeZone, LANG),
                        })
                        : tr(`source.${entry.source}`)}
                    </td>
                    <td>
                      {entry.source === "bootstrap"
                        ? tr("onlyOnServer")
                        : entry.source === "session"
                        ? "—"
                        : entry.identity === me.email
                        ? (entry.role === "admin"
                          ? <OwnActions email={entry.identity} />
                          : "—")
                        : (
                          <MemberActions
                            email={entry.identity}
                            role={entry.role}
                          />
                        )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ),
    });
  };
  const attempt = async (
    c: Context<AppEnv>,
    change: () => Promise<Response>,
  ) => {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof StaffChangeError)) throw error;
      return await render(c, { problem: error.problem });
    }
  };

  return createPanelRouter(deps)
    .use(requireAdmin())
    .get("/", (c) => render(c))
    .post("/invitar", (c) =>
      attempt(c, async () => {
        const form = await readForm(c);
        const email = parseStaffEmail(form.correo);
        const made = await inviteStaffMember(manage, {
          email,
          role: parseStaffRole(form.rol),
          by: getStaff(c),
          baseUrl: getPublicOrigin(c, deps.config),
        });
        return await render(c, { link: { email, ...made } });
      }))
    .post("/enlace", (c) =>
      attempt(c, async () => {
        const email = parseStaffEmail((await readForm(c)).correo);
        const made = await issueStaffLink(manage, {
          email,
          by: getStaff(c),
          baseUrl: getPublicOrigin(c, deps.config),
        });
        return await render(c, { link: { email, ...made } });
      }))
    .post("/rol", (c) =>
      attempt(c, async () => {
        const form = await readForm(c);
        const email = parseStaffEmail(form.correo);
        const role = parseStaffRole(form.rol);
        const me = getStaff(c);
        await changeStaffRole(manage, { email, role, by: me });
        // An admin who passed themself to viewer no longer sees this page.
        return email === me.email && role === "viewer"
          ? c.redirect("/panel", 303)
          : c.redirect("/panel/personal?aviso=rol", 303);
      }))
    .post("/quitar/confirmar", (c) =>
      attempt(c, async () => {
        const email = parseStaffEmail((await readForm(c)).correo);
        // The refusals of the removal itself, in its order.
        await checkStaffRemoval(manage, { email, by: getStaff(c) });
        return renderPanelPage(c, deps, {
          title: tr("removeTitle", { email }),
          active: "personal",
          children: <RemovalConfirmation email={email} />,
        });
      }))
    .post("/quitar", (c) =>
      attempt(c, async () => {
        await removeStaff(manage, {
          email: parseStaffEmail((await readForm(c)).correo),
          by: getStaff(c),
        });
        return c.redirect("/panel/personal?aviso=quitada", 303);
      }));
}

/** A console member's row: a new role, a new link, removal. */
function MemberActions({ email, role }: { email: string; role: string }) {
  const others = (["admin", "editor", "viewer"] as const).filter((r) =>
    r !== role
  );
  const label = {
    admin: "makeAdmin",
    editor: "makeEditor",
    viewer: "makeViewer",
  };
  return (
    <ul class="button-row staff-actions">
      {others.map((other) => (
        <li key={other}>
          <form method="post" action="/panel/personal/rol">
            <input type="hidden" name="correo" value={email} />
            <input type="hidden" name="rol" value={other} />
            <button class="button button--ghost" type="submit">
              {tr(label[other])}
              <span class="sr-only">{` ${tr("toPerson", { email })}`}</span>
            </button>
          </form>
        </li>
      ))}
      <li>
        <form method="post" action="/panel/personal/enlace">
          <input type="hidden" name="correo" value={email} />
          <button class="button button--ghost" type="submit">
            {tr("newLink")}
            <span class="sr-only">{` ${tr("forPerson", { email })}`}</span>
          </button>
        </form>
      </li>
      <li>
        <form method="post" action="/panel/personal/quitar/confirmar">
          <input type="hidden" name="correo" value={email} />
          <button class="button button--danger" type="submit">
            {tr("remove")}
            <span class="sr-only">{` ${tr("toPerson", { email })}`}</span>
          </button>
        </form>
      </li>
    </ul>
  );
}

/**
 * The admin's own row: passing themself to viewer (refused while no other
 * admin is left); never their own removal.
 */
function OwnActions({ email }: { email: string }) {
  return (
    <form method="post" action="/panel/personal/rol">
      <input type="hidden" name="correo" value={email} />
      <input type="hidden" name="rol" value="viewer" />
      <button class="button button--ghost" type="submit">
        {tr("ownToViewer")}
      </button>
      <small>{` ${tr("ownToViewerNote")}`}</small>
    </form>
  );
}

/**
 * The step between the row's button and the removal: who, what happens,
 * a button that posts the removal, and a cancel that changes nothing.
 */
function RemovalConfirmation({ email }: { email: string }) {
  return (
    <section class="code-confirm" aria-label={tr("confirmRegion")}>
      <p class="code-confirm__consequence">{tr("removeConsequence")}</p>
      <p>{tr("removeAfter")}</p>
      <form
        class="code-confirm__actions"
        method="post"
        action="/panel/personal/quitar"
      >
        <input type="hidden" name="correo" value={email} />
        <button class="button button--danger" type="submit">
          {tr("removeConfirm")}
        </button>{" "}
        <a class="button button--ghost" href="/panel/personal">
          {tr("cancel")}
        </a>
      </form>
    </section>
  );
}

/**
 * The sign-in link, once, with a copy button (the page's one script). The
 * link breaks anywhere, so it stays inside its box at any width; its end
 * is said in words ("hasta el 1 de diciembre de 2026 a las 18:01").
 */
function LinkReveal(
  { link, timeZone, now }: { link: ShownLink; timeZone: string; now: Date },
) {
  const assets = getAssets();
  const expires = link.expiresAt.toISOString();
  return (
    <section
      class="notice notice--ok code-reveal"
      aria-labelledby="enlace-titulo"
    >
      <h2 id="enlace-titulo" class="code-reveal__title">
        {tr("linkTitle", { email: link.email })}
      </h2>
      <p>
        <code id="enlace-acceso" class="code-reveal__link">{link.url}</code>
      </p>
      <Island
        name="CopyButton"
        component={CopyButton}
        props={{
          text: link.url,
          label: tr("copyLink"),
          copied: t(LANG, "panel_frame.copied"),
          failed: t(LANG, "panel_frame.copyFailed"),
        }}
      />
      <p>
        {tr("linkNote", {
          date: formatDate(expires, timeZone, LANG),
          time: getLocalClockTime(link.expiresAt, timeZone),
          minutes: Math.round(
            (link.expiresAt.getTime() - now.getTime()) / 60_000,
          ),
        })}
      </p>
      {assets && <script type="module" src={assets.client} />}
    </section>
  );
}
