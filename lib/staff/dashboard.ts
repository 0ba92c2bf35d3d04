/**
 * The staff dashboard's presenter: from the figures (`Dashboard`, read by
 * lib/figures) to what the page shows: the headline figures against the
 * period before, the charts (specified once in ./figure_charts.ts, shared
 * with an attraction's page) and the latest notes. Every word comes from
 * the `panel_figures` catalogue (locales/<lang>/panel_figures.json). The
 * page component (components/Dashboard.tsx) only lays out what this
 * returns, so a new chart is one spec in ./figure_charts.ts and its words.
 */
import { DEFAULT_TIME_ZONE } from "@/lib/config/mod.ts";
import {
  type Dashboard,
  getDashboard,
  getPeriodTotals,
  MAX_RANGE_DAYS,
  type PeriodTotals,
  VISIT_METHODS,
  type VisitsByMethod,
} from "@/lib/figures/mod.ts";
import { getLangMeta } from "@/lib/i18n/catalogue.ts";
import {
  type ChartView,
  DASHBOARD_CHARTS,
  drawCharts,
  PANEL_LANG,
  presentCharts,
  say,
} from "./figure_charts.ts";
import {
  type DayRange,
  formatDayRange,
  getPreviousRange,
  getQuickRanges,
  type RangeProblem,
} from "./range.ts";

export {
  attractionHref,
  type ChartLinksView,
  type ChartView,
  type DataTableView,
  type LegendItem,
} from "./figure_charts.ts";

/** What the page says when the range asked for was not used. */
export function describeRangeProblem(problem: RangeProblem): string {
  return say(`problem.${problem}`, { days: MAX_RANGE_DAYS });
}

