/**
 * The staff console's gate: one middleware for `/panel/*` that puts the
 * signed-in staff member on the context, one for admin-only actions, and
 * the cross-site check of every state-changing staff request. A handler
 * never decides who may enter.
 */
import type { Context, MiddlewareHandler } from "hono";
import { csrf } from "hono/csrf";
import type { Config } from "@/lib/config/config.ts";
import { touchStaffSession } from "@/lib/db/staff_sessions.ts";
import { HttpError } from "@/lib/http/errors.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import type { AppEnv } from "@/lib/http/router.ts";
import { clearStaffCookie, readStaffCookie } from "./cookies.ts";
import type { StaffMember } from "./types.ts";

/** Where a staff member whose session ran out is sent: the staff sign-in, saying why. */
export const STAFF_EXPIRED_PATH = "/auth/personal?sesion=vencida";

/**
 * A staff request refused: a viewer asking for an admin action, or a
 * state-changing request from another site. Rendered as the 403 page.
 */
export class StaffForbiddenError extends HttpError {
  override name = "StaffForbiddenError";
  constructor(readonly reason: "role" | "cross-site") {
    super(
      403,
      reason === "role"
        ? "Esta acción es solo para administradores"
        : "La solicitud no vino del panel",
      reason === "role"
        ? "Tu cuenta del panel es de consulta: puedes ver el tablero y descargar las exportaciones. Para cambiar códigos, moderar notas o resolver preguntas, pide a una persona administradora del portal que lo haga o que te dé ese acceso."
        : "No se cambió nada. Si fuiste tú, vuelve al panel y repite la acción desde ahí.",
    );
  }
}

/** What {@linkcode requireStaff} needs: KV, the clock and the public origin. */
export interface StaffGuardDeps {
  kv: Deno.Kv;
  now: () => Date;
  config: Pick<Config, "baseUrl">;
}

/**
 * For `/panel` and `/panel/*`: a live staff session (its idle expiry slid)
 * puts its {@linkcode StaffMember} on the context as `staff`. Anyone else
 * (no cookie, a tampered one, a tourist's session, a signed-out one) gets
 * the site's ordinary 404 page, which says nothing of a panel; a staff
 * cookie whose session ran out goes to the staff sign-in. Every answer is
 * `no-store`: panel pages are one person's view.
 */
export function requireStaff(
  deps: StaffGuardDeps,
): MiddlewareHandler<AppEnv> {
  return async function requireStaff(c, next) {
    const sessionId = readStaffCookie(c, deps.config);
    const found = sessionId
      ? await touchStaffSession(deps.kv, { sessionId, now: deps.now() })
      : { status: "none" as const };
    if (found.status === "expired") {
      clearStaffCookie(c, deps.config);
      c.header("Cache-Control", "no-store");
      return c.redirect(STAFF_EXPIRED_PATH, 303);
    }
    if (found.status === "none") return c.notFound();
    c.set("staff", found.session.staff);
    await next();
    c.res.headers.set("Cache-Control", "private, no-store");
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
 * Refuses state-changing staff requests (POST and the like, as forms and
 * plain fetches send them) from another site: `hono/csrf`, which lets one
 * through only with `Sec-Fetch-Site: same-origin` or an `Origin` equal to
 * the portal's public origin. With the `SameSite=Strict` cookie this is
 * why panel forms need no hidden token.
 */
export function protectStaffForms(
  config: Pick<Config, "baseUrl">,
): MiddlewareHandler<AppEnv> {
  const check = csrf({
    origin: (origin, c) => origin === getPublicOrigin(c, config),
  });
  return async function protectStaffForms(c, next) {
    try {
      await check(c, async () => {});
    } catch {
      throw new StaffForbiddenError("cross-site");
    }
    await next();
  };
}
