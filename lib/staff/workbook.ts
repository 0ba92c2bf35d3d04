/**
 * The staff's workbook (`/panel/exportar/libro.xlsx?mes=YYYY-MM`): their
 * own figures for one month, exact, one sheet a table, for Excel or
 * LibreOffice. Every sheet by day lists the same days, every day of the
 * month (up to today while it runs), zeros included, so the sheets line
 * up; attractions are named as visitors read them, never by an id. Unlike
 * the open data (lib/open_data), no count is blanked: the disclosure rule
 * protects the public files, and these are the office's. Read from the
 * day-keyed counters and the notes index (lib/db/stats.ts), never by
 * scanning the visits, so it costs the same with a million of them. Days
 * and times are real spreadsheet dates on the municipality's clock; the
 * words come from `locales/<lang>/panel_exports.json`.
 */
// exceljs (about 40 MiB and 320 ms to load) is imported with the first
// workbook, not with every console page that loads this folder.
import type ExcelJS from "exceljs";
import { getLocalTime, getLocalWallClock } from "@/lib/calendar/mod.ts";
import { listDailyVisitCounts } from "@/lib/db/open_data.ts";
import {
  getDashboard,
  listMonthlyRatingCounts,
  listShownNotes,
} from "@/lib/figures/mod.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/mod.ts";
import { loadPrizeReport } from "@/lib/rewards/report.ts";
import { getMonthSpan } from "./month.ts";

/** The newest notes the workbook reads its month's from: the rest stay in the console. */
export const WORKBOOK_NOTES_LIMIT = 2000;

/** What the workbook is built from. */
export interface WorkbookSource {
  kv: Deno.Kv;
  data: TourismData;
  now: Date;
  /** `YYYY-MM`; absent: the month now running. */
  month?: string;
  /** The words of its sheets and columns: Spanish unless told. */
  lang?: Lang;
}

/** A `YYYY-MM-DD` day as a spreadsheet date (a UTC midnight: Excel has no zones). */
function toSheetDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/**
 * An instant as the municipality's wall clock reads it, as a spreadsheet
 * date: a spreadsheet stores no zone, so the local date and time are
 * written as if they were UTC.
 */
function toSheetTime(iso: string, timeZone: string): Date {
  return new Date(`${getLocalWallClock(iso, timeZone)}Z`);
}

