/**
 * The console's charts, each specified once: what it draws from the
 * figures (lib/figures), its words (the `panel_figures` catalogue:
 * `chart.<key>.title`, `.description`, `.caption`, `.note`), its legend,
 * links and data table. The dashboard and an attraction's page list the
 * specs they show ({@linkcode DASHBOARD_CHARTS},
 * {@linkcode ATTRACTION_CHARTS}) and share the specs of what both show
 * (visits by day, ratings by stars): a new chart is one spec here and its
 * words in each language's catalogue.
 */
import { getLangMeta, type MessageValues, t } from "@/lib/i18n/catalogue.ts";
import { getWeekday } from "@/lib/calendar/mod.ts";
import type { AttractionFigures, Dashboard } from "@/lib/figures/mod.ts";
import {
  type ChartText,
  renderBarChart,
  renderColumnChart,
  renderDailyLines,
  renderHeatMap,
  renderStackedBars,
  SERIES_COLORS,
  SERIES_DASHES,
  STACK_COLORS,
} from "./charts.ts";
import { type DayRange, formatDay } from "./range.ts";

/** The console speaks Spanish: its words come from the catalogue in this language. */
export const PANEL_LANG = "es";

/** A sentence of the `panel_figures` catalogue in the console's language. */
export function say(key: string, values?: MessageValues): string {
  return t(PANEL_LANG, `panel_figures.${key}`, values);
}

/** The days of the week, Monday first (`weekday` 0). */
export function getWeekdays(): string[] {
  return Array.from({ length: 7 }, (_, i) => say(`weekday.${i}`));
}

/** `1 estrella` .. `5 estrellas`. */
export function getStarNames(): string[] {
  return [1, 2, 3, 4, 5].map((n) => say("stars", { n }));
}

/** `1 sello`, `5 sellos`. */
export function stampsLabel(stamps: number): string {
  return say("stamps", { n: stamps });
}

/** A data table: numbers are left for the page to write in its locale. */
export interface DataTableView {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  /** Where each row's header links (same order as `rows`), if anywhere. */
  rowLinks?: string[];
}

/** One name of a chart's legend, with the colour and line pattern it has there. */
export interface LegendItem {
  name: string;
  color: string;
  /** An SVG `stroke-dasharray` for a line's pattern; absent for a swatch. */
  dash?: string;
}

/** Links shown beside a chart, one for each of its bars (an attraction's page). */
export interface ChartLinksView {
  /** What the list leads to, as its accessible name. */
  label: string;
  items: { name: string; href: string }[];
}

/** One chart of the page, with its title, an optional note and its data. */
export interface ChartView {
  /** The section's element id (the page links to it). */
  id: string;
  title: string;
  svg: string;
  note?: string;
  /** The series' or parts' names, in the chart's colours and patterns. */
  legend?: LegendItem[];
  /** Links beside the chart, in the chart's order, visible (not in the data table). */
  links?: ChartLinksView;
  table: DataTableView;
}

/** What a chart needs beside its figures. */
export interface ChartContext {
  /** An attraction's name by slug (a slug no longer in the data set is itself). */
  name(slug: string): string;
  /** The days shown. */
  range: DayRange;
  /** The range in words: "del 21 al 22 de noviembre de 2026". */
  period: string;
  /** The attraction an attraction's page is of: its charts' names say it. */
  subject?: string;
}

/** One chart, specified once. */
export interface ChartSpec<F> {
  /** The section's element id. */
  id: string;
  /** Its words in the catalogue (`chart.<key>.*`) and its SVG's key. */
  key: string;
  /** It has a note (`chart.<key>.note`). */
  note?: boolean;
  /** Values its description names beside `{range}`. */
  describe?(figures: F): MessageValues;
  draw(figures: F, context: ChartContext, text: ChartText): Promise<string>;
  table(figures: F, context: ChartContext): Omit<DataTableView, "caption">;
  legend?(): LegendItem[];
  links?(figures: F, context: ChartContext): ChartLinksView;
}

