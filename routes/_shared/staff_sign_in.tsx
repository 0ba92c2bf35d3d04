import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { DEFAULT_LANG, t, tRich } from "@/lib/i18n/mod.ts";
import { renderStaffPage } from "./staff_page.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

/**
 * A staff sign-in page (`/auth/personal…`): the staff workspace's plain
 * frame (the office's name, no tourist menu, chat or footer), in Spanish,
 * never indexed or stored: `heading`, its `lead`, what to do (`children`),
 * and what signing in records, with the privacy notice's link.
 */
export function renderStaffSignInPage(
  c: Context,
  deps: Pick<AppDeps, "data">,
  { title, heading, lead, status, refreshTo, privacyHint = true, children }: {
    /** The page's title, before the brand. */
    title: string;
    heading: string;
    lead: string;
    status?: ContentfulStatusCode;
    /** A same-site path to go on to by itself. */
    refreshTo?: string;
    /** What signing in records (not on a refusal). */
    privacyHint?: boolean;
    children?: ComponentChildren;
  },
): Response {
  const response = renderStaffPage(c, deps, {
    title,
    description: t(LANG, "panel_signin.description"),
    status,
    refreshTo,
    children: (
      <section class="staff-card" aria-labelledby="staff-title">
        <h1 id="staff-title">{heading}</h1>
        <p class="lead">{lead}</p>
        {children}
        {privacyHint && (
          <p class="privacy-hint">
            {tRich(LANG, "panel_signin.privacyHint", {
              link: (children) => (
                <a href="/aviso-de-privacidad#personal">{children}</a>
              ),
            })}
          </p>
        )}
      </section>
    ),
  });
  // Nobody's own view (as the panel's pages are): simply never stored.
  response.headers.set("Cache-Control", "no-store");
  return response;
}

/**
 * The end of a staff sign-in at the identity provider, in the plain staff
 * frame: a page that goes on to `path` by itself, with a link in case it
 * does not. Browsers withhold `SameSite=Strict` cookies from a redirect
 * chain that began on another site, so a 303 straight to the panel would
 * arrive without the staff cookie; a navigation this page starts is
 * same-site.
 */
export function renderStaffContinuePage(
  c: Context,
  deps: Pick<AppDeps, "data">,
  path: string,
): Response {
  return renderStaffSignInPage(c, deps, {
    title: t(LANG, "panel_signin.continueTitle"),
    heading: t(LANG, "panel_signin.continueHeading"),
    lead: t(LANG, "panel_signin.continueLead"),
    refreshTo: path,
    privacyHint: false,
    children: (
      <p>
        <a class="button" href={path}>
          {t(LANG, "panel_signin.continueButton")}
        </a>
      </p>
    ),
  });
}

/**
 * The 403 for an identity the provider vouched for but the staff list
 * does not have, in the plain staff frame, with a way to try another
 * account.
 */
export function renderStaffNotListedPage(
  c: Context,
  deps: Pick<AppDeps, "data">,
): Response {
  return renderStaffSignInPage(c, deps, {
    status: 403,
    title: t(LANG, "panel_signin.notListedTitle"),
    heading: t(LANG, "panel_signin.notListedTitle"),
    lead: t(LANG, "panel_signin.notListedLead"),
    privacyHint: false,
    children: (
      <p>
        <a class="button" href="/auth/personal">
          {t(LANG, "panel_signin.tryAgain")}
        </a>
      </p>
    ),
  });
}