const locale = getLangMeta(PANEL_LANG).intlLocale;
const integer = new Intl.NumberFormat(locale);
const decimal = new Intl.NumberFormat(locale, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** The dashboard's charts as inline SVG, drawn by Plot (./charts.ts), by chart key. */
export type DashboardCharts = Record<string, string>;

/** A headline figure: its value and how it compares with the previous period. */
export interface HeadlineView {
  id: string;
  label: string;
  /** The figure as written (`1,234`, `4.5 de 5`, `—`). */
  value: string;
  /** What is counted, in a few words. */
  detail: string;
  /** Up, down, the same, or no comparison: the page draws ▲, ▼, = or nothing. */
  trend: "up" | "down" | "same" | "none";
  /** The comparison in words: "12 % más que del 1 al 28 de octubre". */
  comparison: string;
}

/** A quick range's link (`/panel?desde=&hasta=`), marked when it is the range shown. */
export interface QuickRangeView {
  label: string;
  href: string;
  isCurrent: boolean;
}

/** A note of the "latest notes" list, with its attraction's name. */
export interface NoteView {
  visitId: string;
  name: string;
  /** `4 de 5 estrellas`, or `sin calificación`. */
  rating: string;
  /** ISO 8601. */
  ratedAt: string;
  /** When, in words on the municipality's clock: "10 de marzo de 2025, 12:00 p.m.". */
  ratedAtText: string;
  notes: string;
}

/** Everything the dashboard page shows, in order. */
export interface DashboardView {
  from: string;
  to: string;
  /** The range in words: "del 29 de octubre al 27 de noviembre de 2026". */
  period: string;
  /** The period compared with, in words. */
  previousPeriod: string;
  /** Verified visits in the range. */
  total: number;
  headlines: HeadlineView[];
  quickRanges: QuickRangeView[];
  /** What was wrong with the range asked for, or null. */
  problem: string | null;
  charts: ChartView[];
  latestNotes: NoteView[];
}

const percent = new Intl.NumberFormat(locale, {
  style: "percent",
  maximumFractionDigits: 0,
});
const monthName = new Intl.DateTimeFormat(locale, {
  month: "long",
  timeZone: "UTC",
});
const monthYear = new Intl.DateTimeFormat(locale, {
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/**
 * Months in words, as a sentence continues them: "en noviembre de 2026",
 * "de octubre a noviembre de 2026".
 */
export function formatMonthRange(
  fromMonth: string,
  toMonth: string,
  { year = true }: { year?: boolean } = {},
): string {
  const date = (month: string) => new Date(`${month}-15T12:00:00Z`);
  const sameYear = fromMonth.slice(0, 4) === toMonth.slice(0, 4);
  const end = (year || !sameYear ? monthYear : monthName).format(date(toMonth));
  if (fromMonth === toMonth) return say("monthsIn", { end });
  const start = (sameYear ? monthName : monthYear).format(date(fromMonth));
  return say("monthsFromTo", { start, end });
}

/**
 * A count against the previous period's, in words: "12 % más que del 1 al
 * 28 de octubre", "3 menos que…", "igual que…"; when the previous period
 * had none, no percentage but that fact ("del 1 al 28 de octubre no hubo
 * ninguna").
 */
export function compareCounts(
  current: number,
  previous: number,
  { period, none }: {
    /** The previous period in words ("del 1 al 28 de octubre"). */
    period: string;
    /** "ninguna" or "ninguno": the counted thing's gender. */
    none: string;
  },
): Pick<HeadlineView, "trend" | "comparison"> {
  if (current === previous) {
    return {
      trend: "same",
      comparison: say(previous === 0 ? "compare.sameNone" : "compare.same", {
        period,
        none,
      }),
    };
  }
  if (previous === 0) {
    return {
      trend: "up",
      comparison: say("compare.noneBefore", { period, none }),
    };
  }
  const change = Math.abs(current - previous) / previous;
  const amount = change < 0.005
    ? say("compare.lessThanOne")
    : percent.format(change);
  return current > previous
    ? { trend: "up", comparison: say("compare.more", { amount, period }) }
    : { trend: "down", comparison: say("compare.less", { amount, period }) };
}

/** Visits by method in words: "12 con código y 3 con «Estoy aquí»". */
export function formatVisitMethods(methods: VisitsByMethod): string {
  const known: readonly string[] = VISIT_METHODS;
  return new Intl.ListFormat(locale).format(
    methods
      .filter((row) => known.includes(row.method) || row.visits > 0)
      .map((row) =>
        `${integer.format(row.visits)} ${
          known.includes(row.method)
            ? say(`method.${row.method}`)
            : say("method.other", { method: row.method })
        }`
      ),
  );
}

/**
 * The headline figures of a period against the previous one: visits,
 * tourists (first stamps), new passports, the average rating (by month:
 * the counters keep ratings per month) and the questions answered.
 */
export function presentHeadlines(
  current: PeriodTotals,
  previous: PeriodTotals,
): HeadlineView[] {
  const period = formatDayRange(previous, { year: false });
  const count = (
    id: string,
    label: string,
    detail: string,
    pick: (totals: PeriodTotals) => number,
    none: string,
  ): HeadlineView => ({
    id,
    label,
    value: integer.format(pick(current)),
    detail,
    ...compareCounts(pick(current), pick(previous), { period, none }),
  });
  return [
    count(
      "visitas",
      say("headline.visits"),
      say("headline.visitsDetail", {
        methods: formatVisitMethods(current.visitsByMethod ?? []),
      }),
      (t) => t.visits,
      say("none.feminine"),
    ),
    count(
      "turistas",
      say("headline.tourists"),
      say("headline.touristsDetail"),
      (t) => t.firstStamps,
      say("none.masculine"),
    ),
    count(
      "pasaportes",
      say("headline.passports"),
      say("headline.passportsDetail"),
      (t) => t.passports,
      say("none.masculine"),
    ),
    presentRating(current, previous),
    count(
      "preguntas",
      say("headline.answered"),
      say("headline.answeredDetail", { questions: current.questions ?? 0 }),
      (t) => t.answered,
      say("none.feminine"),
    ),
  ];
}

function averageOf({ ratings }: PeriodTotals): number | null {
  return ratings.count > 0 ? ratings.sum / ratings.count : null;
}

/** The average rating: ratings are counted by month, so its period is whole months. */
function presentRating(
  current: PeriodTotals,
  previous: PeriodTotals,
): HeadlineView {
  const months = formatMonthRange(
    current.ratings.fromMonth,
    current.ratings.toMonth,
  );
  const before = formatMonthRange(
    previous.ratings.fromMonth,
    previous.ratings.toMonth,
    { year: false },
  );
  const now = averageOf(current);
  const then = averageOf(previous);
  const n = current.ratings.count;
  const base = {
    id: "calificacion",
    label: say("headline.rating"),
    value: now === null
      ? "—"
      : say("outOfFive", { value: decimal.format(now) }),
    detail: n === 0
      ? say("headline.ratingNone", { months })
      : say("headline.ratingGiven", { n, months }),
  };
  if (
    current.ratings.fromMonth === previous.ratings.fromMonth &&
    current.ratings.toMonth === previous.ratings.toMonth
  ) {
    return {
      ...base,
      trend: "none",
      comparison: say("headline.ratingSameMonth"),
    };
  }
  if (now === null || then === null) {
    return {
      ...base,
      trend: "none",
      comparison: then === null
        ? say("headline.ratingNoneBefore", { period: before })
        : say("headline.ratingWas", {
          period: before,
          value: decimal.format(then),
        }),
    };
  }
  const diff = Math.round((now - then) * 10) / 10;
  return {
    ...base,
    ...(diff === 0
      ? {
        trend: "same" as const,
        comparison: say("compare.same", { period: before }),
      }
      : {
        trend: diff > 0 ? "up" as const : "down" as const,
        comparison: say(
          diff > 0 ? "compare.pointsMore" : "compare.pointsLess",
          {
            amount: decimal.format(Math.abs(diff)),
            period: before,
            before: decimal.format(then),
          },
        ),
      }),
  };
}

/** The charts' context on the dashboard: names, the range in words. */
function dashboardContext(
  dashboard: Dashboard,
  names: ReadonlyMap<string, string>,
) {
  return {
    name: (slug: string) => names.get(slug) ?? slug,
    range: { from: dashboard.from, to: dashboard.to },
    period: formatDayRange(dashboard),
  };
}

/**
 * Draws the dashboard's charts ({@linkcode DASHBOARD_CHARTS}). `names`
 * gives each attraction's name by slug (a slug no longer in the data set
 * shows as itself).
 */
export function renderDashboardCharts(
  dashboard: Dashboard,
  names: ReadonlyMap<string, string>,
): Promise<DashboardCharts> {
  return drawCharts(
    DASHBOARD_CHARTS,
    dashboard,
    dashboardContext(dashboard, names),
  );
}

/** A note's rating in words: `4 de 5 estrellas`, or `sin calificación`. */
export function formatNoteRating(rating: number | null): string {
  return rating === null ? say("unrated") : say("ratingOf", { rating });
}

/**
 * The dashboard page's content, from the figures and their drawn charts:
 * each chart's section and data table, in the page's order, and the latest
 * notes. Pure: the same figures give the same view.
 */
export function presentDashboard(
  dashboard: Dashboard,
  {
    charts,
    names,
    problem,
    totals,
    quickRanges = [],
    timeZone = DEFAULT_TIME_ZONE,
  }: {
    charts: DashboardCharts;
    names: ReadonlyMap<string, string>;
    problem: RangeProblem | null;
    /** The headline figures of the range and of the period before it (none without). */
    totals?: { current: PeriodTotals; previous: PeriodTotals };
    /** The quick ranges offered (lib/staff/range.ts `getQuickRanges`). */
    quickRanges?: readonly (DayRange & { label: string })[];
    /** The municipality's, for the notes' times. */
    timeZone?: string;
  },
): DashboardView {
  const context = dashboardContext(dashboard, names);
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone,
  });
  return {
    from: dashboard.from,
    to: dashboard.to,
    period: context.period,
    previousPeriod: formatDayRange(getPreviousRange(dashboard)),
    headlines: totals ? presentHeadlines(totals.current, totals.previous) : [],
    quickRanges: quickRanges.map((range) => ({
      label: range.label,
      href: `/panel?desde=${range.from}&hasta=${range.to}`,
      isCurrent: range.from === dashboard.from && range.to === dashboard.to,
    })),
    total: dashboard.visitsByDay.reduce((sum, row) => sum + row.visits, 0),
    problem: problem && describeRangeProblem(problem),
    charts: presentCharts(DASHBOARD_CHARTS, dashboard, context, charts),
    latestNotes: dashboard.latestNotes.map((note) => ({
      visitId: note.visitId,
      name: context.name(note.slug),
      rating: formatNoteRating(note.rating),
      ratedAt: note.ratedAt,
      ratedAtText: dateTime.format(new Date(note.ratedAt)),
      notes: note.notes,
    })),
  };
}

/**
 * The dashboard page's content for the days `from`..`to`: the figures read
 * (lib/figures), the charts drawn, the view built.
 * `names` gives each attraction's name by slug; its slugs are shown even
 * with no visits.
 */
export async function loadDashboardView(
  kv: Deno.Kv,
  { from, to, names, problem, now, timeZone }: {
    from: string;
    to: string;
    names: ReadonlyMap<string, string>;
    problem: RangeProblem | null;
    /** Today, for the quick ranges. */
    now: Date;
    /** The municipality's. */
    timeZone: string;
  },
): Promise<DashboardView> {
  const [dashboard, previous] = await Promise.all([
    getDashboard(kv, { from, to, slugs: [...names.keys()] }),
    getPeriodTotals(kv, getPreviousRange({ from, to })),
  ]);
  const [charts, current] = await Promise.all([
    renderDashboardCharts(dashboard, names),
    getPeriodTotals(kv, { from, to, dashboard }),
  ]);
  return presentDashboard(dashboard, {
    charts,
    names,
    problem,
    totals: { current, previous },
    quickRanges: getQuickRanges(now, timeZone),
    timeZone,
  });
}
