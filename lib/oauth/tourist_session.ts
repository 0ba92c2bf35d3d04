/**
 * Tourist access on the cookie routes (`/mi-pasaporte/*`,
 * `/api/session-token`), as `requireStaff` is on `/panel`: one middleware
 * reads the session cookie and puts the live session on the context; a
 * route that needs one refuses a signed-out browser with its own answer
 * (401 JSON, the "not signed in" page, a redirect). Handlers read the
 * session from the context, never the cookie.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "@/lib/config/config.ts";
import type { AppEnv } from "@/lib/http/router.ts";
import type { Session } from "@/lib/types/user.ts";
import { readSessionCookie } from "./cookies.ts";
import { getSignedInSession, type SignInDeps } from "./sign_in.ts";

/** What {@linkcode readTouristSession} needs: KV, the clock and the public origin (the cookie's name). */
export interface TouristSessionDeps extends Pick<SignInDeps, "kv" | "now"> {
  config: Pick<Config, "baseUrl">;
}

/**
 * Puts the browser's live tourist session (an account's or a guest
 * passport's) on the context as `tourist`, its use recorded
 * (lib/db/passport_activity.ts); a request without one passes with none.
 */
export function readTouristSession(
  deps: TouristSessionDeps,
): MiddlewareHandler<AppEnv> {
  return async function readTouristSession(c, next) {
    const session = await getSignedInSession(
      deps,
      readSessionCookie(c, deps.config),
    );
    if (session) c.set("tourist", session);
    await next();
  };
}

/**
 * For a route that needs a signed-in browser (after
 * {@linkcode readTouristSession}): without a session it answers
 * `onSignedOut` and the handler does not run.
 */
export function requireTourist(
  onSignedOut: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async function requireTourist(c, next) {
    if (!c.get("tourist")) return await onSignedOut(c);
    await next();
  };
}

/** The session {@linkcode readTouristSession} found, or null: the browser is signed out. */
export function findTourist(c: Context<AppEnv>): Session | null {
  return c.get("tourist") ?? null;
}

/** The session behind a {@linkcode requireTourist} route; throws if the guard did not run. */
export function getTourist(c: Context<AppEnv>): Session {
  const session = c.get("tourist");
  if (!session) {
    throw new Error("requireTourist() must run before this handler");
  }
  return session;
}
