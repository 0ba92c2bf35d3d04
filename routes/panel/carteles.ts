import type { AppDeps } from "@/deps.ts";
import { getPublicOrigin } from "@/lib/http/mod.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import { attractionPosterSvg, renderPostersPdf } from "@/lib/posters/mod.ts";
import { requireAdmin } from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
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
    return await sendStaffDownload(c, deps, {
      file: FILE,
      type: "application/pdf",
      body: pdf,
    });
  });
}