/** The console's page of an attraction, for the same days. */
export function attractionHref(slug: string, { from, to }: DayRange): string {
  return `/panel/atractivos/${
    encodeURIComponent(slug)
  }?desde=${from}&hasta=${to}`;
}

function chartText<F>(
  spec: ChartSpec<F>,
  figures: F,
  context: ChartContext,
): ChartText {
  const title = say(`chart.${spec.key}.title`);
  return {
    label: context.subject ? `${title}: ${context.subject}` : title,
    description: say(`chart.${spec.key}.description`, {
      ...spec.describe?.(figures),
      range: context.period,
    }),
  };
}

/** Draws each chart of `specs`: its SVG by key. */
export async function drawCharts<F>(
  specs: readonly ChartSpec<F>[],
  figures: F,
  context: ChartContext,
): Promise<Record<string, string>> {
  const svgs = await Promise.all(
    specs.map((spec) =>
      spec.draw(figures, context, chartText(spec, figures, context))
    ),
  );
  return Object.fromEntries(specs.map((spec, i) => [spec.key, svgs[i]]));
}

/** Each chart's section: title, note, legend, links, drawn SVG (`svgs`, by key) and table. */
export function presentCharts<F>(
  specs: readonly ChartSpec<F>[],
  figures: F,
  context: ChartContext,
  svgs: Readonly<Record<string, string>>,
): ChartView[] {
  return specs.map((spec) => ({
    id: spec.id,
    title: say(`chart.${spec.key}.title`),
    svg: svgs[spec.key],
    ...(spec.note ? { note: say(`chart.${spec.key}.note`) } : {}),
    ...(spec.legend ? { legend: spec.legend() } : {}),
    ...(spec.links ? { links: spec.links(figures, context) } : {}),
    table: {
      caption: say(`chart.${spec.key}.caption`),
      ...spec.table(figures, context),
    },
  }));
}

function lineLegend(series: readonly string[]): LegendItem[] {
  return series.map((name, i) => ({
    name,
    color: SERIES_COLORS[i % SERIES_COLORS.length],
    dash: SERIES_DASHES[i % SERIES_DASHES.length],
  }));
}

// --- Shared by both pages ---------------------------------------------------

/** Visits each day of the range (the dashboard's, or one attraction's). */
const VISITS_BY_DAY: ChartSpec<
  { visitsByDay: { day: string; visits: number }[] }
> = {
  id: "grafica-dias",
  key: "visitsByDay",
  draw: (figures, _, text) => {
    const series = say("series.visits");
    return renderDailyLines(
      figures.visitsByDay.map((row) => ({
        day: row.day,
        series,
        value: row.visits,
      })),
      { text, valueLabel: say("axis.visits"), series: [series] },
    );
  },
  table: (figures) => ({
    head: [say("col.day"), say("col.visits")],
    rows: figures.visitsByDay.map((row) => [formatDay(row.day), row.visits]),
  }),
};

/** One attraction's ratings by stars, since the start. */
const STARS: ChartSpec<AttractionFigures> = {
  id: "grafica-calificaciones",
  key: "stars",
  note: true,
  draw: (figures, _, text) =>
    renderColumnChart(
      figures.ratings.distribution.map((value, i) => ({
        // Short ticks ("1 ★"): five full names do not fit a column's width.
        label: say("starsTick", { n: i + 1 }),
        value,
      })),
      { text, valueLabel: say("axis.ratings") },
    ),
  table: (figures) => ({
    head: [say("col.stars"), say("col.ratings")],
    rows: getStarNames().map((label, i) => [
      label,
      figures.ratings.distribution[i],
    ]),
  }),
};

// --- The dashboard ----------------------------------------------------------

function byVisits(dashboard: Dashboard) {
  return [...dashboard.visitsByAttraction].sort((a, b) => b.visits - a.visits);
}

