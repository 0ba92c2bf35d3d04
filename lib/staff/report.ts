/**
 * The monthly report for the town council (`/panel/informe?mes=YYYY-MM`):
 * a PDF with the month's headline figures beside the previous month's, a
 * chart of visits per day, the most visited attractions and what visitors
 * asked that the data set did not answer. Its figures are the dashboard's
 * for that month (the same counters, read by `getDashboard`, and the same
 * table of attractions from {@linkcode presentDashboard}), so the council
 * and the office read one set of numbers. Drawn with pdfkit, Inter
 * embedded; exact counts, as the dashboard's: the report is the office's.
 */
import { addMonths, getLocalTime, listDays } from "@/lib/calendar/mod.ts";
import { A4, openPdf, type PdfDoc } from "@/lib/pdf/mod.ts";
import {
  type Dashboard,
  getDashboard,
  listMonthlyRatingCounts,
} from "@/lib/db/stats.ts";
import {
  listQuestionGroups,
  type QuestionGroup,
} from "@/lib/db/unanswered_questions.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import { type DashboardCharts, presentDashboard } from "./dashboard.ts";

/** `YYYY-MM`, a month of the Gregorian calendar. */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** How many attractions and questions the report lists. */
const TOP = 10;

/** The month a report is of: `mes` when valid, else the last month over. */
export function parseReportMonth(
  mes: string | undefined,
  { now, timeZone }: { now: Date; timeZone: string },
): string | null {
  if (mes === undefined || mes === "") {
    return addMonths(getLocalTime(now, timeZone).month, -1);
  }
  return MONTH.test(mes) ? mes : null;
}

