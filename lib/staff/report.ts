/**
 * The monthly report for the town council (`/panel/informe?mes=YYYY-MM`):
 * a PDF with the month's headline figures beside the previous month's, a
 * chart of visits per day, the most visited attractions and what visitors
 * asked that month that the data set did not answer. Every section covers
 * the chosen month only; a month still running says so, and up to which
 * day. Its figures are the dashboard's for that month (the same counters,
 * read by `getDashboard`, and the same table of attractions from
 * {@linkcode presentDashboard}), so the council and the office read one set
 * of numbers. Drawn with pdfkit, Inter embedded, its pages numbered; exact
 * counts, as the dashboard's: the report is the office's. The loader
 * returns facts; the words come from `locales/<lang>/panel_exports.json`.
 */
import { loadPrizeReport, type PrizeReportRow } from "@/lib/rewards/report.ts";
import { addMonths, getLocalClockTime } from "@/lib/calendar/mod.ts";
import { formatDate, formatMonth, formatRating } from "@/lib/format/mod.ts";
import { DEFAULT_LANG, getLangMeta, type Lang, t } from "@/lib/i18n/mod.ts";
import {
  A4,
  drawTable,
  measureTable,
  openPdf,
  type PdfDoc,
  type TableSpec,
} from "@/lib/pdf/mod.ts";
import {
  type Dashboard,
  getDashboard,
  listMonthlyRatingCounts,
} from "@/lib/figures/mod.ts";
import {
  listQuestionGroups,
  QUESTION_RETENTION_MS,
  type QuestionGroup,
} from "@/lib/db/unanswered_questions.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import { type DashboardCharts, presentDashboard } from "./dashboard.ts";
import { getMonthSpan, type MonthSpan, parseExportMonth } from "./month.ts";

/** How many attractions and questions the report lists. */
const TOP = 10;

/** Question groups read a page at a time while looking for a month's. */
const QUESTION_PAGE = 200;

/** The month a report is of: `mes` when valid, else the last month over. */
export function parseReportMonth(
  mes: string | undefined,
  { now, timeZone }: { now: Date; timeZone: string },
): string | null {
  const choice = parseExportMonth(mes, { now, timeZone, fallback: "previous" });
  return choice.problem === "invalid" ? null : mes || choice.month!;
}

