/**
 * The staff dashboard's presenter: from the figures (`Dashboard`, read by
 * lib/db/stats.ts) to what the page shows, chart by chart: its title, its
 * SVG (drawn by ./charts.ts), its note and the data table beside it. The
 * page component (components/Dashboard.tsx) only lays out what this returns,
 * so a new chart from an existing counter is one entry in
 * {@linkcode presentDashboard}.
 */
import {
  type Dashboard,
  DEFAULT_TIME_ZONE,
  getDashboard,
  getPeriodTotals,
  type PeriodTotals,
} from "@/lib/db/stats.ts";
import { getLangMeta, t } from "@/lib/i18n/catalogue.ts";
import {
  renderBarChart,
  renderColumnChart,
  renderDailyLines,
  renderHeatMap,
  renderStackedBars,
  SERIES_COLORS,
  SERIES_DASHES,
  STACK_COLORS,
} from "./charts.ts";
import {
  type DayRange,
  formatDay,
  formatDayRange,
  getPreviousRange,
  getQuickRanges,
  type RangeProblem,
} from "./range.ts";

/** The console speaks Spanish: its words that come from a catalogue, in this language. */
const DASHBOARD_LANG = "es";

/** The rows of the hour heat map, Monday first (`weekday` 0). */
export const WEEKDAYS = [
  "Lunes",
  "Martes",
  "Miércoles",
  "Jueves",
  "Viernes",
  "Sábado",
  "Domingo",
];
const STARS = [
  "1 estrella",
  "2 estrellas",
  "3 estrellas",
  "4 estrellas",
  "5 estrellas",
];
const PASSPORT_SERIES = [
  "Pasaportes de invitado",
  "Cuentas nuevas",
  "Boletos creados",
];
/** The chat outcomes in a clerk's words: 200, 429 (too many from one address), 502. */
const CHAT_SERIES = [
  "Preguntas recibidas",
  "Respondidas",
  "Sin respuesta: demasiadas seguidas",
  "Sin respuesta: falló el asistente",
];

/** What the page says when the range asked for was not used. */
export const RANGE_PROBLEMS: Record<RangeProblem, string> = {
  invalid:
    "Las fechas no son válidas: escríbelas como AAAA-MM-DD. Mostramos los últimos 30 días.",
  reversed:
    "La fecha de inicio es posterior a la de fin. Mostramos los últimos 30 días.",
  too_long:
    "El periodo puede abarcar a lo más 366 días. Mostramos los últimos 30 días.",
};

