import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { type PanelSection, StaffLayout } from "@/components/StaffLayout.tsx";
import type { AppDeps } from "@/deps.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { PAGE_SECURITY_HEADERS } from "@/lib/http/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";
import type { StaffMember } from "@/lib/types/mod.ts";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

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
    kicker,
    description,
    staff,
    active,
    refreshTo,
    status = 200,
    children,
  }: {
    /** The `<title>`, before the brand. */
    title: string;
    /**
     * What the frame says it is, for a page that is not the console (the
     * partner's): it replaces "Panel del personal" and "Panel" in the title.
     */
    kicker?: string;
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
      title={`${title} · ${kicker ?? "Panel"} · ${branding.name}`}
      kicker={kicker}
      description={description ?? t(LANG, "panel_frame.description")}
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
