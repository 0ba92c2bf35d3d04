import type { AppDeps } from "@/deps.ts";
import {
  PANEL_HOME,
  readStaffCookie,
  signInWithStaffLink,
  signOutStaff,
  writeStaffCookie,
} from "@/lib/staff/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderStaffSignInPage } from "@/routes/_shared/staff_sign_in.tsx";

/**
 * `/auth/personal/:token`, a staff sign-in link (`deno task staff-link`).
 * GET only shows a button, so that link previews and mail scanners, which
 * open links but press nothing, do not use it up; the POST of that button
 * uses the link (once), opens the staff session and goes to the panel.
 */
export default function staffLink(deps: AppDeps) {
  return createPageRouter(deps)
    .get("/:token", (c) => {
      const response = renderStaffSignInPage(c, deps, {
        title: "Entrar al panel",
        heading: "Panel de la oficina de turismo",
        lead:
          "Este enlace de acceso sirve una sola vez y vence a los 15 minutos.",
        children: (
          <form method="post">
            <button class="button" type="submit">Entrar al panel</button>
          </form>
        ),
      });
      // The link's token stays out of caches and of other sites' logs.
      response.headers.set("Referrer-Policy", "no-referrer");
      return response;
    })
    .post("/:token", async (c) => {
      c.header("Cache-Control", "no-store");
      const signedIn = await signInWithStaffLink(deps, c.req.param("token"));
      if (!signedIn) {
        return renderStaffSignInPage(c, deps, {
          status: 410,
          title: "Enlace vencido",
          heading: "Este enlace ya se usó o venció",
          lead:
            "Cada enlace de acceso al panel sirve una sola vez y vence a los 15 minutos. Pide uno nuevo a la persona que administra el portal.",
        });
      }
      // A staff session this browser had before ends here.
      await signOutStaff(deps, readStaffCookie(c, deps.config));
      writeStaffCookie(c, deps.config, signedIn.sessionId);
      return c.redirect(PANEL_HOME, 303);
    });
}
