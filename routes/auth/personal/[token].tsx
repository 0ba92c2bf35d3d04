import type { AppDeps } from "@/deps.ts";
import { readStaffCookie, writeStaffCookie } from "@/lib/staff/cookies.ts";
import {
  PANEL_HOME,
  signInWithStaffLink,
  signOutStaff,
} from "@/lib/staff/sign_in.ts";
import { createPageRouter, renderPage } from "@/routes/_app.tsx";
import { renderAuthMessage } from "@/routes/auth/_message.tsx";

/**
 * `/auth/personal/:token`, a staff sign-in link (`deno task staff-link`).
 * GET only shows a button, so that link previews and mail scanners, which
 * open links but press nothing, do not use it up; the POST of that button
 * uses the link (once), opens the staff session and goes to the panel.
 */
export default function staffLink(deps: AppDeps) {
  return createPageRouter(deps)
    .get("/:token", (c) => {
      const brand = deps.data.current().data.branding.name;
      const response = renderPage(c, deps, {
        head: {
          title: `Entrar al panel · ${brand}`,
          description: "Acceso al panel de la oficina de turismo.",
          image: null,
          robots: "noindex, nofollow",
        },
        body: (
          <section class="container error-page" aria-labelledby="staff-title">
            <h1 id="staff-title">Panel de la oficina de turismo</h1>
            <p class="lead">
              Este enlace de acceso sirve una sola vez y vence a los 15 minutos.
            </p>
            <form method="post">
              <button class="button" type="submit">Entrar al panel</button>
            </form>
            <p class="privacy-hint">
              Al entrar, el portal registra tu correo electrónico y lo que haces
              en el panel (bitácora de auditoría), por seguridad y rendición de
              cuentas. Consulta el{" "}
              <a href="/aviso-de-privacidad#personal">aviso de privacidad</a>.
            </p>
          </section>
        ),
      });
      // The link's token stays out of caches and of other sites' logs.
      response.headers.set("Cache-Control", "no-store");
      response.headers.set("Referrer-Policy", "no-referrer");
      return response;
    })
    .post("/:token", async (c) => {
      c.header("Cache-Control", "no-store");
      const signedIn = await signInWithStaffLink(deps, c.req.param("token"));
      if (!signedIn) {
        return renderAuthMessage(c, deps, {
          status: 410,
          title: "Este enlace ya se usó o venció",
          body:
            "Cada enlace de acceso al panel sirve una sola vez y vence a los 15 minutos. Pide uno nuevo a la persona que administra el portal.",
        });
      }
      // A staff session this browser had before ends here.
      await signOutStaff(deps, readStaffCookie(c, deps.config));
      writeStaffCookie(c, deps.config, signedIn.sessionId);
      return c.redirect(PANEL_HOME, 303);
    });
}
