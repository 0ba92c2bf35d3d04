import { AttractionIndex } from "@/components/AttractionIndex.tsx";
import type { AppDeps } from "@/deps.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { loadAttractionIndex } from "@/lib/staff/mod.ts";
import {
  createPanelRouter,
  readDayRangeQuery,
  renderPanelPage,
} from "../_page.tsx";

/**
 * `GET /panel/atractivos` (`?desde=&hasta=`, as the dashboard): every
 * attraction of the data set with a link to its page, its visits in the
 * period and its ratings, from the counters. Viewers see it too: it only
 * reads. A range that is not valid shows the default with a message (400).
 */
export default function attractionIndexPage(deps: AppDeps) {
  return createPanelRouter(deps).get("/", async (c) => {
    const { data } = deps.data.current();
    const now = deps.now();
    const { timeZone } = data.municipality;
    const range = readDayRangeQuery(c, { now, timeZone });
    const view = await loadAttractionIndex(deps.kv, {
      ...range,
      attractions: data.attractions,
      now,
      timeZone,
    });
    return renderPanelPage(c, deps, {
      title: t(DEFAULT_LANG, "panel_figures.ui.indexTitle"),
      active: "atractivos",
      status: range.problem ? 400 : 200,
      children: <AttractionIndex view={view} />,
    });
  });
}
