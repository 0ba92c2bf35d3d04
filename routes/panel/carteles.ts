import type { AppDeps } from "@/deps.ts";
import { recordStaffAction } from "@/lib/db/mod.ts";
import { getPublicOrigin } from "@/lib/http/mod.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import { attractionPosterSvg, renderPostersPdf } from "@/lib/posters/mod.ts";
import { getStaff, requireAdmin } from "@/lib/staff/mod.ts";
import { createPanelRouter } from "./_page.tsx";

const FILE = "carteles.pdf";

/**
 * `GET /panel/carteles.pdf` (admins: the posters carry the current guide
 * codes): every attraction's poster, one A4 page each, ready to print;
 * recorded in the audit log.
 */
export default function postersPdf(deps: AppDeps) {
  return createPanelRouter(deps).get("/", requireAdmin(), async (c) => {
    const loaded = deps.data.current();
    const baseUrl = getPublicOrigin(c, deps.config);
    const codes = await listCurrentGuideCodes(deps.kv, loaded, deps.now());
    const posters = codes.flatMap(({ slug, code }) => {
      const svg = attractionPosterSvg(loaded.data, { slug, code, baseUrl });
      const name = loaded.data.attractions.find((a) => a.slug === slug)?.name;
      return svg && name ? [{ name, svg }] : [];
    });
    const pdf = await renderPostersPdf(posters, {
      title: `Carteles de ${loaded.data.branding.name}`,
    });
    await recordStaffAction(deps.kv, {
      staff: getStaff(c),
      action: "export_downloaded",
      target: FILE,
      at: deps.now(),
    });
    return c.body(pdf, 200, {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${FILE}"`,
      "Cache-Control": "private, no-store",
    });
  });
}
