/**
 * The data set's values as a visitor of each language reads them: money,
 * durations, dates, distances, categories. Every function takes the
 * language last (default Spanish, the spec's wording), so a page passes
 * `getLang(c)` and nothing else changes. Words come from the `format`
 * catalogue (`locales/<lang>/format.json`), numbers and dates from `Intl` in
 * the language's locale (`meta.json`'s `intlLocale`). Server-only; islands
 * get the finished strings as props.
 */
import type { Attraction } from "@/lib/data/tourism_data.ts";
import {
  DEFAULT_LANG,
  getLangMeta,
  type Lang,
  t,
} from "@/lib/i18n/catalogue.ts";

/** Distinct formatters kept (by locale and options); past it the oldest goes. */
const MAX_FORMATTERS = 128;

/**
 * Intl formatters are costly to build (tens of microseconds, a quarter of a
 * route page's render time when built per call) and safe to share: one per
 * locale and distinct options, and the options come from code and the data
 * set's time zones, so the memo stays small (bounded anyway). A plain
 * `Map`: this module is loaded at start (the chat prompt's and the page
 * cards' money), where lru-cache would start Deno's Node layer for it.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function getFormatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(
  kind: "date" | "number",
  lang: Lang,
  options: Intl.DateTimeFormatOptions & Intl.NumberFormatOptions,
): T {
  const locale = getLangMeta(lang).intlLocale;
  const key = `${kind}:${locale}:${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = kind === "date"
      ? new Intl.DateTimeFormat(locale, options)
      : new Intl.NumberFormat(locale, options);
    if (formatters.size >= MAX_FORMATTERS) {
      formatters.delete(formatters.keys().next().value!);
    }
    formatters.set(key, formatter);
  }
  return formatter as T;
}

/**
 * A price, or `free` (default: the catalogue's "Entrada libre" / "Free
 * admission") when it is zero; no cents when there are none. Spanish keeps
 * the spec's `$1,450 MXN`: in Mexico `$` alone is the peso, and the code
 * after it tells a foreign reader. Other languages get `Intl`'s currency
 * format of their locale, which names the peso the way its readers expect
 * (`MX$1,450` in English, `1 450 $MX` in French).
 */
export function formatMoney(
  money: { amount: number; currency: string },
  free?: string,
  lang: Lang = DEFAULT_LANG,
): string {
  if (money.amount === 0) return free ?? t(lang, "format.free");
  const digits = {
    minimumFractionDigits: Number.isInteger(money.amount) ? 0 : 2,
    maximumFractionDigits: 2,
  };
  if (lang === DEFAULT_LANG) {
    const number = getFormatter<Intl.NumberFormat>("number", lang, digits)
      .format(money.amount);
    return `$${number} ${money.currency}`;
  }
  return getFormatter<Intl.NumberFormat>("number", lang, {
    ...digits,
    style: "currency",
    currency: money.currency,
  }).format(money.amount);
}

/** `45 min`, `2 h`, `1 h 30 min` (English: `2 hr`, `1 hr 30 min`). */
export function formatMinutes(
  minutes: number,
  lang: Lang = DEFAULT_LANG,
): string {
  const m = Math.round(minutes);
  const hours = Math.floor(m / 60);
  const rest = m % 60;
  if (hours === 0) return t(lang, "format.minutes", { minutes: rest });
  return rest === 0
    ? t(lang, "format.hours", { hours })
    : t(lang, "format.hoursMinutes", { hours, minutes: rest });
}

/** Hours like `3.5` as `3 h 30 min`. */
export function formatHours(hours: number, lang: Lang = DEFAULT_LANG): string {
  return formatMinutes(hours * 60, lang);
}

/**
 * `22 de noviembre de 2026` (English: `November 22, 2026`), in the
 * municipality's time zone.
 */
export function formatDate(
  iso: string,
  timeZone: string,
  lang: Lang = DEFAULT_LANG,
): string {
  // A bare date (2026-11-22) is a calendar day: show it as written.
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  return getFormatter<Intl.DateTimeFormat>("date", lang, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: bare ? "UTC" : timeZone,
  }).format(new Date(bare ? `${iso}T12:00:00Z` : iso));
}