/** `noviembre de 2026`. */
export function formatReportMonth(month: string): string {
  return new Intl.DateTimeFormat("es-MX", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${month}-01T12:00:00Z`));
}

/** A month's headline figures. */
export interface MonthFigures {
  visits: number;
  /** Tourists whose first stamp fell in the month. */
  newTourists: number;
  /** Guest passports and accounts opened. */
  passports: number;
  tickets: number;
  ratings: number;
  /** The month's ratings' average, or null without any. */
  averageRating: number | null;
  questions: number;
  answered: number;
}

/** What the report shows, before it is drawn. */
export interface MonthlyReport {
  month: string;
  previousMonth: string;
  municipality: string;
  brand: string;
  current: MonthFigures;
  previous: MonthFigures;
  visitsByDay: { day: string; visits: number }[];
  /** Name and visits, most visited first. */
  topAttractions: [string, number][];
  questions: QuestionGroup[];
}

async function getMonth(
  kv: Deno.Kv,
  { month, slugs }: { month: string; slugs: string[] },
): Promise<{ dashboard: Dashboard; figures: MonthFigures }> {
  const days = listDays(`${month}-01`, `${addMonths(month, 1)}-01`).slice(
    0,
    -1,
  );
  const [dashboard, ratings] = await Promise.all([
    getDashboard(kv, {
      from: days[0],
      to: days.at(-1)!,
      slugs,
      notesLimit: 0,
    }),
    listMonthlyRatingCounts(kv, { fromMonth: month, toMonth: month }),
  ]);
  const sum = <T>(rows: T[], pick: (row: T) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const count = sum(ratings, (row) => row.count);
  return {
    dashboard,
    figures: {
      visits: sum(dashboard.visitsByDay, (row) => row.visits),
      newTourists: dashboard.funnel.find((row) => row.stamps === 1)?.inRange ??
        0,
      passports: sum(
        dashboard.passportsByDay,
        (row) => row.guest + row.account,
      ),
      tickets: sum(dashboard.ticketsByDay, (row) => row.tickets),
      ratings: count,
      averageRating: count > 0
        ? sum(ratings, (row) => row.count * row.rating) / count
        : null,
      questions: sum(dashboard.chatByDay, (row) => row.questions),
      answered: sum(dashboard.chatByDay, (row) => row.answered),
    },
  };
}

/** The report of `month`: a few range reads of counters, never a visit. */
export async function loadMonthlyReport(
  kv: Deno.Kv,
  { month, data, now }: { month: string; data: TourismData; now: Date },
): Promise<MonthlyReport> {
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const slugs = [...names.keys()];
  const previousMonth = addMonths(month, -1);
  const [current, previous, questions] = await Promise.all([
    getMonth(kv, { month, slugs }),
    getMonth(kv, { month: previousMonth, slugs }),
    listQuestionGroups(kv, { status: "open", now, limit: TOP }),
  ]);
  // The dashboard's own table of attractions: the same order and names.
  const noCharts = {} as DashboardCharts;
  const view = presentDashboard(current.dashboard, {
    charts: noCharts,
    names,
    problem: null,
  });
  const byAttraction = view.charts.find((chart) =>
    chart.id === "grafica-atractivos"
  );
  return {
    month,
    previousMonth,
    municipality: `${data.municipality.name}, ${data.municipality.state}`,
    brand: data.branding.name,
    current: current.figures,
    previous: previous.figures,
    visitsByDay: current.dashboard.visitsByDay,
    topAttractions: (byAttraction?.table.rows ?? [])
      .filter((row) => Number(row[1]) > 0)
      .slice(0, TOP)
      .map((row) => [String(row[0]), Number(row[1])]),
    questions: questions.values,
  };
}

const integer = new Intl.NumberFormat("es-MX");
const decimal = new Intl.NumberFormat("es-MX", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

// A4 in points, with 2 cm margins.
const PAGE = { ...A4, margin: 56.7 };
const INK = "#1f2426";
const MUTED = "#555555";

/**
 * The report as PDF bytes (A4, Spanish). `colors` are the portal's brand
 * colours for the headings and the chart.
 */
export async function renderMonthlyReportPdf(
  report: MonthlyReport,
  { colors }: { colors: { primary: string; accent: string } },
): Promise<Uint8Array<ArrayBuffer>> {
  const monthName = formatReportMonth(report.month);
  const previousName = formatReportMonth(report.previousMonth);
  const title = `Informe de turismo de ${report.municipality}: ${monthName}`;
  const { doc, finish } = await openPdf({
    margin: PAGE.margin,
    info: { Title: title, Author: report.brand, Creator: report.brand },
    displayTitle: true,
  });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const heading = (text: string) => {
    doc.moveDown(1.2).font("Inter-Bold").fontSize(14).fillColor(
      colors.primary,
    ).text(text, left);
    doc.moveDown(0.4).font("Inter").fontSize(10).fillColor(INK);
  };

  doc.font("Inter").fontSize(10).fillColor(MUTED).text(report.brand);
  doc.font("Inter-Bold").fontSize(20).fillColor(INK).text(
    `Informe de turismo: ${monthName}`,
  );
  doc.font("Inter").fontSize(12).fillColor(MUTED).text(report.municipality);

  // Headline figures: this month and the one before.
  heading("Cifras del mes");
  const { current, previous } = report;
  const rating = (figures: MonthFigures) =>
    figures.averageRating === null
      ? "—"
      : `${decimal.format(figures.averageRating)} (${
        integer.format(figures.ratings)
      })`;
  drawTable(doc, {
    head: ["", capitalize(monthName), capitalize(previousName)],
    widths: [0.5, 0.25, 0.25].map((share) => share * width),
    rows: [
      ["Visitas verificadas", current.visits, previous.visits],
      [
        "Turistas nuevos (primer sello)",
        current.newTourists,
        previous.newTourists,
      ],
      ["Pasaportes nuevos", current.passports, previous.passports],
      ["Boletos creados", current.tickets, previous.tickets],
      [
        "Calificación promedio (calificaciones)",
        rating(current),
        rating(previous),
      ],
      [
        "Preguntas respondidas por el asistente",
        `${integer.format(current.answered)} de ${
          integer.format(current.questions)
        }`,
        `${integer.format(previous.answered)} de ${
          integer.format(previous.questions)
        }`,
      ],
    ].map((row) =>
      row.map((cell) => typeof cell === "number" ? integer.format(cell) : cell)
    ),
    left,
  });

  heading("Visitas por día");
  drawColumns(doc, report.visitsByDay, {
    left,
    width,
    height: 150,
    color: colors.primary,
  });

  heading("Atractivos más visitados");
  if (report.topAttractions.length === 0) {
    doc.text("Ningún atractivo registró visitas este mes.");
  } else {
    drawTable(doc, {
      head: ["Atractivo", "Visitas"],
      widths: [0.75 * width, 0.25 * width],
      rows: report.topAttractions.map(([name, visits]) => [
        name,
        integer.format(visits),
      ]),
      left,
    });
  }

  heading("Lo que preguntaron y los datos no respondieron");
  doc.fillColor(MUTED).text(
    "Preguntas al asistente sin respuesta en los datos del portal, agrupadas (las más repetidas primero, de los últimos 90 días). Los datos personales se ocultaron al guardarlas.",
  ).fillColor(INK).moveDown(0.4);
  if (report.questions.length === 0) {
    doc.text("No hay preguntas pendientes.");
  } else {
    drawTable(doc, {
      head: ["Pregunta", "Veces"],
      widths: [0.8 * width, 0.2 * width],
      rows: report.questions.map((group) => [
        group.text,
        integer.format(group.count),
      ]),
      left,
    });
  }
  return await finish();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A table with a bold head row; a row that would not fit starts a new page. */
function drawTable(
  doc: PdfDoc,
  { head, rows, widths, left }: {
    head: string[];
    rows: string[][];
    widths: number[];
    left: number;
  },
): void {
  const pad = 4;
  const line = (cells: string[], bold: boolean) => {
    doc.font(bold ? "Inter-Bold" : "Inter").fontSize(10);
    const height = Math.max(
      ...cells.map((cell, i) =>
        doc.heightOfString(cell, { width: widths[i] - 2 * pad })
      ),
    ) + 2 * pad;
    if (doc.y + height > PAGE.height - PAGE.margin) doc.addPage();
    const top = doc.y;
    let x = left;
    cells.forEach((cell, i) => {
      doc.text(cell, x + pad, top + pad, {
        width: widths[i] - 2 * pad,
        align: i === 0 ? "left" : "right",
      });
      x += widths[i];
    });
    const bottom = top + height;
    doc.moveTo(left, bottom).lineTo(x, bottom).lineWidth(bold ? 1 : 0.4)
      .strokeColor(bold ? INK : "#bbbbbb").stroke();
    doc.x = left;
    doc.y = bottom;
  };
  line(head, true);
  for (const row of rows) line(row, false);
}

/** Columns of visits per day, with the scale's top and the first and last days labelled. */
function drawColumns(
  doc: PdfDoc,
  days: { day: string; visits: number }[],
  { left, width, height, color }: {
    left: number;
    width: number;
    height: number;
    color: string;
  },
): void {
  if (doc.y + height + 30 > PAGE.height - PAGE.margin) doc.addPage();
  const top = doc.y;
  const axis = 36;
  const plotWidth = width - axis;
  const max = Math.max(1, ...days.map((row) => row.visits));
  const step = plotWidth / Math.max(1, days.length);
  doc.font("Inter").fontSize(8).fillColor(MUTED);
  doc.text(integer.format(max), left, top - 4, {
    width: axis - 6,
    align: "right",
  });
  doc.text("0", left, top + height - 8, { width: axis - 6, align: "right" });
  days.forEach((row, i) => {
    const barHeight = (row.visits / max) * height;
    if (barHeight > 0) {
      doc.rect(
        left + axis + i * step + step * 0.15,
        top + height - barHeight,
        step * 0.7,
        barHeight,
      ).fill(color);
    }
  });
  doc.moveTo(left + axis, top + height).lineTo(left + width, top + height)
    .lineWidth(0.6).strokeColor(INK).stroke();
  doc.fillColor(MUTED);
  const first = days[0]?.day.slice(8);
  const last = days.at(-1)?.day.slice(8);
  doc.text(`Día ${Number(first)}`, left + axis, top + height + 4, {
    width: 60,
  });
  doc.text(`Día ${Number(last)}`, left + width - 60, top + height + 4, {
    width: 60,
    align: "right",
  });
  doc.fillColor(INK);
  doc.x = left;
  doc.y = top + height + 20;
}
