import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { renderStaffPage } from "./staff_page.tsx";

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
    description: "Acceso al panel de la oficina de turismo.",
    status,
    refreshTo,
    children: (
      <section class="staff-card" aria-labelledby="staff-title">
        <h1 id="staff-title">{heading}</h1>
        <p class="lead">{lead}</p>
        {children}
        {privacyHint && (
          <p class="privacy-hint">
            Al entrar, el portal registra tu correo electrónico y lo que haces
            en el panel (bitácora de auditoría), por seguridad y rendición de
            cuentas. Consulta el{" "}
            <a href="/aviso-de-privacidad#personal">aviso de privacidad</a>.
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
    title: "Entrando al panel",
    heading: "Entrando al panel…",
    lead: "Ya casi: te llevamos al panel.",
    refreshTo: path,
    privacyHint: false,
    children: (
      <p>
        <a class="button" href={path}>Continuar al panel</a>
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
    title: "Esta cuenta no tiene acceso al panel",
    heading: "Esta cuenta no tiene acceso al panel",
    lead:
      "La cuenta con la que entraste no está en la lista del personal del portal. Pide a la persona que administra el portal que te agregue, o entra con tu cuenta institucional.",
    privacyHint: false,
    children: (
      <p>
        <a class="button" href="/auth/personal">Volver a intentar</a>
      </p>
    ),
  });
}
