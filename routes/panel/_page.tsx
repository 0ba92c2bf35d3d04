import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { type PanelSection, StaffLayout } from "@/components/StaffLayout.tsx";
import type { AppDeps } from "@/deps.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import {
  type AppEnv,
  PAGE_SECURITY_HEADERS,
  redactPath,
} from "@/lib/http/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";
import { getStaff } from "@/lib/staff/mod.ts";
import type { StaffMember } from "@/lib/types/mod.ts";
import { renderNotFoundPage } from "@/routes/_app.tsx";

/**
 * Renders a page of the staff workspace ({@linkcode StaffLayout}), apart
 * from the tourist site's layout: `noindex` and `private, no-store` (one
 * person's view, never cached or indexed). With `staff`, the console's
 * frame (who, sections, sign-out); without, the plain staff sign-in frame.
 */
export function renderStaffPage(
  c: Context,
  deps: Pick<AppDeps, "data">,
  {
    title,
    description,
    staff,
    active,
    refreshTo,
    status = 200,
    children,
  }: {
    /** The `<title>`, before the brand. */
    title: string;
    description?: string;
    /** A same-site path to go on to by itself (the staff sign-in's end). */
    refreshTo?: string;
    staff?: StaffMember;
    active?: PanelSection;
    status?: ContentfulStatusCode;
    children: ComponentChildren;
  },
): Response {
  const loaded = deps.data.current();
  const { branding, privacy } = loaded.data;
  const html = renderToString(
    <StaffLayout
      office={{
        name: privacy.office,
        themeColor: branding.colors.primary,
        dataVersion: loaded.version,
      }}
      title={`${title} · Panel · ${branding.name}`}
      description={description ?? "Panel de la oficina de turismo."}
      assets={getAssets()}
      staff={staff}
      active={active}
      refreshTo={refreshTo}
    >
      {children}
    </StaffLayout>,
  );
  return c.html(`<!DOCTYPE html>${html}`, status, {
    ...PAGE_SECURITY_HEADERS,
    "Cache-Control": "private, no-store",
  });
}

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
