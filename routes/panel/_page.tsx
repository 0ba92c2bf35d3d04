import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import { PanelLayout, type PanelSection } from "@/components/PanelLayout.tsx";
import type { AppDeps } from "@/deps.ts";
import { getStaff } from "@/lib/staff/mod.ts";
import type { AppEnv } from "@/lib/http/mod.ts";
import { renderPage } from "@/routes/_app.tsx";

/**
 * Renders a staff console page: the site's layout, the panel's frame
 * ({@linkcode PanelLayout}) for the signed-in staff member, `noindex` and
 * `private, no-store` (one person's view, never cached or indexed).
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
  const brand = deps.data.current().data.branding.name;
  const response = renderPage(c, deps, {
    status,
    head: {
      title: `${title} · Panel · ${brand}`,
      description: "Panel de la oficina de turismo.",
      image: null,
      robots: "noindex, nofollow",
    },
    body: (
      <PanelLayout title={title} staff={getStaff(c)} active={active}>
        {children}
      </PanelLayout>
    ),
  });
  response.headers.set("Cache-Control", "private, no-store");
  return response;
}
