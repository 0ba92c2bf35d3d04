import type { Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { PanelSection } from "@/components/StaffLayout.tsx";
import type { AppDeps } from "@/deps.ts";
import type { HttpError } from "@/lib/errors/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { getStaff, parseDayRange } from "@/lib/staff/mod.ts";
import { createPageRouter, renderNotFoundPage } from "@/routes/_app.tsx";
import { renderStaffPage } from "@/routes/_shared/staff_page.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

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
 * A router for the console's pages, with the pages' one error funnel
 * (`createPageRouter`): a thrown 404 is the site's ordinary 404 page (what
 * strangers get), a 403 (a viewer asking for an admin page) and anything
 * unexpected (logged) are answered inside the console's frame, since only
 * a staff member gets that far; anyone else learns nothing (the 404 page).
 */
export function createPanelRouter(deps: AppDeps): Hono<AppEnv> {
  const forStaff = (
    c: Context<AppEnv>,
    message: { title: string; details: string; status: 403 | 500 },
  ) =>
    c.get("staff")
      ? renderStaffMessage(c, deps, message)
      : renderNotFoundPage(c, deps);
  return createPageRouter(deps, {
    refused: (c, error) =>
      forStaff(c, {
        title: error.message,
        details: error.details,
        status: 403,
      }),
    failed: (c) =>
      forStaff(c, {
        title: t(LANG, "panel_frame.errorTitle"),
        details: t(LANG, "panel_frame.errorLead"),
        status: 500,
      }),
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
  return renderStaffMessage(c, deps, {
    title: error.message,
    details: error.details,
    status: 403,
  });
}

/** A message page in the staff frame, with the way back (the console, or the sign-in). */
function renderStaffMessage(
  c: Context<AppEnv>,
  deps: Pick<AppDeps, "data">,
  { title, details, status }: {
    title: string;
    details: string;
    status: ContentfulStatusCode;
  },
): Response {
  const staff = c.get("staff");
  return renderStaffPage(c, deps, {
    title,
    description: details,
    staff,
    status,
    children: (
      <section class="staff-message" aria-labelledby="staff-message-title">
        <h1 id="staff-message-title">{title}</h1>
        <p class="lead">{details}</p>
        <p>
          {staff
            ? (
              <a class="button" href="/panel">
                {t(LANG, "panel_frame.backToPanel")}
              </a>
            )
            : (
              <a class="button" href="/auth/personal">
                {t(LANG, "panel_frame.toSignIn")}
              </a>
            )}
        </p>
      </section>
    ),
  });
}

/**
 * The console's range of days from the page's `?desde=&hasta=` (as the
 * dashboard, the attraction list and each attraction page read it), on the
 * municipality's calendar; a range that is not valid is the default, with
 * its `problem`.
 */
export function readDayRangeQuery(
  c: Context<AppEnv>,
  clock: { now: Date; timeZone: string },
): ReturnType<typeof parseDayRange> {
  return parseDayRange(
    { from: c.req.query("desde"), to: c.req.query("hasta") },
    clock,
  );
}
