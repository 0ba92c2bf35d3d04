/**
 * The badges, as data: one table ({@linkcode BADGES}) whose rows say each
 * badge's id, emoji and rule (a predicate over a passport's progress), and,
 * for a badge a number of stamps reaches, that number. The awarding
 * (lib/db/visits.ts, lib/db/passports.ts), the staff dashboard's funnel,
 * the pages and the API read it; each badge's name is one message per
 * language, `badges.<id>.name` in `locales/<lang>/badges.json`. A new badge
 * is a row here and a line in each catalogue (docs/ARCHITECTURE.md).
 */
import {
  DEFAULT_LANG,
  hasMessage,
  type Lang,
  t,
} from "@/lib/i18n/catalogue.ts";

/** A badge as responses, stored badges and pages carry it (docs/API.md, milestone badges). */
export interface Badge {
  id: string;
  /** Its Spanish name, as the catalogue says it. */
  name: string;
  /** A single emoji. */
  icon: string;
}

/** What a badge's rule sees: a passport's progress, the visit being recorded included. */
export interface BadgeProgress {
  /** Verified visits (stamps). */
  count: number;
  /** The slugs of the attractions visited. */
  visited: ReadonlySet<string>;
  /** The attractions of the data set in force. */
  total: number;
}

/** A row of the badge table. */
export interface BadgeRule {
  id: string;
  /** A single emoji. */
  icon: string;
  /**
   * Whether `progress` has earned it. A badge once held is never taken back,
   * and one whose rule a passport already meets comes with its next visit.
   */
  rule: (progress: BadgeProgress) => boolean;
  /**
   * The stamps that earn it, for a badge a count earns: the funnel's column,
   * the route page's "unlocks with N stamps". `"all"` is every attraction of
   * the data set. Absent for a badge no count alone earns.
   */
  stamps?: number | "all";
}

/** The table's rows for a badge earned at `stamps` verified visits. */
function reachedAt(
  stamps: number | "all",
): Pick<BadgeRule, "rule" | "stamps"> {
  return {
    stamps,
    rule: ({ count, total }) => {
      const needed = stamps === "all" ? total : stamps;
      // An empty data set never hands out "every attraction" for nothing.
      return needed > 0 && count >= needed;
    },
  };
}

/**
 * The badges, lowest milestone first (docs/API.md, milestone badges):
 * Explorador at 5, Veterano at 10, Leyenda at every attraction. Leyenda
 * follows the data set's total rather than 17, so a data set with more or
 * fewer attractions keeps "every attraction" meaning every attraction; a
 * count past it still qualifies, so a reload that lowers the total gives it
 * at the next verification instead of never.
 */
export const BADGES: readonly Readonly<BadgeRule>[] = [
  { id: "explorador", icon: "🧭", ...reachedAt(5) },
  { id: "veterano", icon: "🎖️", ...reachedAt(10) },
  { id: "leyenda", icon: "👑", ...reachedAt("all") },
];

/**
 * A badge's name in `lang`: its catalogue message `badges.<id>.name` (the
 * Spanish one where `lang` lacks it). A badge no longer in the catalogue
 * keeps the name it was stored with, else its id.
 */
export function getBadgeName(
  lang: Lang,
  badge: { id: string; name?: string },
): string {
  const key = `badges.${badge.id}.name`;
  return hasMessage(key) ? t(lang, key) : badge.name || badge.id;
}

/** `rule` as a badge to store and answer: its id, Spanish name and emoji. */
export function toBadge(rule: Pick<BadgeRule, "id" | "icon">): Badge {
  return {
    id: rule.id,
    name: getBadgeName(DEFAULT_LANG, rule),
    icon: rule.icon,
  };
}

/**
 * Every badge of `table` whose rule `progress` meets, in table order (the
 * last is the most prestigious). The caller unlocks each at most once.
 */
export function getBadgesEarned(
  progress: BadgeProgress,
  table: readonly BadgeRule[] = BADGES,
): Badge[] {
  return table.filter((row) => row.rule(progress)).map(toBadge);
}

/**
 * The badges of `table` with their stamps resolved against
 * `totalAttractions` (null for a badge no count earns), fewest stamps
 * first: what the route page lists as still to earn.
 */
export function getBadgeDefinitions(
  totalAttractions: number,
  table: readonly BadgeRule[] = BADGES,
): (Badge & { stamps: number | null })[] {
  return table
    .map((row) => ({
      ...toBadge(row),
      stamps: row.stamps === "all" ? totalAttractions : row.stamps ?? null,
    }))
    .sort((a, b) => (a.stamps ?? Infinity) - (b.stamps ?? Infinity));
}

/**
 * The stamp counts the staff dashboard's funnel counts tourists at: a first
 * stamp, then each badge's stamps, fewest first, `"all"` counted as
 * `allStamps`. The counters are written with each visit, so the caller
 * passes a fixed number there, not the total of whichever data set is in
 * force.
 */
export function getFunnelStamps(
  allStamps: number,
  table: readonly BadgeRule[] = BADGES,
): number[] {
  const stamps = table.flatMap((row) =>
    row.stamps === undefined
      ? []
      : [row.stamps === "all" ? allStamps : row.stamps]
  );
  return [...new Set([1, ...stamps])].sort((a, b) => a - b);
}

/** The row of `id` in `table`, or `undefined` for an id no longer there. */
export function getBadgeRule(
  id: string,
  table: readonly BadgeRule[] = BADGES,
): Readonly<BadgeRule> | undefined {
  return table.find((row) => row.id === id);
}
