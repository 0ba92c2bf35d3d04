/**
 * The calendar month an office download covers (the council's report, the
 * workbook): which month was asked for, its days on the municipality's
 * clock, whether it is still running, and the months a picker offers. One
 * reading for every export, so the report and the workbook of a month hold
 * the same days.
 */
import {
  addMonths,
  getLocalMidnightMs,
  getLocalTime,
  listDays,
} from "@/lib/calendar/mod.ts";
import { getFirstVisitDay } from "@/lib/db/open_data.ts";

/** `YYYY-MM`, a month of the Gregorian calendar. */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The most months a picker offers (ten years): the list stays short. */
export const MAX_PICKER_MONTHS = 120;

/** A month asked for, or why it cannot be: not a month, or not begun yet. */
export type MonthChoice =
  | { month: string; problem?: undefined }
  | { month?: undefined; problem: "invalid" | "future" };

/**
 * The month `mes` names (`YYYY-MM`); absent or empty, the `fallback`: the
 * month now running or the one before it. A month after the current one
 * has no data yet: `future`.
 */
export function parseExportMonth(
  mes: string | undefined,
  { now, timeZone, fallback }: {
    now: Date;
    timeZone: string;
    fallback: "current" | "previous";
  },
): MonthChoice {
  const current = getLocalTime(now, timeZone).month;
  if (mes === undefined || mes === "") {
    return { month: fallback === "current" ? current : addMonths(current, -1) };
  }
  if (!MONTH.test(mes)) return { problem: "invalid" };
  return mes > current ? { problem: "future" } : { month: mes };
}

/** What a month covers, on the municipality's clock. */
export interface MonthSpan {
  month: string;
  /** Every day of the month, `YYYY-MM-DD`, running or not. */
  days: string[];
  /** Today, while the month is running (its data goes up to now); else null. */
  runningUntil: string | null;
  /** The instants the month starts and ends (epoch ms, the end excluded). */
  startMs: number;
  endMs: number;
}

/** The span of `month` as it stands at `now`. */
export function getMonthSpan(
  month: string,
  { now, timeZone }: { now: Date; timeZone: string },
): MonthSpan {
  const next = addMonths(month, 1);
  const days = listDays(`${month}-01`, `${next}-01`).slice(0, -1);
  const today = getLocalTime(now, timeZone);
  return {
    month,
    days,
    runningUntil: today.month === month ? today.day : null,
    startMs: getLocalMidnightMs(days[0], timeZone),
    endMs: getLocalMidnightMs(`${next}-01`, timeZone),
  };
}

/**
 * The months a picker offers, newest first: the current month back to the
 * one of `firstDay` (the first day with data; none: the current month
 * only), at most {@linkcode MAX_PICKER_MONTHS}.
 */
export function listExportMonths(
  firstDay: string | null,
  { now, timeZone }: { now: Date; timeZone: string },
): string[] {
  const current = getLocalTime(now, timeZone).month;
  const first = firstDay?.slice(0, 7) ?? current;
  const months: string[] = [];
  for (
    let month = current;
    month >= first && months.length < MAX_PICKER_MONTHS;
    month = addMonths(month, -1)
  ) {
    months.push(month);
  }
  return months;
}

/**
 * The months the exports page offers: the current one back to the month
 * of the first visit counted (one KV read).
 */
export async function loadExportMonths(
  kv: Deno.Kv,
  { now, timeZone }: { now: Date; timeZone: string },
): Promise<string[]> {
  return listExportMonths(await getFirstVisitDay(kv), { now, timeZone });
}