function passportSeries(): string[] {
  return [say("series.guest"), say("series.account"), say("series.tickets")];
}

function chatSeries(): string[] {
  return [
    say("series.questions"),
    say("series.answered"),
    say("series.noData"),
    say("series.refused"),
    say("series.failed"),
  ];
}

/** The dashboard's charts, in the page's order. */
export const DASHBOARD_CHARTS: readonly ChartSpec<Dashboard>[] = [
  {
    id: "grafica-atractivos",
    key: "visitsByAttraction",
    draw: (dashboard, { name }, text) =>
      renderBarChart(
        dashboard.visitsByAttraction.map((row) => ({
          label: name(row.slug),
          value: row.visits,
        })),
        { text, valueLabel: say("axis.visits") },
      ),
    // The chart is one picture (role="img"): its names cannot be links a
    // keyboard reaches, so each attraction's page is linked beside it.
    links: (dashboard, { name, range }) => ({
      label: say("links.attractions"),
      items: byVisits(dashboard).map((row) => ({
        name: name(row.slug),
        href: attractionHref(row.slug, range),
      })),
    }),
    table: (dashboard, { name, range }) => {
      const rows = byVisits(dashboard);
      return {
        head: [say("col.attraction"), say("col.visits")],
        rows: rows.map((row) => [name(row.slug), row.visits]),
        rowLinks: rows.map((row) => attractionHref(row.slug, range)),
      };
    },
  },
  VISITS_BY_DAY,
  {
    id: "grafica-horas",
    key: "visitsByHour",
    draw: (dashboard, _, text) => {
      const weekdays = getWeekdays();
      return renderHeatMap(
        dashboard.visitsByHour.map((cell) => ({
          column: cell.hour,
          row: weekdays[cell.weekday],
          value: cell.visits,
        })),
        { text, rows: weekdays, columnLabel: say("axis.hourOfDay") },
      );
    },
    table: (dashboard) => ({
      head: [
        say("col.day"),
        ...Array.from({ length: 24 }, (_, hour) => say("hourTick", { hour })),
      ],
      rows: getWeekdays().map((day, weekday) => [
        day,
        ...dashboard.visitsByHour
          .filter((cell) => cell.weekday === weekday)
          .map((cell) => cell.visits),
      ]),
    }),
  },
  {
    id: "grafica-sellos",
    key: "funnel",
    note: true,
    describe: (dashboard) => ({
      stamps: new Intl.ListFormat(getLangMeta(PANEL_LANG).intlLocale)
        .format(dashboard.funnel.map((row) => String(row.stamps))),
    }),
    draw: (dashboard, _, text) =>
      renderColumnChart(
        dashboard.funnel.map((row) => ({
          label: stampsLabel(row.stamps),
          value: row.inRange,
        })),
        { text, valueLabel: say("axis.tourists") },
      ),
    table: (dashboard) => ({
      head: [say("col.stamps"), say("col.inRange"), say("col.allTime")],
      rows: dashboard.funnel.map((row) => [
        stampsLabel(row.stamps),
        row.inRange,
        row.allTime,
      ]),
    }),
  },
  {
    id: "grafica-pasaportes",
    key: "passports",
    legend: () => lineLegend(passportSeries()),
    draw: (dashboard, _, text) => {
      const series = passportSeries();
      return renderDailyLines(
        dashboard.passportsByDay.flatMap((row, i) => [
          { day: row.day, series: series[0], value: row.guest },
          { day: row.day, series: series[1], value: row.account },
          {
            day: row.day,
            series: series[2],
            value: dashboard.ticketsByDay[i]?.tickets ?? 0,
          },
        ]),
        { text, valueLabel: say("axis.amount"), series },
      );
    },
    table: (dashboard) => ({
      head: [say("col.day"), ...passportSeries()],
      rows: dashboard.passportsByDay.map((row, i) => [
        formatDay(row.day),
        row.guest,
        row.account,
        dashboard.ticketsByDay[i]?.tickets ?? 0,
      ]),
    }),
  },
  {
    id: "grafica-calificaciones",
    key: "ratings",
    note: true,
    legend: () =>
      getStarNames().map((name, i) => ({ name, color: STACK_COLORS[i] })),
    draw: (dashboard, { name }, text) => {
      const stars = getStarNames();
      return renderStackedBars(
        dashboard.ratings.filter((row) => row.count > 0).flatMap((row) =>
          row.distribution.map((value, i) => ({
            label: name(row.slug),
            part: stars[i],
            value,
          }))
        ),
        { text, parts: stars, valueLabel: say("axis.ratings") },
      );
    },
    table: (dashboard, { name }) => ({
      head: [
        say("col.attraction"),
        say("col.average"),
        say("col.ratings"),
        ...getStarNames(),
      ],
      rows: dashboard.ratings.map((row) => [
        name(row.slug),
        row.average === null ? "—" : decimal.format(row.average),
        row.count,
        ...row.distribution,
      ]),
    }),
  },
  {
    id: "grafica-asistente",
    key: "chat",
    legend: () => lineLegend(chatSeries()),
    draw: (dashboard, _, text) => {
      const series = chatSeries();
      return renderDailyLines(
        dashboard.chatByDay.flatMap((row) =>
          [row.questions, row.answered, row.noData, row.refused, row.failed]
            .map((value, i) => ({ day: row.day, series: series[i], value }))
        ),
        { text, valueLabel: say("axis.questions"), series },
      );
    },
    table: (dashboard) => ({
      head: [say("col.day"), ...chatSeries()],
      rows: dashboard.chatByDay.map((row) => [
        formatDay(row.day),
        row.questions,
        row.answered,
        row.noData,
        row.refused,
        row.failed,
      ]),
    }),
  },
];

