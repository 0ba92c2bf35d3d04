import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { Island } from "@/components/Island.tsx";
import type { AppDeps } from "@/deps.ts";
import CopyButton from "@/islands/CopyButton.tsx";
import { formatDate, formatDateTime } from "@/lib/format/mod.ts";
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
  ROLE_LABELS,
  StaffChangeError,
  type StaffChangeProblem,
} from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "./_page.tsx";

/** What each refusal says, and its status. */
const PROBLEMS: Record<StaffChangeProblem, [ContentfulStatusCode, string]> = {
  invalid_email: [400, "Escribe un correo electrónico válido."],
  invalid_role: [400, "Elige un rol: Consulta o Administración."],
  exists: [
    409,
    "Esa persona ya está en el personal: cambia su rol o hazle un enlace nuevo en la lista.",
  ],
  full: [
    409,
    "El panel ya tiene el máximo de personas; quita a alguien antes de invitar a otra.",
  ],
  missing: [404, "Esa persona ya no está en la lista del panel."],
  unchanged: [409, "Esa persona ya tiene ese rol."],
  bootstrap: [
    409,
    "Esa persona está en STAFF, la lista del servidor: su acceso y su rol solo se cambian ahí.",
  ],
  self: [
    409,
    "No puedes quitarte a ti del panel: pídeselo a otra persona administradora.",
  ],
  last_admin: [
    409,
    "No se cambió nada: el panel se quedaría sin ninguna persona administradora. Antes, da el rol de Administración a otra persona (o a ti: si no estás en la lista, invítate con ese rol).",
  ],
};

const NOTICES: Record<string, string> = {
  rol: "Listo: se cambió el rol. Vale desde su siguiente clic.",
  quitada: "Listo: la persona ya no tiene acceso y sus sesiones se cerraron.",
};

/** A sign-in link just made: shown once, never in an address or a log. */
interface ShownLink {
  email: string;
  url: string;
  expiresAt: Date;
}

