import type { AppDeps } from "@/deps.ts";
import { STAFF_IDLE_MS, STAFF_MAX_AGE_MS } from "@/lib/db/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderStaffSignInPage } from "@/routes/_shared/staff_sign_in.tsx";

/**
 * `GET /auth/personal[?sesion=vencida]`: the staff sign-in, in the staff
 * workspace's plain frame. With the portal's identity provider and a
 * `STAFF` list, a button to sign in with it; always, how to get a new
 * sign-in link. Where a staff session that ran out is sent, which it says.
 */
const HOUR_MS = 60 * 60 * 1000;

/** A sign-in link's life, in minutes, as the page says it (lib/db `staffLinkMs`). */
const LINK_MINUTES = 15;

/** The page's words (`locales/<lang>/panel_signin.json`); the console is Spanish. */
function tr(key: string, values?: Record<string, string | number>): string {
  return t(DEFAULT_LANG, `panel_signin.${key}`, values);
}

export default function staffSignInPage(deps: AppDeps) {
  return createPageRouter(deps).get("/", (c) => {
    const expired = c.req.query("sesion") === "vencida";
    const withProvider = deps.config.oidc !== undefined &&
      deps.config.staff.length > 0;
    return renderStaffSignInPage(c, deps, {
      title: tr("title"),
      heading: tr(expired ? "expiredHeading" : "title"),
      lead: expired
        ? tr("expiredLead", {
          idleHours: STAFF_IDLE_MS / HOUR_MS,
          maxHours: STAFF_MAX_AGE_MS / HOUR_MS,
        })
        : tr("lead"),
      children: (
        <>
          {withProvider && (
            <p>
              <a class="button" href="/auth/personal/proveedor">
                {tr("withProvider")}
              </a>
            </p>
          )}
          <p>
            {tr(withProvider ? "askLinkToo" : "askLink")}{" "}
            {tr("linkRule", { minutes: LINK_MINUTES })}
          </p>
        </>
      ),
    });
  });
}
