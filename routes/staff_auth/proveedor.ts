import type { AppDeps } from "@/deps.ts";
import {
  FLOW_TTL_MS,
  startSignIn,
  writeSignInStateCookie,
} from "@/lib/oauth/mod.ts";
import { PANEL_HOME } from "@/lib/staff/mod.ts";
import { createPageRouter } from "@/routes/_app.tsx";
import { renderSignInError } from "@/routes/_shared/auth_message.tsx";

/**
 * `GET /auth/personal/proveedor`: a staff sign-in at the portal's identity
 * provider (asking for the e-mail address too); the callback opens a staff
 * session if `STAFF` lists the identity.
 */
export default function staffProviderSignIn(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      const { redirectTo, state } = await startSignIn(deps, {
        next: PANEL_HOME,
        purpose: "staff",
      });
      writeSignInStateCookie(c, deps.config, state, FLOW_TTL_MS / 1000);
      return c.redirect(redirectTo.href, 302);
    } catch (error) {
      return renderSignInError(c, deps, error);
    }
  });
}
