import { AttractionReport } from "@/components/AttractionReport.tsx";
import type { AppDeps } from "@/deps.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import {
  getStaff,
  loadAttractionReport,
  parseDayRange,
} from "@/lib/staff/mod.ts";
import { createPanelRouter, renderPanelPage } from "../_page.tsx";

/**
 * `GET /panel/atractivos/:slug` (`?desde=&hasta=`, as the dashboard): one
 * attraction's visits, ratings and notes from the counters, and for admins
 * its guide code and poster. An unknown slug is a 404 in the console's frame.
 */
export default function attractionPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/:slug", async (c) => {
    const loaded = deps.data.current();
    const slug = c.req.param("slug");
    const attraction = loaded.attractionsBySlug.get(slug);
    const { timeZone } = loaded.data.municipality;
    const now = deps.now();
    if (!attraction) {
      return renderPanelPage(c, deps, {
        title: "Ese atractivo no existe",
        active: "tablero",
        status: 404,
        children: (
          <p>
            No hay ningún atractivo con esa dirección.{" "}
            <a href="/panel">Volver al tablero</a>
          </p>
        ),
      });
    }
    const range = parseDayRange(
      { from: c.req.query("desde"), to: c.req.query("hasta") },
      { now, timeZone },
    );
    const isAdmin = getStaff(c).role === "admin";
    const [view, codes] = await Promise.all([
      loadAttractionReport(deps.kv, {
        slug,
        name: attraction.name,
        ...range,
        now,
        timeZone,
      }),
      isAdmin ? listCurrentGuideCodes(deps.kv, loaded, now) : null,
    ]);
    const current = codes?.find((a) => a.slug === slug);
    return renderPanelPage(c, deps, {
      title: attraction.name,
      active: "tablero",
      status: range.problem ? 400 : 200,
      children: (
        <AttractionReport
          view={view}
          code={current
            ? {
              code: current.code,
              posterHref: `/panel/codigos/${slug}/cartel.svg`,
            }
            : null}
        />
      ),
    });
  });
}
