import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "@/lib/config/config.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";

/**
 * The session cookie's name and attributes. On https the `__Host-` prefix
 * makes the browser refuse the cookie unless it is `Secure`, `Path=/` and
 * without `Domain`, so no sibling subdomain can plant or shadow it. Browsers
 * refuse `Secure` cookies from plain http, so local development over
 * `http://127.0.0.1` uses a plain `session` cookie instead.
 */
function getCookieOptions(c: Context, config: Pick<Config, "baseUrl">) {
  const secure = getPublicOrigin(c, config).startsWith("https:");
  return {
    secure,
    session: secure ? "__Host-session" : "session",
    flow: secure ? "__Host-signin-state" : "signin-state",
  };
}

/** The session id the browser sent, if any (unchecked: look it up before trusting it). */
export function readSessionCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): string | undefined {
  return getCookie(c, getCookieOptions(c, config).session) || undefined;
}

/** Sets the session cookie: only the id, `HttpOnly`, `SameSite=Lax`, `Secure` on https. */
export function writeSessionCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
  sessionId: string,
  maxAgeSeconds: number,
): void {
  const { secure, session } = getCookieOptions(c, config);
  setCookie(c, session, sessionId, {
    path: "/",
    httpOnly: true,
    secure,
    sameSite: "Lax",
    maxAge: maxAgeSeconds,
  });
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): void {
  const { secure, session } = getCookieOptions(c, config);
  deleteCookie(c, session, {
    path: "/",
    secure,
    httpOnly: true,
    sameSite: "Lax",
  });
}

/**
 * Binds a sign-in to the browser that started it: the callback must come
 * with this cookie holding the same `state`, so a callback address sent to
 * someone else cannot sign them in as the sender (login CSRF). `Lax` is what
 * lets it ride along on the provider's top-level redirect back.
 */
export function writeSignInStateCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
  state: string,
  maxAgeSeconds: number,
): void {
  const { secure, flow } = getCookieOptions(c, config);
  setCookie(c, flow, state, {
    path: "/",
    httpOnly: true,
    secure,
    sameSite: "Lax",
    maxAge: maxAgeSeconds,
  });
}

/** The `state` of the sign-in this browser started, if any. */
export function readSignInStateCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): string | undefined {
  return getCookie(c, getCookieOptions(c, config).flow) || undefined;
}

/** Forgets the sign-in state cookie once the callback has used it. */
export function clearSignInStateCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): void {
  const { secure, flow } = getCookieOptions(c, config);
  deleteCookie(c, flow, {
    path: "/",
    secure,
    httpOnly: true,
    sameSite: "Lax",
  });
}
