import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { PanelSection } from "@/components/StaffLayout.tsx";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import { type AppEnv, redactPath } from "@/lib/http/mod.ts";
import { getStaff } from "@/lib/staff/mod.ts";
import { renderNotFoundPage } from "@/routes/_app.tsx";
import { renderStaffPage } from "@/routes/_shared/staff_page.tsx";

/**
 * Renders a staff console page for the signed-in staff member: its `<h1>`
 * (`title`) and content in the console's frame.
 */
export function renderPanelPage(
  c: Context<AppEnv>,
  deps: AppDeps,
  { title, active, status, children }: {
    title: string;
    active?: PanelSection;
    status?: ContentfulStatusCode;
    children?: ComponentChildren;
  },
): Response {
  return renderStaffPage(c, deps, {
    title,
    staff: getStaff(c),
    active,
    status,
    children: (
      <>
        <h1>{title}</h1>
        {children}
      </>
    ),
  });
}

/**
 * A router for the console's pages, as `createPageRouter` is for the
 * site's: a thrown 404 is the site's ordinary 404 page (what strangers
 * get), a 403 (a viewer asking for an admin page) and anything unexpected
 * (logged) are answered inside the console's frame, since only a staff
 * member gets that far.
 */
export function createPanelRouter(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().onError((error, c) => {
    const staff = c.get("staff");
    const refused = error instanceof HttpError && error.status === 403;
    const missing = error instanceof HttpError && error.status === 404;
    if (!refused && !missing) {
      console.error(
        `Unhandled error on ${c.req.method} ${redactPath(c.req.path)}:`,
        error,
      );
    }
    // Only the guard's staff get this far; anyone else learns nothing.
    if (!staff || missing) return renderNotFoundPage(c, deps);
    const title = refused ? error.message : "Algo salió mal en el panel";
    const details = refused
      ? error.details
      : "Vuelve a intentarlo en un momento. Si sigue fallando, avisa a la persona que administra el portal.";
    return renderStaffPage(c, deps, {
      title,
      description: details,
      staff,
      status: refused ? 403 : 500,
      children: (
        <section class="staff-message" aria-labelledby="staff-message-title">
          <h1 id="staff-message-title">{title}</h1>
          <p class="lead">{details}</p>
          <p>
            <a class="button" href="/panel">Volver al panel</a>
          </p>
        </section>
      ),
    });
  });
}

/**
 * A staff guard's refusal (a request from another site, a missing role),
 * status 403, in the staff frame: the console's for a signed-in member,
 * else the plain sign-in frame. `error` says why, in Spanish.
 */
export function renderStaffRefusalPage(
  c: Context<AppEnv>,
  deps: Pick<AppDeps, "data">,
  error: HttpError,
): Response {
  const staff = c.get("staff");
  return renderStaffPage(c, deps, {
    title: error.message,
    description: error.details,
    staff,
    status: 403,
    children: (
      <section class="staff-message" aria-labelledby="staff-message-title">
        <h1 id="staff-message-title">{error.message}</h1>
        <p class="lead">{error.details}</p>
        <p>
          {staff
            ? <a class="button" href="/panel">Volver al panel</a>
            : <a class="button" href="/auth/personal">Ir al acceso</a>}
        </p>
      </section>
    ),
  });
}
