import { DashboardPage } from "@/components/Dashboard.tsx";
import type { AppDeps } from "@/deps.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { loadDashboardView } from "@/lib/staff/mod.ts";
import { loadPrizeReport } from "@/lib/rewards/mod.ts";
import {
  createPanelRouter,
  readDayRangeQuery,
  renderPanelPage,
} from "./_page.tsx";

/**
 * `GET /panel` (`?desde=&hasta=`, `YYYY-MM-DD`): the staff dashboard for a
 * range of days of the municipality's calendar, by default the last 30,
 * with its headline figures against the period before it and quick ranges.
 * A range that is not valid shows the default with a message (400). It
 * reads only the day-keyed counters (lib/db/stats.ts and the prizes'), never
 * the visits.
 */
export default function panelHome(deps: AppDeps) {
  return createPanelRouter(deps).get("/", async (c) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const { timeZone } = data.municipality;
    const range = readDayRangeQuery(c, { now, timeZone });
    const [view, prizes] = await Promise.all([
      loadDashboardView(deps.kv, {
        ...range,
        names: new Map(data.attractions.map((a) => [a.slug, a.name])),
        now,
        timeZone,
      }),
      loadPrizeReport(deps.kv, {
        from: range.from,
        to: range.to,
        attractionCount: data.attractions.length,
      }),
    ]);
    return renderPanelPage(c, deps, {
      title: t(DEFAULT_LANG, "panel_frame.dashboardTitle"),
      active: "tablero",
      status: range.problem ? 400 : 200,
      children: <DashboardPage view={view} prizes={prizes} />,
    });
  });
}
