/**
 * The console's page of one attraction (`/panel/atractivos/<slug>`): its
 * visits by day, by day of the week and by hour of the day in the period
 * asked for, its
 * ratings and their distribution, its newest notes that show (never a
 * hidden one: lib/db/notes.ts), all from the counters and the notes index (lib/db/stats.ts), never a
 * scan of the visits. The page component (components/AttractionReport.tsx)
 * only lays out what this returns; the code and poster are the route's.
 */
import {
  DEFAULT_TIME_ZONE,
  getAttractionFigures,
  getDashboard,
} from "@/lib/db/stats.ts";
import { getWeekday } from "@/lib/calendar/mod.ts";
import { renderColumnChart, renderDailyLines } from "./charts.ts";
import {
  attractionHref,
  type ChartView,
  formatMonthRange,
  type HeadlineView,
  type QuickRangeView,
  RANGE_PROBLEMS,
  WEEKDAYS,
} from "./dashboard.ts";
import {
  formatDay,
  formatDayRange,
  getQuickRanges,
  type RangeProblem,
} from "./range.ts";

const STARS = [
  "1 estrella",
  "2 estrellas",
  "3 estrellas",
  "4 estrellas",
  "5 estrellas",
];
const integer = new Intl.NumberFormat("es-MX");
const decimal = new Intl.NumberFormat("es-MX", {
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

/** `09:00 a 09:59`: one hour of the day, as the data table names it. */
function formatHourSpan(hour: number): string {
  const hh = String(hour).padStart(2, "0");
  return `${hh}:00 a ${hh}:59`;
}

function ratingText(rating: number | null): string {
  return rating === null ? "sin calificación" : `${rating} de 5 estrellas`;
}

/**
 * The attraction page's content for the days `from`..`to`: the figures
 * read, the charts drawn (visits by day, by day of the week, by hour,
 * ratings by stars), the headline figures, the notes.
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
  const range = formatDayRange({ from, to });
  const total = figures.visitsByDay.reduce((sum, row) => sum + row.visits, 0);
  const byWeekday = WEEKDAYS.map(() => 0);
  for (const row of figures.visitsByDay) {
    byWeekday[getWeekday(row.day)] += row.visits;
  }
  const { ratings, ratingsInMonths } = figures;
  const hours = figures.visitsByHour;
  const [byDay, weekdays, byHour, stars] = await Promise.all([
    renderDailyLines(
      figures.visitsByDay.map((row) => ({
        day: row.day,
        series: "Visitas",
        value: row.visits,
      })),
      {
        text: {
          label: `Visitas por día: ${name}`,
          description: `Línea: visitas verificadas cada día ${range}.`,
        },
        valueLabel: "Visitas",
        series: ["Visitas"],
      },
    ),
    renderColumnChart(
      WEEKDAYS.map((day, i) => ({
        label: day.slice(0, 3),
        value: byWeekday[i],
      })),
      {
        text: {
          label: `Visitas por día de la semana: ${name}`,
          description:
            `Columnas: visitas verificadas de cada día de la semana, de lunes a domingo, ${range}.`,
        },
        valueLabel: "Visitas",
      },
    ),
    renderColumnChart(
      hours.map((value, hour) => ({ label: `${hour} h`, value })),
      {
        text: {
          label: `Visitas por hora: ${name}`,
          description:
            `Columnas: visitas verificadas en cada hora del día, de las 0 a las 23 h (hora local), ${range}.`,
        },
        valueLabel: "Visitas",
        fitLabels: true,
      },
    ),
    renderColumnChart(
      STARS.map((label, i) => ({ label, value: ratings.distribution[i] })),
      {
        text: {
          label: `Calificaciones por estrellas: ${name}`,
          description:
            "Columnas: cuántas calificaciones de 1 a 5 estrellas tiene el atractivo, desde el inicio.",
        },
        valueLabel: "Calificaciones",
      },
    ),
  ]);
  const months = formatMonthRange(
    ratingsInMonths.fromMonth,
    ratingsInMonths.toMonth,
  );
  const dateTime = new Intl.DateTimeFormat("es-MX", {
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
    period: range,
    problem: problem && RANGE_PROBLEMS[problem],
    quickRanges: getQuickRanges(now, timeZone).map((quick) => ({
      label: quick.label,
      href: `/panel/atractivos/${slug}?desde=${quick.from}&hasta=${quick.to}`,
      isCurrent: quick.from === from && quick.to === to,
    })),
    headlines: [
      {
        id: "visitas",
        label: "Visitas",
        value: integer.format(total),
        detail: `verificadas con código ${range}`,
        ...none,
      },
      {
        id: "calificacion",
        label: "Calificación promedio",
        value: ratings.average === null
          ? "—"
          : `${decimal.format(ratings.average)} de 5`,
        detail: `${integer.format(ratings.count)} ${
          ratings.count === 1 ? "calificación" : "calificaciones"
        } desde el inicio`,
        ...none,
      },
      {
        id: "calificacion-periodo",
        label: "Calificaciones del periodo",
        value: integer.format(ratingsInMonths.count),
        detail: ratingsInMonths.average === null
          ? `dadas ${months} (se cuentan por mes)`
          : `dadas ${months}, promedio ${
            decimal.format(ratingsInMonths.average)
          } de 5 (se cuentan por mes)`,
        ...none,
      },
    ],
    charts: [
      {
        id: "grafica-dias",
        title: "Visitas por día",
        svg: byDay,
        table: {
          caption: "Visitas por día",
          head: ["Día", "Visitas"],
          rows: figures.visitsByDay.map((row) => [
            formatDay(row.day),
            row.visits,
          ]),
        },
      },
      {
        id: "grafica-semana",
        title: "Visitas por día de la semana",
        svg: weekdays,
        table: {
          caption: "Visitas por día de la semana",
          head: ["Día", "Visitas"],
          rows: WEEKDAYS.map((day, i) => [day, byWeekday[i]]),
        },
      },
      {
        id: "grafica-horas",
        title: "Visitas por hora",
        svg: byHour,
        note: "Hora local del municipio, de las 0 a las 23 h.",
        table: {
          caption: "Visitas por hora",
          head: ["Hora", "Visitas"],
          rows: hours.map((visits, hour) => [formatHourSpan(hour), visits]),
        },
      },
      {
        id: "grafica-calificaciones",
        title: "Calificaciones por estrellas",
        svg: stars,
        note:
          "Desde el inicio: las calificaciones vigentes (una calificación cambiada cuenta una sola vez).",
        table: {
          caption: "Calificaciones por estrellas",
          head: ["Estrellas", "Calificaciones"],
          rows: STARS.map((label, i) => [label, ratings.distribution[i]]),
        },
      },
    ],
    notes: figures.notes.map((note) => ({
      visitId: note.visitId,
      rating: ratingText(note.rating),
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
    problem: problem && RANGE_PROBLEMS[problem],
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
        average: average === null ? "—" : `${decimal.format(average)} de 5`,
        ratings: rated?.count ?? 0,
      };
    }),
  };
}
