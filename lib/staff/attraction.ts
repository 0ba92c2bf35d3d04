/**
 * The console's page of one attraction (`/panel/atractivos/<slug>`): its
 * visits by day, by day of the week and by hour of the day in the period
 * asked for, how they were checked in, its ratings and their
 * distribution, its newest notes that show (never a hidden one:
 * lib/db/notes.ts), from its figures (lib/figures), never a scan of the
 * visits. Its charts are specified once with the dashboard's
 * (./figure_charts.ts), its words are the `panel_figures` catalogue's. The
 * page component (components/AttractionReport.tsx) only lays out what this
 * returns; the code and poster are the route's.
 */
import { DEFAULT_TIME_ZONE } from "@/lib/config/mod.ts";
import { getAttractionFigures, getDashboard } from "@/lib/figures/mod.ts";
import { getLangMeta } from "@/lib/i18n/catalogue.ts";
import {
  ATTRACTION_CHARTS,
  attractionHref,
  type ChartView,
  drawCharts,
  PANEL_LANG,
  presentCharts,
  say,
} from "./figure_charts.ts";
import {
  describeRangeProblem,
  formatMonthRange,
  formatNoteRating,
  formatVisitMethods,
  type HeadlineView,
  type QuickRangeView,
} from "./dashboard.ts";
import { formatDayRange, getQuickRanges, type RangeProblem } from "./range.ts";

const locale = getLangMeta(PANEL_LANG).intlLocale;
const integer = new Intl.NumberFormat(locale);
const decimal = new Intl.NumberFormat(locale, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A note of the attraction, as the page lists it. */
export interface AttractionNoteView {
  visitId: string;
  /** `4 de 5 estrellas`, or `sin calificación`. */
  rating: string;
  ratedAt: string;
  ratedAtText: string;
  notes: string;
}

/** Everything the attraction page shows but its code and poster. */
export interface AttractionReportView {
  slug: string;
  name: string;
  from: string;
  to: string;
  period: string;
  quickRanges: QuickRangeView[];
  problem: string | null;
  headlines: HeadlineView[];
  charts: ChartView[];
  notes: AttractionNoteView[];
}

/**
 * The attraction page's content for the days `from`..`to`: the figures
 * read, its charts drawn ({@linkcode ATTRACTION_CHARTS}), the headline
 * figures, the notes.
 */
export async function loadAttractionReport(
  kv: Deno.Kv,
  { slug, name, from, to, problem, now, timeZone = DEFAULT_TIME_ZONE }: {
    slug: string;
    name: string;
    from: string;
    to: string;
    problem: RangeProblem | null;
    now: Date;
    timeZone?: string;
  },
): Promise<AttractionReportView> {
  const figures = await getAttractionFigures(kv, { slug, from, to });
  const period = formatDayRange({ from, to });
  const context = {
    name: (other: string) => other === slug ? name : other,
    range: { from, to },
    period,
    subject: name,
  };
  const svgs = await drawCharts(ATTRACTION_CHARTS, figures, context);
  const total = figures.visitsByDay.reduce((sum, row) => sum + row.visits, 0);
  const { ratings, ratingsInMonths } = figures;
  const months = formatMonthRange(
    ratingsInMonths.fromMonth,
    ratingsInMonths.toMonth,
  );
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeStyle: "short",
    timeZone,
  });
  const none = { trend: "none" as const, comparison: "" };
  return {
    slug,
    name,
    from,
    to,
    period,
    problem: problem && describeRangeProblem(problem),
    quickRanges: getQuickRanges(now, timeZone).map((quick) => ({
      label: quick.label,
      href: `/panel/atractivos/${slug}?desde=${quick.from}&hasta=${quick.to}`,
      isCurrent: quick.from === from && quick.to === to,
    })),
    headlines: [
      {
        id: "visitas",
        label: say("headline.visits"),
        value: integer.format(total),
        detail: say("headline.visitsDetailRange", {
          range: period,
          methods: formatVisitMethods(figures.visitsByMethod),
        }),
        ...none,
      },
      {
        id: "calificacion",
        label: say("headline.rating"),
        value: ratings.average === null
          ? "—"
          : say("outOfFive", { value: decimal.format(ratings.average) }),
        detail: say("headline.ratingAllTime", { n: ratings.count }),
        ...none,
      },
      {
        id: "calificacion-periodo",
        label: say("headline.periodRatings"),
        value: integer.format(ratingsInMonths.count),
        detail: ratingsInMonths.average === null
          ? say("headline.periodRatingsGiven", { months })
          : say("headline.periodRatingsAverage", {
            months,
            average: decimal.format(ratingsInMonths.average),
          }),
        ...none,
      },
    ],
    charts: presentCharts(ATTRACTION_CHARTS, figures, context, svgs),
    notes: figures.notes.map((note) => ({
      visitId: note.visitId,
      rating: formatNoteRating(note.rating),
      ratedAt: note.ratedAt,
      ratedAtText: dateTime.format(new Date(note.ratedAt)),
      notes: note.notes,
    })),
  };
}

/** One attraction of the console's list, with its page's address and two figures. */
export interface AttractionIndexRow {
  slug: string;
  name: string;
  /** Its console page, for the same days. */
  href: string;
  /** Verified visits in the period. */
  visits: number;
  /** `4.5 de 5`, or `—` with no rating (all time). */
  average: string;
  /** Ratings standing now (all time). */
  ratings: number;
}

/** The console's list of attractions (`/panel/atractivos`). */
export interface AttractionIndexView {
  from: string;
  to: string;
  period: string;
  quickRanges: QuickRangeView[];
  problem: string | null;
  rows: AttractionIndexRow[];
}

/**
 * Every attraction of `attractions` (the data set's, in its order) with a
 * link to its console page for the days `from`..`to`, its visits in them
 * and its ratings: the dashboard's own counters (`getDashboard`, no note
 * read), never a visit.
 */
export async function loadAttractionIndex(
  kv: Deno.Kv,
  { attractions, from, to, problem, now, timeZone = DEFAULT_TIME_ZONE }: {
    attractions: readonly { slug: string; name: string }[];
    from: string;
    to: string;
    problem: RangeProblem | null;
    now: Date;
    timeZone?: string;
  },
): Promise<AttractionIndexView> {
  const dashboard = await getDashboard(kv, {
    from,
    to,
    slugs: attractions.map((a) => a.slug),
    notesLimit: 0,
  });
  const visits = new Map(
    dashboard.visitsByAttraction.map((row) => [row.slug, row.visits]),
  );
  const ratings = new Map(dashboard.ratings.map((row) => [row.slug, row]));
  return {
    from,
    to,
    period: formatDayRange({ from, to }),
    problem: problem && describeRangeProblem(problem),
    quickRanges: getQuickRanges(now, timeZone).map((quick) => ({
      label: quick.label,
      href: `/panel/atractivos?desde=${quick.from}&hasta=${quick.to}`,
      isCurrent: quick.from === from && quick.to === to,
    })),
    rows: attractions.map(({ slug, name }) => {
      const rated = ratings.get(slug);
      const average = rated?.average ?? null;
      return {
        slug,
        name,
        href: attractionHref(slug, { from, to }),
        visits: visits.get(slug) ?? 0,
        average: average === null
          ? "—"
          : say("outOfFive", { value: decimal.format(average) }),
        ratings: rated?.count ?? 0,
      };
    }),
  };
}
