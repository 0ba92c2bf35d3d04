import type { AppDeps } from "@/deps.ts";
import {
  PANEL_HOME,
  readStaffCookie,
  signInWithStaffLink,
  signOutStaff,
  writeStaffCookie,
} from "@/lib/staff/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderStaffSignInPage } from "@/routes/_shared/staff_sign_in.tsx";

/**
 * `/auth/personal/:token`, a staff sign-in link (`deno task staff-link`).
 * GET only shows a button, so that link previews and mail scanners, which
 * open links but press nothing, do not use it up; the POST of that button
 * uses the link (once), opens the staff session and goes to the panel.
 */
/** A sign-in link's life, in minutes, as the page says it (lib/db `staffLinkMs`). */
const LINK_MINUTES = 15;

/** The page's words (`locales/<lang>/panel_signin.json`); the console is Spanish. */
function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_signin.${key}`, values);
}

export default function staffLink(deps: AppDeps) {
  return createPageRouter(deps)
    .get("/:token", (c) => {
      const response = renderStaffSignInPage(c, deps, {
        title: tr("linkTitle"),
        heading: tr("linkHeading"),
        lead: tr("linkLead", { minutes: LINK_MINUTES }),
        children: (
          <form method="post">
            <button class="button" type="submit">{tr("linkButton")}</button>
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
          title: tr("usedTitle"),
          heading: tr("usedHeading"),
          lead: tr("usedLead", { minutes: LINK_MINUTES }),
        });
      }
      // A staff session this browser had before ends here.
      await signOutStaff(deps, readStaffCookie(c, deps.config));
      writeStaffCookie(c, deps.config, signedIn.sessionId);
      return c.redirect(PANEL_HOME, 303);
    });
}
