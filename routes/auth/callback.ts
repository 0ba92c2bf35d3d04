import type { AppDeps } from "@/deps.ts";
import {
  clearSignInStateCookie,
  finishSignIn,
  readSessionCookie,
  readSignInStateCookie,
  SESSION_TTL_MS,
  writeSessionCookie,
} from "@/lib/oauth/mod.ts";
import { renderSignInError } from "@/routes/_shared/auth_message.tsx";
import {
  PANEL_HOME,
  signInStaffIdentity,
  writeStaffCookie,
} from "@/lib/staff/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import {
  renderStaffContinuePage,
  renderStaffNotListedPage,
} from "@/routes/_shared/staff_sign_in.tsx";

/**
 * `GET /auth/callback`: the provider's redirect back. Completes the sign-in,
 * sets a new session cookie and goes on to the page the user came from. A
 * staff sign-in (started at `/auth/personal/proveedor`) opens a staff
 * session instead, if `STAFF` lists the identity.
 */
export default function callback(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const browserState = readSignInStateCookie(c, deps.config);
    clearSignInStateCookie(c, deps.config);
    c.header("Cache-Control", "no-store");
    try {
      const done = await finishSignIn(deps, {
        callbackUrl: new URL(c.req.url),
        browserState,
        previousSessionId: readSessionCookie(c, deps.config),
      });
      if (done.purpose === "staff") {
        const staff = await signInStaffIdentity(deps, done.identity);
        // The staff's pages: in the staff frame, Spanish only.
        if (!staff) return renderStaffNotListedPage(c, deps);
        writeStaffCookie(c, deps.config, staff.sessionId);
        return renderStaffContinuePage(c, deps, PANEL_HOME);
      }
      writeSessionCookie(c, deps.config, done.sessionId, SESSION_TTL_MS / 1000);
      return c.redirect(done.next, 303);
    } catch (error) {
      return renderSignInError(c, deps, error);
    }
  });
}
