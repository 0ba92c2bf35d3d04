import type { AppDeps } from "@/deps.ts";
import {
  FLOW_TTL_MS,
  startSignIn,
  writeSignInStateCookie,
} from "@/lib/oauth/mod.ts";
import { renderSignInError } from "@/routes/_shared/auth_message.tsx";
import { createPageRouter } from "@/routes/_app.tsx";

/** `GET /auth/signin?next=/path`: sends the browser to the identity provider. */
export default function signin(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    try {
      const { redirectTo, state } = await startSignIn(deps, {
        next: c.req.query("next"),
      });
      writeSignInStateCookie(c, deps.config, state, FLOW_TTL_MS / 1000);
      c.header("Cache-Control", "no-store");
      return c.redirect(redirectTo.href, 302);
    } catch (error) {
      return renderSignInError(c, deps, error);
    }
  });
}
