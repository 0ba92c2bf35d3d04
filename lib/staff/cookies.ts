import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "@/lib/config/config.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";

/**
 * The staff cookie, apart from the tourists' `session`: `__Host-staff` on
 * https (Secure, Path=/, no Domain: no subdomain can plant or shadow it),
 * `staff` on plain http (local development). `SameSite=Strict`: no other
 * site's page, link or form ever sends it. A browser-session cookie: the
 * server ends the session after 8 hours idle.
 */
function getStaffCookie(c: Context, config: Pick<Config, "baseUrl">) {
  const secure = getPublicOrigin(c, config).startsWith("https:");
  return { secure, name: secure ? "__Host-staff" : "staff" };
}

/** The staff session id the browser sent, if any (unchecked). */
export function readStaffCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): string | undefined {
  return getCookie(c, getStaffCookie(c, config).name) || undefined;
}

/** Sets the staff cookie: only the id, `HttpOnly`, `SameSite=Strict`, `Secure` on https. */
export function writeStaffCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
  sessionId: string,
): void {
  const { secure, name } = getStaffCookie(c, config);
  setCookie(c, name, sessionId, {
    path: "/",
    httpOnly: true,
    secure,
    sameSite: "Strict",
  });
}

/** Tells the browser to forget the staff cookie. */
export function clearStaffCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
): void {
  const { secure, name } = getStaffCookie(c, config);
  deleteCookie(c, name, {
    path: "/",
    secure,
    httpOnly: true,
    sameSite: "Strict",
  });
}