/** `octubre de 2026` / `October 2026`: a calendar month (`YYYY-MM`). */
export function formatMonth(month: string, lang: Lang = DEFAULT_LANG): string {
  return getFormatter<Intl.DateTimeFormat>("date", lang, {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${month}-15T12:00:00Z`));
}

/**
 * `22 nov 2026, 14:05`: an instant to the minute, in the municipality's
 * time zone. Spanish keeps the 24-hour clock of the spec's pages; another
 * language gets its locale's clock (`Nov 22, 2026, 2:05 PM` in English).
 */
export function formatDateTime(
  iso: string,
  timeZone: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return getFormatter<Intl.DateTimeFormat>("date", lang, {
    day: "numeric",
    month: "short",
    year: "numeric",
    ...(lang === DEFAULT_LANG
      ? { hour: "2-digit", hourCycle: "h23" }
      : { hour: "numeric" }),
    minute: "2-digit",
    timeZone,
  }).format(new Date(iso));
}

/** `31 oct – 2 nov 2026` (English: `Oct 31 – Nov 2, 2026`) for an event's span. */
export function formatDateRange(
  start: string,
  end: string,
  lang: Lang = DEFAULT_LANG,
): string {
  const format = (iso: string, withYear: boolean) =>
    getFormatter<Intl.DateTimeFormat>("date", lang, {
      day: "numeric",
      month: "short",
      year: withYear ? "numeric" : undefined,
      timeZone: "UTC",
    }).format(new Date(`${iso}T12:00:00Z`)).replace(".", "");
  if (start === end) return format(start, true);
  return t(lang, "format.dateRange", {
    start: format(start, start.slice(0, 4) !== end.slice(0, 4)),
    end: format(end, true),
  });
}

/** Distances as a walker reads them: `350 m`, `1.2 km`, `14 km`, in the language's digits. */
export function formatDistance(km: number, lang: Lang = DEFAULT_LANG): string {
  const [value, unit, digits] = km < 1
    ? [Math.max(10, Math.round(km * 100) * 10), "meter", 0]
    : km < 10
    ? [km, "kilometer", 1]
    : [Math.round(km), "kilometer", 0];
  return getFormatter<Intl.NumberFormat>("number", lang, {
    style: "unit",
    unit,
    unitDisplay: "short",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** An average rating with one decimal: `4.5` (`4,5` where the locale writes so). */
export function formatRating(value: number, lang: Lang = DEFAULT_LANG): string {
  return getFormatter<Intl.NumberFormat>("number", lang, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(value);
}

/** A number in the language's digits and separators: `1,200`. */
export function formatNumber(value: number, lang: Lang = DEFAULT_LANG): string {
  return getFormatter<Intl.NumberFormat>("number", lang, {}).format(value);
}

/** An attraction's category as a visitor reads it: `Museo`, `Museum`. */
export function getCategoryLabel(
  category: Attraction["category"],
  lang: Lang = DEFAULT_LANG,
): string {
  return t(lang, "format.category", { category });
}

/** A route's difficulty as a visitor reads it: `Fácil`, `Easy`. */
export function getDifficultyLabel(
  difficulty: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return t(lang, "format.difficulty", { difficulty });
}

/**
 * `1 visita`, `3 visitas`: a count with its noun in the right number.
 * Prefer a catalogue message with an ICU plural (`{count, plural, one {#
 * visita} other {# visitas}}`), which follows each language's plural rules;
 * this two-form helper is for Spanish callers not yet moved to one.
 */
export function plural(
  count: number,
  one: string,
  many: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return `${formatNumber(count, lang)} ${count === 1 ? one : many}`;
}

/** An attraction's cost as its page words it (see {@linkcode describeCost}). */
export interface CostWords {
  /** Nothing to pay, for anyone: the page says "Entrada libre" once. */
  free: boolean;
  /** The adult price, or the free word. */
  adult: string;
  /** The children's price, when the data set has one and not everything is free. */
  child: string | null;
  /** The note, without a first clause that only says again that it is free. */
  note: string | null;
}

/**
 * An attraction's cost without saying the same thing twice: when adults
 * and children pay nothing it is just "Entrada libre" (no "Adultos:"), and a
 * note that starts by saying so again ("Acceso libre; …", "Free; …") loses
 * that clause. `noteLang` is the language the note is really written in
 * (a Spanish note on an English page), whose `format.freeWords` are looked for.
 */
export function describeCost(
  cost: Attraction["cost"],
  lang: Lang = DEFAULT_LANG,
  noteLang: Lang = lang,
): CostWords {
  const free = cost.adult.amount === 0 && (cost.child?.amount ?? 0) === 0;
  let note = cost.notes?.trim() || null;
  if (free && note) {
    const words = t(noteLang, "format.freeWords").split("|")
      .map((word) => word.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .filter(Boolean);
    const restated = new RegExp(
      `^(?:${words.join("|")})(?=[\\s.;,:!]|$)[.;,:!]?\\s*`,
      "iu",
    );
    const rest = note.replace(restated, "");
    note = rest === note
      ? note
      : rest
      ? rest[0].toLocaleUpperCase(getLangMeta(noteLang).intlLocale) +
        rest.slice(1)
      : null;
  }
  return {
    free,
    adult: formatMoney(cost.adult, undefined, lang),
    child: cost.child && !free
      ? formatMoney(cost.child, undefined, lang)
      : null,
    note,
  };
}

/** `13:00` (English: `1:00 PM`): a wall-clock time `HH:MM` of the data set. */
export function formatClockTime(
  time: string,
  lang: Lang = DEFAULT_LANG,
): string {
  return getFormatter<Intl.DateTimeFormat>("date", lang, {
    ...(lang === DEFAULT_LANG
      ? { hour: "2-digit", hourCycle: "h23" }
      : { hour: "numeric" }),
    minute: "2-digit",
    timeZone: "UTC",
  }).format(new Date(`1970-01-01T${time}:00Z`));
}

/**
 * `sábado 5 de diciembre` (English: `Saturday, December 5`) for a calendar
 * day, with its year when `withYear`.
 */
export function formatLongDate(
  day: string,
  lang: Lang = DEFAULT_LANG,
  { withYear = false }: { withYear?: boolean } = {},
): string {
  const text = getFormatter<Intl.DateTimeFormat>("date", lang, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: withYear ? "numeric" : undefined,
    timeZone: "UTC",
  }).format(new Date(`${day}T12:00:00Z`));
  // Spanish writes no comma after the weekday: «sábado 5 de diciembre».
  return lang === DEFAULT_LANG ? text.replace(/^(\p{L}+),/u, "$1") : text;
}

/** The name of the weekday of `day` (`sábado`, `Saturday`). */
export function formatWeekday(day: string, lang: Lang = DEFAULT_LANG): string {
  return getFormatter<Intl.DateTimeFormat>("date", lang, {
    weekday: "long",
    timeZone: "UTC",
  }).format(new Date(`${day}T12:00:00Z`));
}
