import type { AppDeps } from "@/deps.ts";
import {
  clearSignInStateCookie,
  readSessionCookie,
  readSignInStateCookie,
  writeSessionCookie,
} from "@/lib/oauth/cookies.ts";
import { renderSignInError } from "./_message.tsx";
import { finishSignIn, SESSION_TTL_MS } from "@/lib/oauth/sign_in.ts";
import { createPageRouter } from "@/routes/_app.tsx";

/**
 * `GET /auth/callback`: the provider's redirect back. Completes the sign-in,
 * sets a new session cookie and goes on to the page the user came from.
 */
export default function callback(deps: AppDeps) {
  return createPageRouter(deps).get("/", async (c) => {
    const browserState = readSignInStateCookie(c, deps.config);
    clearSignInStateCookie(c, deps.config);
    c.header("Cache-Control", "no-store");
    try {
      const { sessionId, next } = await finishSignIn(deps, {
        callbackUrl: new URL(c.req.url),
        browserState,
        previousSessionId: readSessionCookie(c, deps.config),
      });
      writeSessionCookie(c, deps.config, sessionId, SESSION_TTL_MS / 1000);
      return c.redirect(next, 303);
    } catch (error) {
      return renderSignInError(c, deps, error);
    }
  });
}