/**
 * `/panel/personal` (admins): who is on the staff (`STAFF`, the server's
 * list, which the console cannot change, and the people added here), an
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
    const staff = await listStaff(manage);
    const me = getStaff(c);
    const notice = NOTICES[c.req.query("aviso") ?? ""];
    return renderPanelPage(c, deps, {
      title: "Personal",
      active: "personal",
      status: problem ? PROBLEMS[problem][0] : undefined,
      children: (
        <>
          <p class="lead">
            Quién entra al panel y con qué rol. Al invitar a alguien no se envía
            nada: te damos un enlace de acceso de un solo uso para que se lo
            hagas llegar. Cada cambio queda en la auditoría.
          </p>
          {notice && <p class="notice notice--ok" role="status">{notice}</p>}
          {problem && (
            <p class="form-error" role="alert">{PROBLEMS[problem][1]}</p>
          )}
          {link && <LinkReveal link={link} timeZone={timeZone} />}
          <form
            class="dashboard__range"
            method="post"
            action="/panel/personal/invitar"
          >
            <fieldset>
              <legend>Invitar a una persona</legend>
              <label>
                Correo electrónico
                <input type="email" name="correo" required autocomplete="off" />
              </label>
              <label>
                Rol
                <select name="rol">
                  <option value="viewer">Consulta</option>
                  <option value="admin">Administración</option>
                </select>
              </label>
              <button class="button" type="submit">Invitar</button>
            </fieldset>
          </form>
          <h2>Personal con acceso</h2>
          <p>
            Las personas de <code>STAFF</code>{" "}
            (la lista del servidor) no se pueden quitar ni cambiar de rol desde
            aquí: solo en esa variable. Quitar a alguien cierra sus sesiones al
            instante. Un enlace nuevo anula el anterior que no se haya usado.
          </p>
          <p>
            El panel nunca se queda sin una persona administradora: a la última
            no se la puede pasar a consulta ni quitar. Tú puedes pasarte a
            consulta si queda otra; quitarte del panel, no: pídeselo a otra
            persona administradora.
          </p>
          <div
            class="table-scroll"
            tabIndex={0}
            role="region"
            aria-label="Personal con acceso"
          >
            <table class="console-table">
              <caption class="sr-only">Personal con acceso al panel</caption>
              <thead>
                <tr>
                  <th scope="col">Persona</th>
                  <th scope="col">Rol</th>
                  <th scope="col">Origen</th>
                  <th scope="col">Acciones</th>
                </tr>
              </thead>
              <tbody>
                {staff.map((entry) => (
                  <tr key={entry.identity} data-person={entry.identity}>
                    <td>
                      {entry.identity}
                      {entry.identity === me.email && " (tú)"}
                    </td>
                    <td>{ROLE_LABELS[entry.role]}</td>
                    <td>
                      {entry.source === "bootstrap"
                        ? "STAFF (servidor)"
                        : `Invitada por ${entry.addedBy} el ${
                          formatDate(entry.addedAt!, timeZone)
                        }`}
                    </td>
                    <td>
                      {entry.source === "bootstrap"
                        ? "Solo se cambia en STAFF"
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
          title: `¿Quitar a ${email} del panel?`,
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
  const other = role === "admin" ? "viewer" : "admin";
  return (
    <ul class="button-row" style="margin:0">
      <li>
        <form method="post" action="/panel/personal/rol">
          <input type="hidden" name="correo" value={email} />
          <input type="hidden" name="rol" value={other} />
          <button class="button button--ghost" type="submit">
            {other === "admin" ? "Hacer administradora" : "Pasar a consulta"}
            <span class="sr-only">{` a ${email}`}</span>
          </button>
        </form>
      </li>
      <li>
        <form method="post" action="/panel/personal/enlace">
          <input type="hidden" name="correo" value={email} />
          <button class="button button--ghost" type="submit">
            Enlace nuevo<span class="sr-only">{` para ${email}`}</span>
          </button>
        </form>
      </li>
      <li>
        <form method="post" action="/panel/personal/quitar/confirmar">
          <input type="hidden" name="correo" value={email} />
          <button class="button button--danger" type="submit">
            Quitar del panel<span class="sr-only">{` a ${email}`}</span>
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
        Pasarme a consulta
      </button>
      <small>
        {" "}Dejas de administrar el panel al instante; solo si queda otra
        persona administradora.
      </small>
    </form>
  );
}

/**
 * The step between the row's button and the removal: who, what happens,
 * a button that posts the removal, and a cancel that changes nothing.
 */
function RemovalConfirmation({ email }: { email: string }) {
  return (
    <section class="code-confirm" aria-label="Confirmación">
      <p class="code-confirm__consequence">
        Sus sesiones terminan en cuanto confirmes y sus enlaces dejan de
        funcionar.
      </p>
      <p>
        Si más adelante necesita entrar, vuelve a invitar a esa persona.
      </p>
      <form
        class="code-confirm__actions"
        method="post"
        action="/panel/personal/quitar"
      >
        <input type="hidden" name="correo" value={email} />
        <button class="button button--danger" type="submit">
          Sí, quitar del panel
        </button>{" "}
        <a class="button button--ghost" href="/panel/personal">Cancelar</a>
      </form>
    </section>
  );
}

/** The sign-in link, once, with a copy button (the page's one script). */
function LinkReveal({ link, timeZone }: { link: ShownLink; timeZone: string }) {
  const assets = getAssets();
  return (
    <section
      class="notice notice--ok code-reveal"
      aria-labelledby="enlace-titulo"
    >
      <h2 id="enlace-titulo" class="code-reveal__title">
        Enlace de acceso para {link.email}
      </h2>
      <p>
        <code id="enlace-acceso" style="overflow-wrap:anywhere">
          {link.url}
        </code>
      </p>
      <Island
        name="CopyButton"
        component={CopyButton}
        props={{ text: link.url, label: "Copiar enlace" }}
      />
      <p>
        Cópialo ahora y házselo llegar: no se vuelve a mostrar. Sirve una sola
        vez, hasta las {formatDateTime(link.expiresAt.toISOString(), timeZone)}
        {" "}
        (15 minutos). Si vence, pide uno nuevo con «Enlace nuevo».
      </p>
      {assets && <script type="module" src={assets.client} />}
    </section>
  );
}
