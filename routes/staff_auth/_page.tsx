import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import type { AppDeps } from "@/deps.ts";
import { renderStaffPage } from "@/routes/panel/_page.tsx";

/**
 * A staff sign-in page (`/auth/personal…`): the staff workspace's plain
 * frame (the office's name, no tourist menu, chat or footer), in Spanish,
 * never indexed or stored: `heading`, its `lead`, what to do (`children`),
 * and what signing in records, with the privacy notice's link.
 */
export function renderStaffSignInPage(
  c: Context,
  deps: Pick<AppDeps, "data">,
  { title, heading, lead, status, children }: {
    /** The page's title, before the brand. */
    title: string;
    heading: string;
    lead: string;
    status?: ContentfulStatusCode;
    children?: ComponentChildren;
  },
): Response {
  const response = renderStaffPage(c, deps, {
    title,
    description: "Acceso al panel de la oficina de turismo.",
    status,
    children: (
      <section class="staff-card" aria-labelledby="staff-title">
        <h1 id="staff-title">{heading}</h1>
        <p class="lead">{lead}</p>
        {children}
        <p class="privacy-hint">
          Al entrar, el portal registra tu correo electrónico y lo que haces en
          el panel (bitácora de auditoría), por seguridad y rendición de
          cuentas. Consulta el{" "}
          <a href="/aviso-de-privacidad#personal">aviso de privacidad</a>.
        </p>
      </section>
    ),
  });
  // Nobody's own view (as the panel's pages are): simply never stored.
  response.headers.set("Cache-Control", "no-store");
  return response;
}
