/**
 * The staff dashboard's presenter: from the figures (`Dashboard`, read by
 * lib/db/stats.ts) to what the page shows, chart by chart: its title, its
 * SVG (drawn by ./charts.ts), its note and the data table beside it. The
 * page component (components/Dashboard.tsx) only lays out what this returns,
 * so a new chart from an existing counter is one entry in
 * {@linkcode presentDashboard}.
 */
import { type Dashboard, getDashboard } from "@/lib/db/stats.ts";
import { getLangMeta, t } from "@/lib/i18n/catalogue.ts";
import {
  renderBarChart,
  renderColumnChart,
  renderDailyLines,
  renderHeatMap,
  renderStackedBars,
  renderSwatches,
} from "./charts.ts";
import type { RangeProblem } from "./range.ts";

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
const PASSPORT_SERIES = ["Pasaportes de invitado", "Cuentas nuevas", "Boletos"];
const CHAT_SERIES = [
  "Preguntas",
  "Respondidas",
  "Rechazadas (429)",
  "Fallidas (502)",
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
  ratingsLegend: string;
  chat: string;
}

/** A data table: numbers are left for the page to write in its locale. */
export interface DataTableView {
  caption: string;
  head: string[];
  rows: (string | number)[][];
}

/** One chart of the page, with its title, an optional note and its data. */
export interface ChartView {
  /** The section's element id (the page links to it). */
  id: string;
  title: string;
  svg: string;
  note?: string;
  table: DataTableView;
}

/** A note of the "latest notes" list, with its attraction's name. */
export interface NoteView {
  visitId: string;
  name: string;
  /** `4 de 5 estrellas`, or `sin calificación`. */
  rating: string;
  /** ISO 8601. */
  ratedAt: string;
  notes: string;
}

/** Everything the dashboard page shows, in order. */
export interface DashboardView {
  from: string;
  to: string;
  /** Verified visits in the range. */
  total: number;
  /** What was wrong with the range asked for, or null. */
  problem: string | null;
  charts: ChartView[];
  latestNotes: NoteView[];
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
  const range = `del ${dashboard.from} al ${dashboard.to}`;
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
    ratingsLegend: renderSwatches(STARS, {
      label: "Colores de 1 a 5 estrellas",
    }),
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
            `Líneas: preguntas al asistente cada día ${range}, respondidas, rechazadas por exceso (429) y fallidas (502).`,
        },
        valueLabel: "Preguntas",
        series: CHAT_SERIES,
      },
    ),
  });
}

/**
 * The dashboard page's content, from the figures and their drawn charts:
 * each chart's section and data table, in the page's order, and the latest
 * notes. Pure: the same figures give the same view.
 */
export function presentDashboard(
  dashboard: Dashboard,
  { charts, names, problem }: {
    charts: DashboardCharts;
    names: ReadonlyMap<string, string>;
    problem: RangeProblem | null;
  },
): DashboardView {
  const name = (slug: string) => names.get(slug) ?? slug;
  return {
    from: dashboard.from,
    to: dashboard.to,
    total: dashboard.visitsByDay.reduce((sum, row) => sum + row.visits, 0),
    problem: problem && RANGE_PROBLEMS[problem],
    charts: [
      {
        id: "grafica-atractivos",
        title: "Visitas por atractivo",
        svg: charts.visitsByAttraction,
        table: {
          caption: "Visitas por atractivo en el periodo",
          head: ["Atractivo", "Visitas"],
          rows: [...dashboard.visitsByAttraction]
            .sort((a, b) => b.visits - a.visits)
            .map((row) => [name(row.slug), row.visits]),
        },
      },
      {
        id: "grafica-dias",
        title: "Visitas por día",
        svg: charts.visitsByDay,
        table: {
          caption: "Visitas por día",
          head: ["Día", "Visitas"],
          rows: dashboard.visitsByDay.map((row) => [row.day, row.visits]),
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
        table: {
          caption: "Pasaportes y boletos por día",
          head: ["Día", ...PASSPORT_SERIES],
          rows: dashboard.passportsByDay.map((row, i) => [
            row.day,
            row.guest,
            row.account,
            dashboard.ticketsByDay[i]?.tickets ?? 0,
          ]),
        },
      },
      {
        id: "grafica-calificaciones",
        title: "Calificaciones por atractivo",
        svg: charts.ratingsLegend + charts.ratings,
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
        table: {
          caption: "Preguntas al asistente por día",
          head: ["Día", ...CHAT_SERIES],
          rows: dashboard.chatByDay.map((row) => [
            row.day,
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
  { from, to, names, problem }: {
    from: string;
    to: string;
    names: ReadonlyMap<string, string>;
    problem: RangeProblem | null;
  },
): Promise<DashboardView> {
  const dashboard = await getDashboard(kv, {
    from,
    to,
    slugs: [...names.keys()],
  });
  const charts = await renderDashboardCharts(dashboard, names);
  return presentDashboard(dashboard, { charts, names, problem });
}
