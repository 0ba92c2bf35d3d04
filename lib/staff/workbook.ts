/**
 * The staff's workbook (`/panel/exportar/libro.xlsx`): their own figures,
 * exact, one sheet a table, for Excel or LibreOffice. Unlike the open data
 * (lib/open_data), no count is blanked: the disclosure rule protects the
 * public files, and these are the office's. Read from the day-keyed
 * counters and the notes index (lib/db/stats.ts), never by scanning the
 * visits, so it costs the same with a million of them. Days and times are
 * real spreadsheet dates on the municipality's clock.
 */
// exceljs (about 40 MiB and 320 ms to load) is imported with the first
// workbook, not with every console page that loads this folder.
import type ExcelJS from "exceljs";
import {
  addDays,
  getLocalDate,
  getLocalWallClock,
} from "@/lib/calendar/mod.ts";
import { getFirstVisitDay, listDailyVisitCounts } from "@/lib/db/open_data.ts";
import {
  getDashboard,
  listMonthlyRatingCounts,
  listShownNotes,
  MAX_RANGE_DAYS,
} from "@/lib/db/stats.ts";
import type { TourismData } from "@/lib/data/tourism_data.ts";

/** The newest notes the workbook lists: the rest stay in the console. */
export const WORKBOOK_NOTES_LIMIT = 2000;

/** The workbook's sheets, by what they hold (their names as Excel shows them). */
export const WORKBOOK_SHEETS = {
  visits: "Visitas por día",
  ratings: "Calificaciones por mes",
  notes: "Notas",
  passports: "Pasaportes y boletos",
  chat: "Asistente",
} as const;

/** What the workbook is built from. */
export interface WorkbookSource {
  kv: Deno.Kv;
  data: TourismData;
  now: Date;
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
 * The workbook as XLSX bytes: visits per day and attraction since the
 * first one, ratings per month and attraction, the newest
 * {@linkcode WORKBOOK_NOTES_LIMIT} notes that show (with their rating and
 * time), and passports, tickets and the assistant's questions per day for
 * the last {@linkcode MAX_RANGE_DAYS} days. Exact counts.
 */
export async function buildStaffWorkbook(
  { kv, data, now }: WorkbookSource,
): Promise<Uint8Array<ArrayBuffer>> {
  const { timeZone } = data.municipality;
  const names = new Map(data.attractions.map((a) => [a.slug, a.name]));
  const name = (slug: string) => names.get(slug) ?? slug;
  const today = getLocalDate(now, timeZone);
  const from = addDays(today, 1 - MAX_RANGE_DAYS);
  const [first, ratings, notes, dashboard] = await Promise.all([
    getFirstVisitDay(kv),
    listMonthlyRatingCounts(kv, { fromMonth: "0000-00", toMonth: "9999-12" }),
    listShownNotes(kv, { limit: WORKBOOK_NOTES_LIMIT }),
    getDashboard(kv, { from, to: today, notesLimit: 0 }),
  ]);
  const visits = first
    ? await listDailyVisitCounts(kv, { from: first, to: today })
    : [];

  const { default: Excel } = await import("exceljs");
  const book = new Excel.Workbook();
  book.creator = data.branding.name;
  book.created = now;
  const day = { header: "Día", key: "day", width: 12, format: "yyyy-mm-dd" };
  const attraction = [
    { header: "Atractivo", key: "slug", width: 24 },
    { header: "Nombre", key: "name", width: 36 },
  ];

  addSheet(book, WORKBOOK_SHEETS.visits, {
    columns: [day, ...attraction, {
      header: "Visitas",
      key: "visits",
      width: 10,
    }],
    rows: visits.map((row) => ({
      day: toSheetDay(row.day),
      slug: row.slug,
      name: name(row.slug),
      visits: row.count,
    })),
  });

  const months = new Map<string, { count: number; sum: number }>();
  for (const row of ratings) {
    const id = `${row.month} ${row.slug}`;
    const cell = months.get(id) ?? { count: 0, sum: 0 };
    cell.count += row.count;
    cell.sum += row.count * row.rating;
    months.set(id, cell);
  }
  addSheet(book, WORKBOOK_SHEETS.ratings, {
    columns: [
      { header: "Mes", key: "month", width: 10, format: "yyyy-mm" },
      ...attraction,
      { header: "Calificaciones", key: "count", width: 14 },
      { header: "Promedio", key: "average", width: 10, format: "0.00" },
    ],
    rows: [...months].sort(([a], [b]) => a < b ? -1 : 1).map(
      ([id, cell]) => {
        const [month, slug] = id.split(" ");
        return {
          month: toSheetDay(`${month}-01`),
          slug,
          name: name(slug),
          count: cell.count,
          average: cell.sum / cell.count,
        };
      },
    ),
  });

  addSheet(book, WORKBOOK_SHEETS.notes, {
    columns: [
      {
        header: "Fecha y hora",
        key: "at",
        width: 18,
        format: "yyyy-mm-dd hh:mm",
      },
      ...attraction,
      { header: "Calificación", key: "rating", width: 12 },
      { header: "Notas", key: "notes", width: 60 },
    ],
    rows: notes.map((note) => ({
      at: toSheetTime(note.ratedAt, timeZone),
      slug: note.slug,
      name: name(note.slug),
      rating: note.rating,
      notes: note.notes,
    })),
  });

  addSheet(book, WORKBOOK_SHEETS.passports, {
    columns: [
      day,
      { header: "Pasaportes de invitado", key: "guest", width: 22 },
      { header: "Cuentas nuevas", key: "account", width: 16 },
      { header: "Boletos", key: "tickets", width: 10 },
    ],
    rows: dashboard.passportsByDay.map((row, i) => ({
      day: toSheetDay(row.day),
      guest: row.guest,
      account: row.account,
      tickets: dashboard.ticketsByDay[i]?.tickets ?? 0,
    })),
  });

  addSheet(book, WORKBOOK_SHEETS.chat, {
    columns: [
      day,
      { header: "Preguntas", key: "questions", width: 11 },
      { header: "Respondidas", key: "answered", width: 12 },
      { header: "Rechazadas (429)", key: "refused", width: 16 },
      { header: "Fallidas (502)", key: "failed", width: 14 },
    ],
    rows: dashboard.chatByDay.map((row) => ({
      ...row,
      day: toSheetDay(row.day),
    })),
  });

  return new Uint8Array(await book.xlsx.writeBuffer());
}
