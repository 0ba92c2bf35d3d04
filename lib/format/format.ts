/**
 * Spanish (Mexico) wording of the data set's values for pages and the chat
 * prompt: money, durations, dates, distances, categories. Server-only;
 * islands get the finished strings as props.
 */
import { LRUCache } from "lru-cache";
import type { Attraction } from "@/lib/data/tourism_data.ts";

const LOCALE = "es-MX";

/**
 * Intl formatters are costly to build (tens of microseconds, a quarter of a
 * route page's render time when built per call) and safe to share: one per
 * distinct options, and the options come from code and the data set's time
 * zones, so the memo stays small (bounded anyway).
 */
const formatters = new LRUCache<
  string,
  Intl.DateTimeFormat | Intl.NumberFormat
>({ max: 64 });

function getFormatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(
  kind: "date" | "number",
  options: Intl.DateTimeFormatOptions & Intl.NumberFormatOptions,
): T {
  const key = `${kind}:${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = kind === "date"
      ? new Intl.DateTimeFormat(LOCALE, options)
      : new Intl.NumberFormat(LOCALE, options);
    formatters.set(key, formatter);
  }
  return formatter as T;
}

/** `Entrada libre`, or `$120 MXN` (no cents when there are none). */
export function formatMoney(
  money: { amount: number; currency: string },
  free = "Entrada libre",
): string {
  if (money.amount === 0) return free;
  const number = getFormatter<Intl.NumberFormat>("number", {
    minimumFractionDigits: Number.isInteger(money.amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(money.amount);
  return `$${number} ${money.currency}`;
}

/** `45 min`, `2 h`, `1 h 30 min`. */
export function formatMinutes(minutes: number): string {
  const m = Math.round(minutes);
  const hours = Math.floor(m / 60);
  const rest = m % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** Hours like `3.5` as `3 h 30 min`. */
export function formatHours(hours: number): string {
  return formatMinutes(hours * 60);
}

/** `22 de noviembre de 2026`, in the municipality's time zone. */
export function formatDate(iso: string, timeZone: string): string {
  // A bare date (2026-11-22) is a calendar day: show it as written.
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  return getFormatter<Intl.DateTimeFormat>("date", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: bare ? "UTC" : timeZone,
  }).format(new Date(bare ? `${iso}T12:00:00Z` : iso));
}

/** `22 nov 2026, 14:05`: an instant to the minute, in the municipality's time zone (24-hour clock). */
export function formatDateTime(iso: string, timeZone: string): string {
  return getFormatter<Intl.DateTimeFormat>("date", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(iso));
}

/** `31 oct – 2 nov 2026` for an event's span. */
export function formatDateRange(
  start: string,
  end: string,
): string {
  const format = (iso: string, withYear: boolean) =>
    getFormatter<Intl.DateTimeFormat>("date", {
      day: "numeric",
      month: "short",
      year: withYear ? "numeric" : undefined,
      timeZone: "UTC",
    }).format(new Date(`${iso}T12:00:00Z`)).replace(".", "");
  if (start === end) return format(start, true);
  return `${format(start, start.slice(0, 4) !== end.slice(0, 4))} – ${
    format(end, true)
  }`;
}

/** Distances as a walker reads them: `350 m`, `1.2 km`, `14 km`. */
export function formatDistance(km: number): string {
  if (km < 1) return `${Math.max(10, Math.round(km * 100) * 10)} m`;
  if (km < 10) return `${km.toFixed(1)} km`;
  return `${Math.round(km)} km`;
}

/** An average rating with one decimal, Mexican style: `4.5`. */
export function formatRating(value: number): string {
  return value.toFixed(1);
}

/** Category names as a visitor reads them. */
export const CATEGORY_LABELS: Readonly<Record<Attraction["category"], string>> =
  {
    museo: "Museo",
    naturaleza: "Naturaleza",
    historia: "Historia",
    gastronomia: "Gastronomía",
    arquitectura: "Arquitectura",
    aventura: "Aventura",
    cultura: "Cultura",
  };

/** Route difficulty as a visitor reads it. */
export const DIFFICULTY_LABELS: Readonly<Record<string, string>> = {
  baja: "Fácil",
  media: "Moderada",
  alta: "Exigente",
};

/** `1 visita`, `3 visitas`: a count with its noun in the right number. */
export function plural(count: number, one: string, many: string): string {
  return `${getFormatter<Intl.NumberFormat>("number", {}).format(count)} ${
    count === 1 ? one : many
  }`;
}
