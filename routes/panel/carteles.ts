import type { AppDeps } from "@/deps.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import { getPublicOrigin } from "@/lib/http/mod.ts";
import { DEFAULT_LANG, negotiateLang, t } from "@/lib/i18n/mod.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import { attractionPosterSvg, renderPostersPdf } from "@/lib/posters/mod.ts";
import { requireAdmin } from "@/lib/staff/mod.ts";
import { sendStaffDownload } from "@/routes/_shared/download.ts";
import { createPanelRouter } from "./_page.tsx";

/**
 * `GET /panel/carteles.pdf` (admins: the posters carry the current guide
 * codes): every attraction's poster, one A4 page each, ready to print;
 * `?atractivo=<slug>` gives that attraction's poster alone,
 * `cartel-<slug>.pdf` (an unknown one: 404). Recorded in the audit log.
 */
export default function postersPdf(deps: AppDeps) {
  return createPanelRouter(deps).get("/", requireAdmin(), async (c) => {
    const loaded = deps.data.current();
    const { data } = loaded;
    const only = c.req.query("atractivo");
    const baseUrl = getPublicOrigin(c, deps.config);
    const codes = (await listCurrentGuideCodes(deps.kv, loaded, deps.now()))
      .filter(({ slug }) => only === undefined || slug === only);
    const posters = codes.flatMap(({ slug, code }) => {
      const svg = attractionPosterSvg(data, { slug, code, baseUrl });
      const name = data.attractions.find((a) => a.slug === slug)?.name;
      return svg && name ? [{ name, svg }] : [];
    });
    const say = (key: string, values: Record<string, string>) =>
      t(DEFAULT_LANG, `panel_exports.${key}`, values);
    if (only !== undefined && posters.length === 0) {
      throw new NotFoundError(
        t(
          negotiateLang(c.req.header("accept-language")),
          "panel_exports.posterUnknownTitle",
        ),
      );
    }
    const brand = data.branding.name;
    const pdf = await renderPostersPdf(posters, {
      title: only === undefined
        ? say("postersPdfTitle", { brand })
        : say("posterPdfTitle", { name: posters[0].name, brand }),
    });
    return await sendStaffDownload(c, deps, {
      file: only === undefined ? "carteles.pdf" : `cartel-${only}.pdf`,
      type: "application/pdf",
      body: pdf,
    });
  });
}