const integer = new Intl.NumberFormat("es-MX");
const decimal = new Intl.NumberFormat("es-MX", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** The dashboard's charts as inline SVG, drawn by Plot (./charts.ts). */
export interface DashboardCharts {
  visitsByAttraction: string;
  visitsByDay: string;
  visitsByHour: string;
  funnel: string;
  passports: string;
  ratings: string;
  chat: string;
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

function lineLegend(series: readonly string[]): LegendItem[] {
  return series.map((name, i) => ({
    name,
    color: SERIES_COLORS[i % SERIES_COLORS.length],
    dash: SERIES_DASHES[i % SERIES_DASHES.length],
  }));
}

function swatches(
  parts: readonly string[],
  colors: readonly string[],
): LegendItem[] {
  return parts.map((name, i) => ({ name, color: colors[i] }));
}

const percent = new Intl.NumberFormat("es-MX", {
  style: "percent",
  maximumFractionDigits: 0,
});
const monthName = new Intl.DateTimeFormat("es-MX", {
  month: "long",
  timeZone: "UTC",
});
const monthYear = new Intl.DateTimeFormat("es-MX", {
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
  if (fromMonth === toMonth) return `en ${end}`;
  const start = (sameYear ? monthName : monthYear).format(date(fromMonth));
  return `de ${start} a ${end}`;
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
      comparison: previous === 0
        ? `igual que ${period}: ${none}`
        : `igual que ${period}`,
    };
  }
  if (previous === 0) {
    return { trend: "up", comparison: `${period} no hubo ${none}` };
  }
  const change = Math.abs(current - previous) / previous;
  const amount = change < 0.005 ? "menos de 1%" : percent.format(change);
  return current > previous
    ? { trend: "up", comparison: `${amount} más que ${period}` }
    : { trend: "down", comparison: `${amount} menos que ${period}` };
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
      "Visitas",
      "verificadas con código en los atractivos",
      (t) => t.visits,
      "ninguna",
    ),
    count(
      "turistas",
      "Turistas nuevos",
      "pasaportes que recibieron su primer sello",
      (t) => t.firstStamps,
      "ninguno",
    ),
    count(
      "pasaportes",
      "Pasaportes nuevos",
      "de invitado y cuentas abiertas",
      (t) => t.passports,
      "ninguno",
    ),
    presentRating(current, previous),
    count(
      "preguntas",
      "Preguntas respondidas",
      "por el asistente",
      (t) => t.answered,
      "ninguna",
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
    label: "Calificación promedio",
    value: now === null ? "—" : `${decimal.format(now)} de 5`,
    detail: n === 0
      ? `sin calificaciones dadas ${months}`
      : `${integer.format(n)} ${
        n === 1 ? "calificación dada" : "calificaciones dadas"
      } ${months} (se cuentan por mes)`,
  };
  if (
    current.ratings.fromMonth === previous.ratings.fromMonth &&
    current.ratings.toMonth === previous.ratings.toMonth
  ) {
    return {
      ...base,
      trend: "none",
      comparison: "sin comparación: el periodo anterior cae en el mismo mes",
    };
  }
  if (now === null || then === null) {
    return {
      ...base,
      trend: "none",
      comparison: then === null
        ? `sin calificaciones ${before} para comparar`
        : `${before} fue de ${decimal.format(then)} de 5`,
    };
  }
  const diff = Math.round((now - then) * 10) / 10;
  return {
    ...base,
    ...(diff === 0
      ? { trend: "same" as const, comparison: `igual que ${before}` }
      : {
        trend: diff > 0 ? "up" as const : "down" as const,
        comparison: `${decimal.format(Math.abs(diff))} ${
          diff > 0 ? "más" : "menos"
        } que ${before} (${decimal.format(then)})`,
      }),
  };
}

function stampsLabel(stamps: number): string {
  return stamps === 1 ? "1 sello" : `${stamps} sellos`;
}

/** Awaits every promise of `promises` at once: the same keys, with their values. */
async function awaitAll<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(
    Object.entries(promises).map(async ([key, value]) => [key, await value]),
  );
  return Object.fromEntries(entries);
}

/**
 * Draws the dashboard's charts. `names` gives each attraction's name by
 * slug (a slug no longer in the data set shows as itself).
 */
