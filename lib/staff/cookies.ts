import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "@/lib/config/config.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import {
  STAFF_EXPIRED_KEPT_MS,
  STAFF_IDLE_MS,
} from "@/lib/db/staff_sessions.ts";

/**
 * The staff cookie, apart from the tourists' `session`: `__Host-staff` on
 * https (Secure, Path=/, no Domain: no subdomain can plant or shadow it),
 * `staff` on plain http (local development). `SameSite=Strict`: no other
 * site's page, link or form ever sends it. Persistent, not a
 * browser-session cookie: it lasts as long as KV keeps its session
 * (`getStaffSessionKeptUntil`), so a bookmark opened after the browser was
 * closed leads to the panel, or, once the session has ended, to the staff
 * sign-in saying so. The server decides when the session ends, never the
 * cookie's expiry.
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

/**
 * Sets the staff cookie: only the id, `HttpOnly`, `SameSite=Strict`,
 * `Secure` on https, until `keptUntil` (when KV forgets the session; a
 * session just opened is kept its idle time and the time an ended one is
 * kept), measured from `now`. Written as `Max-Age`, never `Expires`: a
 * date is read by the browser's clock, and a desk computer whose clock is
 * days off would drop the cookie at once (or keep it for days).
 */
export function writeStaffCookie(
  c: Context,
  config: Pick<Config, "baseUrl">,
  sessionId: string,
  { keptUntil, now }: { keptUntil: Date; now: Date } | {
    keptUntil?: undefined;
    now?: undefined;
  } = {},
): void {
  const { secure, name } = getStaffCookie(c, config);
  const keptMs = keptUntil
    ? keptUntil.getTime() - now.getTime()
    : STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS;
  setCookie(c, name, sessionId, {
    path: "/",
    httpOnly: true,
    secure,
    sameSite: "Strict",
    maxAge: Math.max(0, Math.floor(keptMs / 1000)),
  });
}

/** Whether the response being made already sets (or clears) the staff cookie. */
export function isStaffCookieSet(
  c: Context,
  config: Pick<Config, "baseUrl">,
): boolean {
  const prefix = `${getStaffCookie(c, config).name}=`;
  return c.res.headers.getSetCookie().some((set) => set.startsWith(prefix));
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