// --- An attraction's page ---------------------------------------------------

function visitsByWeekday(figures: AttractionFigures): number[] {
  const counts = new Array<number>(7).fill(0);
  for (const row of figures.visitsByDay) {
    counts[getWeekday(row.day)] += row.visits;
  }
  return counts;
}

/** `09:00 a 09:59`: one hour of the day, as the data table names it. */
function formatHourSpan(hour: number): string {
  return say("hourSpan", { hh: String(hour).padStart(2, "0") });
}

/** An attraction's page's charts, in the page's order. */
export const ATTRACTION_CHARTS: readonly ChartSpec<AttractionFigures>[] = [
  VISITS_BY_DAY,
  {
    id: "grafica-semana",
    key: "weekdays",
    draw: (figures, _, text) => {
      const counts = visitsByWeekday(figures);
      return renderColumnChart(
        getWeekdays().map((day, i) => ({
          label: day.slice(0, 3),
          value: counts[i],
        })),
        { text, valueLabel: say("axis.visits") },
      );
    },
    table: (figures) => {
      const counts = visitsByWeekday(figures);
      return {
        head: [say("col.day"), say("col.visits")],
        rows: getWeekdays().map((day, i) => [day, counts[i]]),
      };
    },
  },
  {
    id: "grafica-horas",
    key: "hours",
    note: true,
    draw: (figures, _, text) =>
      renderColumnChart(
        figures.visitsByHour.map((value, hour) => ({
          label: say("hourTick", { hour }),
          value,
        })),
        { text, valueLabel: say("axis.visits"), fitLabels: true },
      ),
    table: (figures) => ({
      head: [say("col.hour"), say("col.visits")],
      rows: figures.visitsByHour.map((visits, hour) => [
        formatHourSpan(hour),
        visits,
      ]),
    }),
  },
  STARS,
];

const decimal = new Intl.NumberFormat(getLangMeta(PANEL_LANG).intlLocale, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