export async function renderDashboardCharts(
  dashboard: Dashboard,
  names: ReadonlyMap<string, string>,
): Promise<DashboardCharts> {
  const name = (slug: string) => names.get(slug) ?? slug;
  const range = formatDayRange(dashboard);
  const rated = dashboard.ratings.filter((row) => row.count > 0);
  return await awaitAll({
    visitsByAttraction: renderBarChart(
      dashboard.visitsByAttraction.map((row) => ({
        label: name(row.slug),
        value: row.visits,
      })),
      {
        text: {
          label: "Visitas por atractivo",
          description:
            `Barras: visitas verificadas de cada atractivo ${range}.`,
        },
        valueLabel: "Visitas",
      },
    ),
    visitsByDay: renderDailyLines(
      dashboard.visitsByDay.map((row) => ({
        day: row.day,
        series: "Visitas",
        value: row.visits,
      })),
      {
        text: {
          label: "Visitas por día",
          description: `Línea: visitas verificadas cada día ${range}.`,
        },
        valueLabel: "Visitas",
        series: ["Visitas"],
      },
    ),
    visitsByHour: renderHeatMap(
      dashboard.visitsByHour.map((cell) => ({
        column: cell.hour,
        row: WEEKDAYS[cell.weekday],
        value: cell.visits,
      })),
      {
        text: {
          label: "Visitas por hora y día de la semana",
          description:
            `Mapa de calor: visitas de cada hora (0 a 23) de cada día de la semana ${range}; más oscuro es más visitas.`,
        },
        rows: WEEKDAYS,
        columnLabel: "Hora del día",
      },
    ),
    funnel: renderColumnChart(
      dashboard.funnel.map((row) => ({
        label: stampsLabel(row.stamps),
        value: row.inRange,
      })),
      {
        text: {
          label: "Turistas por número de sellos",
          description: t(DASHBOARD_LANG, "panel.funnelNote", {
            stamps: new Intl.ListFormat(getLangMeta(DASHBOARD_LANG).intlLocale)
              .format(dashboard.funnel.map((row) => String(row.stamps))),
            range,
          }),
        },
        valueLabel: "Turistas",
      },
    ),
    passports: renderDailyLines(
      dashboard.passportsByDay.flatMap((row, i) => [
        { day: row.day, series: PASSPORT_SERIES[0], value: row.guest },
        { day: row.day, series: PASSPORT_SERIES[1], value: row.account },
        {
          day: row.day,
          series: PASSPORT_SERIES[2],
          value: dashboard.ticketsByDay[i]?.tickets ?? 0,
        },
      ]),
      {
        text: {
          label: "Pasaportes abiertos y boletos por día",
          description:
            `Líneas: pasaportes de invitado abiertos, cuentas nuevas y boletos creados cada día ${range}.`,
        },
        valueLabel: "Cantidad",
        series: PASSPORT_SERIES,
      },
    ),
    ratings: renderStackedBars(
      rated.flatMap((row) =>
        row.distribution.map((value, i) => ({
          label: name(row.slug),
          part: STARS[i],
          value,
        }))
      ),
      {
        text: {
          label: "Calificaciones por atractivo",
          description:
            "Barras apiladas: cuántas calificaciones de 1 a 5 estrellas tiene cada atractivo, desde el inicio.",
        },
        parts: STARS,
        valueLabel: "Calificaciones",
      },
    ),
    chat: renderDailyLines(
      dashboard.chatByDay.flatMap((row) => [
        { day: row.day, series: CHAT_SERIES[0], value: row.questions },
        { day: row.day, series: CHAT_SERIES[1], value: row.answered },
        { day: row.day, series: CHAT_SERIES[2], value: row.refused },
        { day: row.day, series: CHAT_SERIES[3], value: row.failed },
      ]),
      {
        text: {
          label: "Asistente: preguntas por día",
          description:
            `Líneas: preguntas recibidas por el asistente cada día ${range}, las respondidas y las que quedaron sin respuesta porque llegaron demasiadas seguidas o porque el asistente falló.`,
        },
        valueLabel: "Preguntas",
        series: CHAT_SERIES,
      },
    ),
  });
}

