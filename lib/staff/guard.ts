/**
 * The staff console's gate: one middleware for `/panel/*` that puts the
 * signed-in staff member on the context, one for admin-only actions, and
 * the cross-site check of every state-changing staff request. A handler
 * never decides who may enter.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Config } from "@/lib/config/config.ts";
import {
  getStaffSessionKeptUntil,
  removeStaffSession,
  touchStaffSession,
} from "@/lib/db/staff_sessions.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import { refuseCrossSite } from "@/lib/http/cross_site.ts";
import type { AppEnv } from "@/lib/http/router.ts";
import {
  clearStaffCookie,
  isStaffCookieSet,
  readStaffCookie,
  writeStaffCookie,
} from "./cookies.ts";
import { getCurrentStaffMember } from "./sign_in.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/** Where a staff member whose session ran out is sent: the staff sign-in, saying why. */
export const STAFF_EXPIRED_PATH = "/auth/personal?sesion=vencida";

/**
 * A staff request refused: a viewer asking for an admin action, or a
 * state-changing request from another site. Rendered as the 403 page.
 */
export class StaffForbiddenError extends HttpError {
  override name = "StaffForbiddenError";
  constructor(readonly reason: "role" | "cross-site") {
    // The words: `panel_staff.forbidden.<reason>.*` in the catalogue.
    super(
      403,
      { key: `panel_staff.forbidden.${reason}.title` },
      { key: `panel_staff.forbidden.${reason}.details` },
    );
  }
}

/** What {@linkcode requireStaff} needs: KV, the clock, the public origin and `STAFF`. */
export interface StaffGuardDeps {
  kv: Deno.Kv;
  now: () => Date;
  config: Pick<Config, "baseUrl" | "staff">;
}

/**
 * For `/panel` and `/panel/*`: a live staff session (its idle expiry slid)
 * puts its {@linkcode StaffMember} on the context as `staff`, with the role
 * the staff list gives them now ({@linkcode getCurrentStaffMember}: `STAFF`
 * and the members added on the console, read with the session in one KV
 * read), and
 * an answer that is not an error renews its cookie to last as long as KV
 * keeps the session. A member removed from the staff list has their session
 * deleted (audited) on this request and is a stranger from then on, whether
 * or not it ran out; a demoted admin is a viewer at once. Anyone else (no cookie, a tampered one, a
 * tourist's session, a signed-out or ended one) gets the site's ordinary
 * 404 page, which says nothing of a panel. A current member's cookie whose
 * session ran out (idle or too old) goes to the staff sign-in, which says
 * so; the cookie stays, so a bookmark keeps leading there until KV forgets
 * the session. Every answer is `no-store`: panel pages are one person's
 * view.
 */
export function requireStaff(
  deps: StaffGuardDeps,
): MiddlewareHandler<AppEnv> {
  return async function requireStaff(c, next) {
    const sessionId = readStaffCookie(c, deps.config);
    const found = sessionId
      ? await touchStaffSession(deps.kv, { sessionId, now: deps.now() })
      : { status: "none" as const };
    if (found.status === "none") return c.notFound();
    // A session stored before sessions had a sign-in method was a link's.
    const staff = getCurrentStaffMember(deps.config.staff, {
      ...found.session,
      method: found.session.method ?? "link",
    }, found.members);
    if (!staff) {
      await removeStaffSession(deps.kv, {
        session: found.session,
        now: deps.now(),
      });
      clearStaffCookie(c, deps.config);
      return c.notFound();
    }
    if (found.status === "expired") {
      c.header("Cache-Control", "no-store");
      return c.redirect(STAFF_EXPIRED_PATH, 303);
    }
    c.set("staff", staff);
    await next();
    c.res.headers.set("Cache-Control", "private, no-store");
    // Not on a refusal (nothing changes for it) nor on a sign-out's answer,
    // which clears it.
    if (
      sessionId && c.res.status < 400 && !isStaffCookieSet(c, deps.config)
    ) {
      writeStaffCookie(c, deps.config, sessionId, {
        keptUntil: getStaffSessionKeptUntil(found.session),
        now: deps.now(),
      });
    }
  };
}

/**
 * For admin-only routes (after {@linkcode requireStaff}): a viewer gets the
 * 403 page ({@linkcode StaffForbiddenError}), whatever the method.
 */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async function requireAdmin(c, next) {
    if (getStaff(c).role !== "admin") throw new StaffForbiddenError("role");
    await next();
  };
}

/** The staff member {@linkcode requireStaff} put on the context; throws if it did not run. */
export function getStaff(c: Context<AppEnv>): StaffMember {
  const staff = c.get("staff");
  if (!staff) throw new Error("requireStaff() must run before this handler");
  return staff;
}

/**
 * Refuses state-changing staff requests from another site, whatever their
 * content type: the portal's one cross-site check
 * (lib/http/cross_site.ts), answered with the staff 403 page. With the
 * `SameSite=Strict` cookie this is why panel forms need no hidden token.
 */
export function protectStaffForms(
  config: Pick<Config, "baseUrl">,
): MiddlewareHandler<AppEnv> {
  return refuseCrossSite(config, {
    refusal: () => new StaffForbiddenError("cross-site"),
  });
}