/** One sheet: a bold, frozen header row, then `rows`; `formats` by column key. */
function addSheet(
  book: ExcelJS.Workbook,
  name: string,
  { columns, rows }: {
    columns: { header: string; key: string; width: number; format?: string }[];
    rows: Record<string, unknown>[];
  },
): void {
  const sheet = book.addWorksheet(name, {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  sheet.columns = columns.map(({ header, key, width, format }) => ({
    header,
    key,
    width,
    style: format ? { numFmt: format } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRows(rows);
}

/**
 * The workbook of one month as XLSX bytes: visits per day (a total and a
 * column per attraction), the month's ratings per attraction, its notes
 * that show (among the newest {@linkcode WORKBOOK_NOTES_LIMIT}, with their
 * rating and time), passports, tickets and the assistant's questions
 * per day, and the partners' prizes (in all and per day). Exact counts.
 */
export async function buildStaffWorkbook(
  { kv, data, now, month, lang = DEFAULT_LANG }: WorkbookSource,
): Promise<Uint8Array<ArrayBuffer>> {
  const say = (key: string) => t(lang, `panel_exports.${key}`);
  const { timeZone } = data.municipality;
  const span = getMonthSpan(month ?? getLocalTime(now, timeZone).month, {
    now,
    timeZone,
  });
  const days = span.runningUntil
    ? span.days.filter((day) => day <= span.runningUntil!)
    : span.days;
  const [from, to] = [days[0], days.at(-1)!];
  const [visits, ratings, notes, dashboard, prizes] = await Promise.all([
    listDailyVisitCounts(kv, { from, to }),
    listMonthlyRatingCounts(kv, { fromMonth: span.month, toMonth: span.month }),
    listShownNotes(kv, { limit: WORKBOOK_NOTES_LIMIT }),
    getDashboard(kv, { from, to, notesLimit: 0 }),
    loadPrizeReport(kv, {
      from,
      to,
      attractionCount: data.attractions.length,
    }),
  ]);

  // Every attraction of the data set, then any other the counters name.
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  for (const { slug } of [...visits, ...ratings]) {
    if (!names.has(slug)) names.set(slug, slug);
  }
  const slugs = [...names.keys()];

  const { default: Excel } = await import("exceljs");
  const book = new Excel.Workbook();
  book.creator = data.branding.name;
  book.created = now;
  const day = {
    header: say("colDay"),
    key: "day",
    width: 12,
    format: "yyyy-mm-dd",
  };
  const byDay = <T extends { day: string }>(rows: T[]) =>
    new Map(rows.map((row) => [row.day, row]));

  const visitsByDay = new Map(
    days.map((d) => [d, new Map<string, number>()]),
  );
  for (const row of visits) visitsByDay.get(row.day)?.set(row.slug, row.count);
  addSheet(book, say("sheetVisits"), {
    columns: [
      day,
      { header: say("colTotal"), key: "total", width: 10 },
      ...slugs.map((slug, i) => ({
        header: names.get(slug)!,
        key: `a${i}`,
        width: Math.min(30, Math.max(10, names.get(slug)!.length + 2)),
      })),
    ],
    rows: days.map((d) => {
      const counts = visitsByDay.get(d)!;
      return Object.fromEntries([
        ["day", toSheetDay(d)],
        ["total", [...counts.values()].reduce((a, b) => a + b, 0)],
        ...slugs.map((slug, i) => [`a${i}`, counts.get(slug) ?? 0]),
      ]);
    }),
  });

  const perSlug = new Map(slugs.map((slug) => [slug, { count: 0, sum: 0 }]));
  for (const row of ratings) {
    const cell = perSlug.get(row.slug)!;
    cell.count += row.count;
    cell.sum += row.count * row.rating;
  }
  addSheet(book, say("sheetRatings"), {
    columns: [
      { header: say("colAttraction"), key: "name", width: 36 },
      { header: say("colRatings"), key: "count", width: 14 },
      { header: say("colAverage"), key: "average", width: 10, format: "0.00" },
    ],
    rows: [...perSlug].map(([slug, cell]) => ({
      name: names.get(slug),
      count: cell.count,
      average: cell.count > 0 ? cell.sum / cell.count : null,
    })),
  });

  addSheet(book, say("sheetNotes"), {
    columns: [
      {
        header: say("colDateTime"),
        key: "at",
        width: 18,
        format: "yyyy-mm-dd hh:mm",
      },
      { header: say("colAttraction"), key: "name", width: 36 },
      { header: say("colRating"), key: "rating", width: 12 },
      { header: say("colNotes"), key: "notes", width: 60 },
    ],
    rows: notes
      .filter((note) => {
        const at = Date.parse(note.ratedAt);
        return at >= span.startMs && at < span.endMs;
      })
      .map((note) => ({
        at: toSheetTime(note.ratedAt, timeZone),
        name: names.get(note.slug) ?? note.slug,
        rating: note.rating,
        notes: note.notes,
      })),
  });

  const passports = byDay(dashboard.passportsByDay);
  const tickets = byDay(dashboard.ticketsByDay);
  addSheet(book, say("sheetPassports"), {
    columns: [
      day,
      { header: say("colGuest"), key: "guest", width: 22 },
      { header: say("colAccounts"), key: "account", width: 16 },
      { header: say("colTickets"), key: "tickets", width: 10 },
    ],
    rows: days.map((d) => ({
      day: toSheetDay(d),
      guest: passports.get(d)?.guest ?? 0,
      account: passports.get(d)?.account ?? 0,
      tickets: tickets.get(d)?.tickets ?? 0,
    })),
  });

  const chat = byDay(dashboard.chatByDay);
  addSheet(book, say("sheetChat"), {
    columns: [
      day,
      { header: say("colQuestions"), key: "questions", width: 20 },
      { header: say("colAnswered"), key: "answered", width: 13 },
      { header: say("colRefused"), key: "refused", width: 34 },
      { header: say("colFailed"), key: "failed", width: 32 },
    ],
    rows: days.map((d) => ({
      day: toSheetDay(d),
      questions: chat.get(d)?.questions ?? 0,
      answered: chat.get(d)?.answered ?? 0,
      refused: chat.get(d)?.refused ?? 0,
      failed: chat.get(d)?.failed ?? 0,
    })),
  });

  const prizeNames = new Map(
    prizes.prizes.map((row) => [row.prize.id, row]),
  );
  const prizeColumns = [
    { header: say("colPartner"), key: "partner", width: 28 },
    { header: say("colPrize"), key: "prize", width: 32 },
    { header: say("colUnlocked"), key: "unlocked", width: 18 },
    { header: say("colClaimed"), key: "claimed", width: 10 },
    { header: say("colRedeemed"), key: "redeemed", width: 11 },
  ];
  addSheet(book, say("sheetPrizes"), {
    columns: [
      ...prizeColumns,
      { header: say("colStockLeft"), key: "left", width: 14 },
      { header: say("colStockTotal"), key: "total", width: 14 },
    ],
    rows: prizes.prizes.map((row) => ({
      partner: row.partner?.name ?? row.prize.partnerId,
      prize: row.prize.name[lang === "en" ? "en" : "es"],
      // An empty cell: no counter holds who unlocked a prize of attractions.
      unlocked: row.unlocked,
      claimed: row.claimed,
      redeemed: row.redeemed,
      left: row.stockLeft,
      total: row.prize.stockTotal,
    })),
  });
  addSheet(book, say("sheetPrizesByDay"), {
    columns: [day, ...prizeColumns],
    rows: prizes.days.map((row) => {
      const prize = prizeNames.get(row.prizeId)!;
      return {
        day: toSheetDay(row.day),
        partner: prize.partner?.name ?? prize.prize.partnerId,
        prize: prize.prize.name[lang === "en" ? "en" : "es"],
        unlocked: row.unlocked,
        claimed: row.claimed,
        redeemed: row.redeemed,
      };
    }),
  });

  return new Uint8Array(await book.xlsx.writeBuffer());
}