/** The console's page of an attraction, for the same days. */
export function attractionHref(slug: string, { from, to }: DayRange): string {
  return `/panel/atractivos/${
    encodeURIComponent(slug)
  }?desde=${from}&hasta=${to}`;
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
  const name = (slug: string) => names.get(slug) ?? slug;
  const byVisits = [...dashboard.visitsByAttraction]
    .sort((a, b) => b.visits - a.visits);
  return {
    from: dashboard.from,
    to: dashboard.to,
    period: formatDayRange(dashboard),
    previousPeriod: formatDayRange(getPreviousRange(dashboard)),
    headlines: totals ? presentHeadlines(totals.current, totals.previous) : [],
    quickRanges: quickRanges.map((range) => ({
      label: range.label,
      href: `/panel?desde=${range.from}&hasta=${range.to}`,
      isCurrent: range.from === dashboard.from && range.to === dashboard.to,
    })),
    total: dashboard.visitsByDay.reduce((sum, row) => sum + row.visits, 0),
    problem: problem && RANGE_PROBLEMS[problem],
    charts: [
      {
        id: "grafica-atractivos",
        title: "Visitas por atractivo",
        svg: charts.visitsByAttraction,
        // The chart is one picture (role="img"): its names cannot be links
        // a keyboard reaches, so each attraction's page is linked beside it.
        links: {
          label: "Páginas de los atractivos",
          items: byVisits.map((row) => ({
            name: name(row.slug),
            href: attractionHref(row.slug, dashboard),
          })),
        },
        table: {
          caption: "Visitas por atractivo en el periodo",
          head: ["Atractivo", "Visitas"],
          rows: byVisits.map((row) => [name(row.slug), row.visits]),
          rowLinks: byVisits.map((row) => attractionHref(row.slug, dashboard)),
        },
      },
      {
        id: "grafica-dias",
        title: "Visitas por día",
        svg: charts.visitsByDay,
        table: {
          caption: "Visitas por día",
          head: ["Día", "Visitas"],
          rows: dashboard.visitsByDay.map((row) => [
            formatDay(row.day),
            row.visits,
          ]),
        },
      },
      {
        id: "grafica-horas",
        title: "Visitas por hora y día de la semana",
        svg: charts.visitsByHour,
        table: {
          caption: "Visitas por día de la semana (filas) y hora (columnas)",
          head: [
            "Día",
            ...Array.from({ length: 24 }, (_, hour) => `${hour} h`),
          ],
          rows: WEEKDAYS.map((day, weekday) => [
            day,
            ...dashboard.visitsByHour
              .filter((cell) => cell.weekday === weekday)
              .map((cell) => cell.visits),
          ]),
        },
      },
      {
        id: "grafica-sellos",
        title: "Turistas por número de sellos",
        svg: charts.funnel,
        note:
          "Cuántos turistas llegaron a su primer sello y a los sellos de cada insignia (Explorador, Veterano, Leyenda) en el periodo.",
        table: {
          caption: "Turistas por número de sellos",
          head: ["Sellos", "En el periodo", "Desde el inicio"],
          rows: dashboard.funnel.map((row) => [
            stampsLabel(row.stamps),
            row.inRange,
            row.allTime,
          ]),
        },
      },
      {
        id: "grafica-pasaportes",
        title: "Pasaportes abiertos y boletos por día",
        svg: charts.passports,
        legend: lineLegend(PASSPORT_SERIES),
        table: {
          caption: "Pasaportes y boletos por día",
          head: ["Día", ...PASSPORT_SERIES],
          rows: dashboard.passportsByDay.map((row, i) => [
            formatDay(row.day),
            row.guest,
            row.account,
            dashboard.ticketsByDay[i]?.tickets ?? 0,
          ]),
        },
      },
      {
        id: "grafica-calificaciones",
        title: "Calificaciones por atractivo",
        svg: charts.ratings,
        legend: swatches(STARS, STACK_COLORS),
        note:
          "Desde el inicio: las calificaciones vigentes de cada atractivo (una calificación cambiada cuenta una sola vez).",
        table: {
          caption: "Calificaciones por atractivo",
          head: ["Atractivo", "Promedio", "Calificaciones", ...STARS],
          rows: dashboard.ratings.map((row) => [
            name(row.slug),
            row.average === null ? "—" : decimal.format(row.average),
            row.count,
            ...row.distribution,
          ]),
        },
      },
      {
        id: "grafica-asistente",
        title: "Asistente: preguntas por día",
        svg: charts.chat,
        legend: lineLegend(CHAT_SERIES),
        table: {
          caption: "Preguntas al asistente por día",
          head: ["Día", ...CHAT_SERIES],
          rows: dashboard.chatByDay.map((row) => [
            formatDay(row.day),
            row.questions,
            row.answered,
            row.refused,
            row.failed,
          ]),
        },
      },
    ],
    latestNotes: dashboard.latestNotes.map((note) => ({
      visitId: note.visitId,
      name: name(note.slug),
      rating: note.rating === null
        ? "sin calificación"
        : `${note.rating} de 5 estrellas`,
      ratedAt: note.ratedAt,
      ratedAtText: new Intl.DateTimeFormat("es-MX", {
        dateStyle: "long",
        timeStyle: "short",
        timeZone,
      }).format(new Date(note.ratedAt)),
      notes: note.notes,
    })),
  };
}

/**
 * The dashboard page's content for the days `from`..`to`: the figures read
 * from the counters (lib/db/stats.ts), the charts drawn, the view built.
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
