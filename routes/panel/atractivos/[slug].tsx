import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AttractionReport } from "@/components/AttractionReport.tsx";
import { CheckInRuleSection } from "@/components/CheckInRule.tsx";
import type { AppDeps } from "@/deps.ts";
import { HttpError, NotFoundError } from "@/lib/errors/mod.ts";
import { formatDateTime } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, t } from "@/lib/i18n/mod.ts";
import { type AppEnv, readForm } from "@/lib/http/mod.ts";
import { listCurrentGuideCodes } from "@/lib/passport/mod.ts";
import {
  getAttractionCheckIn,
  parseCheckInRuleForm,
  setAttractionCheckIn,
} from "@/lib/check_in/mod.ts";
import {
  getStaff,
  loadAttractionReport,
  requireAdmin,
} from "@/lib/staff/mod.ts";
import {
  createPanelRouter,
  readDayRangeQuery,
  renderPanelPage,
} from "../_page.tsx";

/** The console is Spanish only. */
const LANG = DEFAULT_LANG;

/**
 * `GET /panel/atractivos/:slug` (`?desde=&hasta=`, as the dashboard): one
 * attraction's visits, ratings and notes from the counters, how its visits
 * are checked in, and for admins its guide code and poster. An unknown slug
 * is a 404 in the console's frame.
 * `POST /:slug/registro` (admins; `metodo`, `radio`): sets how visits are
 * checked in there (audited), then back to the page (303, `?registro=listo`);
 * a bad value answers the page with a 400 and changes nothing.
 */
export default function attractionPage(deps: AppDeps) {
  return createPanelRouter(deps)
    .get("/:slug", (c) => renderAttraction(c, deps, {}))
    .post("/:slug/registro", requireAdmin(), async (c) => {
      const slug = c.req.param("slug");
      if (!deps.data.current().attractionsBySlug.has(slug)) {
        throw new NotFoundError(
          t(LANG, "panel_figures.ui.noSuchAttractionError"),
        );
      }
      try {
        const rule = parseCheckInRuleForm(await readForm(c));
        await setAttractionCheckIn(deps.kv, {
          slug,
          rule,
          staff: getStaff(c),
          now: deps.now(),
          onChange: deps.onChange,
        });
      } catch (error) {
        if (!(error instanceof HttpError) || error.status === 404) throw error;
        return await renderAttraction(c, deps, {
          problem: error.details,
          status: error.status as ContentfulStatusCode,
        });
      }
      return c.redirect(
        `/panel/atractivos/${slug}?registro=listo#registro`,
        303,
      );
    });
}

async function renderAttraction(
  c: Context<AppEnv>,
  deps: AppDeps,
  { problem, status }: { problem?: string; status?: ContentfulStatusCode },
): Promise<Response> {
  const loaded = deps.data.current();
  const slug = c.req.param("slug") ?? "";
  const attraction = loaded.attractionsBySlug.get(slug);
  const { timeZone } = loaded.data.municipality;
  const now = deps.now();
  if (!attraction) {
    return renderPanelPage(c, deps, {
      title: t(LANG, "panel_figures.ui.noSuchAttraction"),
      active: "atractivos",
      status: 404,
      children: (
        <p>
          {t(LANG, "panel_figures.ui.noSuchAttractionLead")}{" "}
          <a href="/panel/atractivos">
            {t(LANG, "panel_figures.ui.allAttractions")}
          </a>
        </p>
      ),
    });
  }
  const range = readDayRangeQuery(c, { now, timeZone });
  const isAdmin = getStaff(c).role === "admin";
  const [view, codes, checkIn] = await Promise.all([
    loadAttractionReport(deps.kv, {
      slug,
      name: attraction.name,
      ...range,
      now,
      timeZone,
    }),
    isAdmin ? listCurrentGuideCodes(deps.kv, loaded, now) : null,
    getAttractionCheckIn(deps.kv, slug, attraction.checkIn),
  ]);
  const current = codes?.find((a) => a.slug === slug);
  return renderPanelPage(c, deps, {
    title: attraction.name,
    active: "atractivos",
    status: status ?? (range.problem ? 400 : 200),
    children: (
      <AttractionReport
        view={view}
        code={current
          ? {
            code: current.code,
            posterHref: `/panel/codigos/${slug}/cartel.svg`,
          }
          : null}
      >
        <CheckInRuleSection
          rule={checkIn}
          action={`/panel/atractivos/${slug}/registro`}
          canEdit={isAdmin}
          problem={problem}
          saved={!problem && c.req.query("registro") === "listo"}
          setAtText={checkIn.setAt
            ? formatDateTime(checkIn.setAt, timeZone)
            : undefined}
        />
      </AttractionReport>
    ),
  });
}