/** `noviembre de 2026` (`November 2026` in English). */
export function formatReportMonth(
  month: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return formatMonth(month, lang);
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

/** A group of unanswered questions asked in the report's month. */
export interface ReportQuestion {
  text: string;
  /** Times asked since the group was opened. */
  count: number;
  /** ISO 8601. */
  lastAskedAt: string;
  /** Whether an admin has marked it answered by the data since. */
  resolved: boolean;
}

/** What the report shows, before it is drawn: facts, no words. */
export interface MonthlyReport {
  month: string;
  previousMonth: string;
  /** `Tequila, Jalisco`. */
  municipality: string;
  /** The town whose clock the dates follow: `Tequila`. */
  town: string;
  timeZone: string;
  brand: string;
  /** When the report was drawn (ISO 8601). */
  issuedAt: string;
  /** Today, while the month is running: its data goes up to now. */
  runningUntil: string | null;
  current: MonthFigures;
  previous: MonthFigures;
  /** Every day of the month, running or not. */
  visitsByDay: { day: string; visits: number }[];
  /** Name and visits, most visited first. */
  topAttractions: [string, number][];
  /** The month's unanswered questions, most asked first. */
  questions: ReportQuestion[];
  /** The month's questions are past their keeping: none could be listed. */
  questionsGone: boolean;
  /** How many days questions are kept. */
  questionRetentionDays: number;
  /** The partners' prizes over the month. */
  prizes: PrizeReportRow[];
}

async function getMonth(
  kv: Deno.Kv,
  { span, slugs }: { span: MonthSpan; slugs: string[] },
): Promise<{ dashboard: Dashboard; figures: MonthFigures }> {
  const [dashboard, ratings] = await Promise.all([
    getDashboard(kv, {
      from: span.days[0],
      to: span.days.at(-1)!,
      slugs,
      notesLimit: 0,
    }),
    listMonthlyRatingCounts(kv, { fromMonth: span.month, toMonth: span.month }),
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

/**
 * The groups of unanswered questions asked during the month: first asked
 * before it ended and last asked after it began. The open ones are read
 * most asked first, until {@linkcode TOP} of them are found; the resolved
 * ones newest resolution first, until one resolved before the month began
 * (it was last asked before it too).
 */
async function listMonthQuestions(
  kv: Deno.Kv,
  { span, now }: { span: MonthSpan; now: Date },
): Promise<ReportQuestion[]> {
  const asked = (group: QuestionGroup) =>
    Date.parse(group.firstAskedAt) < span.endMs &&
    Date.parse(group.lastAskedAt) >= span.startMs;
  const toQuestion = (group: QuestionGroup): ReportQuestion => ({
    text: group.text,
    count: group.count,
    lastAskedAt: group.lastAskedAt,
    resolved: group.resolvedAt !== null,
  });
  const found: ReportQuestion[] = [];
  let cursor = "";
  let open = 0;
  do {
    const page = await listQuestionGroups(kv, {
      status: "open",
      now,
      cursor,
      limit: QUESTION_PAGE,
    });
    for (const group of page.values.filter(asked)) {
      if (open++ < TOP) found.push(toQuestion(group));
    }
    cursor = page.cursor;
  } while (cursor && open < TOP);
  cursor = "";
  let done = false;
  do {
    const page = await listQuestionGroups(kv, {
      status: "resolved",
      now,
      cursor,
      limit: QUESTION_PAGE,
    });
    for (const group of page.values) {
      if (Date.parse(group.resolvedAt ?? "") < span.startMs) done = true;
      else if (asked(group)) found.push(toQuestion(group));
    }
    cursor = page.cursor;
  } while (cursor && !done);
  return found.sort((a, b) => b.count - a.count).slice(0, TOP);
}

/** The report of `month`: a few range reads of counters, never a visit. */
export async function loadMonthlyReport(
  kv: Deno.Kv,
  { month, data, now }: { month: string; data: TourismData; now: Date },
): Promise<MonthlyReport> {
  const { timeZone } = data.municipality;
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const slugs = [...names.keys()];
  const previousMonth = addMonths(month, -1);
  const span = getMonthSpan(month, { now, timeZone });
  const [current, previous, questions, prizes] = await Promise.all([
    getMonth(kv, { span, slugs }),
    getMonth(kv, {
      span: getMonthSpan(previousMonth, { now, timeZone }),
      slugs,
    }),
    listMonthQuestions(kv, { span, now }),
    loadPrizeReport(kv, {
      from: span.days[0],
      to: span.runningUntil ?? span.days.at(-1)!,
      attractionCount: data.attractions.length,
    }),
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
    town: data.municipality.name,
    timeZone,
    brand: data.branding.name,
    issuedAt: now.toISOString(),
    runningUntil: span.runningUntil,
    current: current.figures,
    previous: previous.figures,
    visitsByDay: current.dashboard.visitsByDay,
    topAttractions: (byAttraction?.table.rows ?? [])
      .filter((row) => Number(row[1]) > 0)
      .slice(0, TOP)
      .map((row) => [String(row[0]), Number(row[1])]),
    questions,
    questionsGone: span.endMs <= now.getTime() - QUESTION_RETENTION_MS,
    questionRetentionDays: Math.round(QUESTION_RETENTION_MS / 86_400_000),
    prizes: prizes.prizes,
  };
}

// A4 in points, with 2 cm margins; the footer sits in the bottom margin.
const PAGE = { ...A4, margin: 56.7 };
const BOTTOM = PAGE.height - PAGE.margin;
const FOOTER_Y = PAGE.height - 38;
const INK = "#1f2426";
const MUTED = "#555555";

/**
 * The report as PDF bytes (A4, in `lang`: Spanish, the council's, unless
 * told). `colors` are the portal's brand colours for the headings and the
 * chart. Every page is numbered ("Página 1 de 3"); a table never starts at
 * the foot of a page, and one that goes on to the next repeats its head.
 */
export async function renderMonthlyReportPdf(
  report: MonthlyReport,
  { colors, lang = DEFAULT_LANG }: {
    colors: { primary: string; accent: string };
    lang?: Lang;
  },
): Promise<Uint8Array<ArrayBuffer>> {
  const say = (key: string, values?: Record<string, string | number>) =>
    t(lang, `panel_exports.${key}`, values);
  const numbers = new Intl.NumberFormat(getLangMeta(lang).intlLocale);
  const integer = (n: number) => numbers.format(n);
  // A day of the report's year without its year: `2 de diciembre`. A bare
  // date (2026-11-22) is a calendar day, as formatDate reads it.
  const dayOfYear = (timeZone: string) =>
    new Intl.DateTimeFormat(getLangMeta(lang).intlLocale, {
      day: "numeric",
      month: "long",
      timeZone,
    });
  const yearOf = (timeZone: string) =>
    new Intl.DateTimeFormat("en", { year: "numeric", timeZone });
  const day = (iso: string) => {
    const bare = /^\d{4}-\d{2}-\d{2}$/.test(iso);
    const timeZone = bare ? "UTC" : report.timeZone;
    const at = new Date(bare ? `${iso}T12:00:00Z` : iso);
    return yearOf(timeZone).format(at) === report.month.slice(0, 4)
      ? dayOfYear(timeZone).format(at)
      : formatDate(iso, report.timeZone, lang);
  };
  const monthName = formatReportMonth(report.month, lang);
  const previousName = formatReportMonth(report.previousMonth, lang);
  const { doc, finish } = await openPdf({
    margin: PAGE.margin,
    bufferPages: true,
    lang: getLangMeta(lang).intlLocale,
    info: {
      Title: say("reportDocTitle", {
        place: report.municipality,
        month: monthName,
      }),
      Author: report.brand,
      Creator: report.brand,
    },
    displayTitle: true,
  });
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const headingHeight = (text: string) =>
    16 + doc.font("Inter-Bold").fontSize(14).heightOfString(text, { width }) +
    6;
  /**
   * Room for a section of `whole` points whose first lines take `first`:
   * on this page if it fits, else on a fresh one when it fits there, else
   * here only if its first lines do.
   */
  const makeRoom = (whole: number, first: number) => {
    const free = BOTTOM - doc.y;
    if (whole <= free) return;
    if (whole <= BOTTOM - PAGE.margin || first > free) doc.addPage();
  };
  const heading = (text: string) => {
    doc.y += 16;
    doc.font("Inter-Bold").fontSize(14).fillColor(colors.primary)
      .text(text, left, doc.y, { width });
    doc.y += 6;
    doc.font("Inter").fontSize(10).fillColor(INK);
  };
  const paragraph = (text: string, color = INK) => {
    doc.font("Inter").fontSize(10).fillColor(color)
      .text(text, left, doc.y, { width });
    doc.y += 6;
    doc.fillColor(INK);
  };
  const paragraphHeight = (text: string) =>
    doc.font("Inter").fontSize(10).heightOfString(text, { width }) + 6;
  /** A heading, maybe a paragraph, then a table, kept together as it can be. */
  const tableSection = (
    title: string,
    { intro, table, empty }: {
      intro?: string;
      table: TableSpec | null;
      empty: string;
    },
  ) => {
    const top = headingHeight(title) + (intro ? paragraphHeight(intro) : 0);
    const body = table
      ? measureTable(doc, table)
      : { whole: paragraphHeight(empty), first: paragraphHeight(empty) };
    makeRoom(top + body.whole, top + body.first);
    heading(title);
    if (intro) paragraph(intro, MUTED);
    if (table) drawTable(doc, table, { left, bottom: BOTTOM, ink: INK });
    else paragraph(empty);
  };

  // The title block: who, what, when drawn, and whether the month is over.
  doc.font("Inter").fontSize(10).fillColor(MUTED).text(report.brand);
  doc.font("Inter-Bold").fontSize(20).fillColor(INK).text(
    say("reportTitle", { month: monthName }),
  );
  doc.font("Inter").fontSize(12).fillColor(MUTED).text(report.municipality);
  doc.moveDown(0.3).fontSize(9).text(say("reportIssued", {
    date: formatDate(report.issuedAt, report.timeZone, lang),
    time: getLocalClockTime(report.issuedAt, report.timeZone),
    place: report.town,
  }));
  if (report.runningUntil) {
    const notice = say("reportRunning", {
      day: formatDate(report.runningUntil, report.timeZone, lang),
    });
    doc.font("Inter-Bold").fontSize(10);
    const pad = 8;
    const height = doc.heightOfString(notice, { width: width - 2 * pad }) +
      2 * pad;
    const top = doc.y + 10;
    doc.save().rect(left, top, width, height).fillOpacity(0.18).fill(
      colors.accent,
    ).restore();
    doc.rect(left, top, 3, height).fill(colors.primary);
    doc.fillColor(INK).text(notice, left + pad, top + pad, {
      width: width - 2 * pad,
    });
    doc.x = left;
    doc.y = top + height;
  }

  // Headline figures: this month and the one before.
  const { current, previous } = report;
  const rating = (figures: MonthFigures) =>
    figures.averageRating === null
      ? "—"
      : `${formatRating(figures.averageRating, lang)} (${
        integer(figures.ratings)
      })`;
  const answered = (figures: MonthFigures) =>
    say("answeredOf", {
      answered: integer(figures.answered),
      questions: integer(figures.questions),
    });
  const currentHead = report.runningUntil
    ? say("reportColumnRunning", {
      month: capitalize(monthName),
      day: day(report.runningUntil),
    })
    : capitalize(monthName);
  tableSection(say("reportFigures"), {
    empty: "",
    table: {
      head: ["", currentHead, capitalize(previousName)],
      widths: [0.5, 0.25, 0.25].map((share) => share * width),
      rows: [
        [say("rowVisits"), current.visits, previous.visits],
        [say("rowNewTourists"), current.newTourists, previous.newTourists],
        [say("rowPassports"), current.passports, previous.passports],
        [say("rowTickets"), current.tickets, previous.tickets],
        [say("rowRating"), rating(current), rating(previous)],
        [say("rowAnswered"), answered(current), answered(previous)],
      ].map((row) =>
        row.map((cell) => typeof cell === "number" ? integer(cell) : cell)
      ),
    },
  });

  const chartTitle = say("reportByDay");
  const chartHeight = 150;
  makeRoom(headingHeight(chartTitle) + chartHeight + 24, Infinity);
  heading(chartTitle);
  drawColumns(doc, report.visitsByDay, {
    left,
    width,
    height: chartHeight,
    color: colors.primary,
    label: (n) => say("reportDay", { day: n }),
  });

  tableSection(say("reportTop"), {
    empty: say("reportTopNone"),
    table: report.topAttractions.length === 0 ? null : {
      head: [say("colAttraction"), say("colVisits")],
      widths: [0.75 * width, 0.25 * width],
      rows: report.topAttractions.map(([name, visits]) => [
        name,
        integer(visits),
      ]),
    },
  });

  tableSection(say("reportQuestions"), {
    intro: say("reportQuestionsIntro", { month: monthName }),
    empty: report.questionsGone
      ? say("reportQuestionsGone", {
        days: report.questionRetentionDays,
        month: monthName,
      })
      : say("reportQuestionsNone", { month: monthName }),
    table: report.questions.length === 0 ? null : {
      head: [
        say("colQuestion"),
        say("colTimes"),
        say("colLastAsked"),
        say("colStatus"),
      ],
      widths: [0.5, 0.12, 0.2, 0.18].map((share) => share * width),
      rows: report.questions.map((question) => [
        question.text,
        integer(question.count),
        day(question.lastAskedAt),
        say(question.resolved ? "statusResolved" : "statusOpen"),
      ]),
    },
  });

  tableSection(say("reportPrizes"), {
    intro: say("reportPrizesIntro", { month: monthName }),
    empty: say("reportPrizesNone"),
    table: report.prizes.length === 0 ? null : {
      head: [
        say("colPartner"),
        say("colPrize"),
        say("colUnlocked"),
        say("colClaimed"),
        say("colRedeemed"),
        say("colStockLeft"),
      ],
      widths: [0.22, 0.26, 0.16, 0.12, 0.12, 0.12].map((share) =>
        share * width
      ),
      rows: report.prizes.map((row) => [
        row.partner?.name ?? row.prize.partnerId,
        row.prize.name[lang === "en" ? "en" : "es"],
        row.unlocked === null ? say("notCounted") : integer(row.unlocked),
        integer(row.claimed),
        integer(row.redeemed),
        integer(row.stockLeft),
      ]),
    },
  });

  // Every page's footer: what this is, and which page of how many.
  const footer = say("reportFooter", {
    brand: report.brand,
    month: monthName,
  });
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Inter").fontSize(8).fillColor(MUTED);
    doc.text(footer, left, FOOTER_Y, { width: width * 0.7, lineBreak: false });
    doc.text(
      say("reportPage", { page: i - start + 1, pages: count }),
      left + width * 0.7,
      FOOTER_Y,
      { width: width * 0.3, align: "right", lineBreak: false },
    );
    doc.page.margins.bottom = margin;
  }
  return await finish();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Columns of visits per day, with the scale's top and the first and last days labelled. */
function drawColumns(
  doc: PdfDoc,
  days: { day: string; visits: number }[],
  { left, width, height, color, label }: {
    left: number;
    width: number;
    height: number;
    color: string;
    label: (day: number) => string;
  },
): void {
  const top = doc.y + 6;
  const axis = 36;
  const plotWidth = width - axis;
  const max = Math.max(1, ...days.map((row) => row.visits));
  const step = plotWidth / Math.max(1, days.length);
  doc.font("Inter").fontSize(8).fillColor(MUTED);
  doc.text(String(max), left, top - 4, { width: axis - 6, align: "right" });
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
  const first = Number(days[0]?.day.slice(8));
  const last = Number(days.at(-1)?.day.slice(8));
  doc.text(label(first), left + axis, top + height + 4, { width: 60 });
  doc.text(label(last), left + width - 60, top + height + 4, {
    width: 60,
    align: "right",
  });
  doc.fillColor(INK);
  doc.x = left;
  doc.y = top + height + 20;
}
