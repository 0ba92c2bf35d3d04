/**
 * Whether a passport's stamps unlock a prize, and how far it is: one pure
 * function of the requirement, the passport's facts and the data set, used
 * by the claim's transaction and by the passport's list alike.
 */
import { BADGES } from "@/lib/badges/badges.ts";
import type { PrizeRequirement } from "./types.ts";

/** What a requirement reads of a passport. */
export interface PassportProgress {
  /** Slugs of the attractions with a verified visit. */
  visited: ReadonlySet<string>;
  /** Ids of the badges held. */
  badges: ReadonlySet<string>;
}

/** What a requirement reads of the data set. */
export interface RewardsData {
  attractionCount: number;
  /** Each route's attractions, by the route's slug. */
  routes: ReadonlyMap<string, readonly string[]>;
}

/** How far a passport is from a prize: `have` of `need`, unlocked when equal. */
export interface PrizeProgress {
  unlocked: boolean;
  have: number;
  need: number;
}

export function getPrizeProgress(
  requirement: PrizeRequirement,
  passport: PassportProgress,
  data: RewardsData,
): PrizeProgress {
  const countOf = (slugs: readonly string[]) => {
    const need = new Set(slugs).size;
    const have = new Set(slugs.filter((slug) => passport.visited.has(slug)))
      .size;
    return { have, need };
  };
  let progress: { have: number; need: number };
  switch (requirement.kind) {
    case "stamps":
      progress = { have: passport.visited.size, need: requirement.count };
      break;
    case "badge": {
      const rule = BADGES.find((badge) => badge.id === requirement.badgeId);
      const stamps = rule?.stamps === "all"
        ? data.attractionCount
        : rule?.stamps ?? Infinity;
      progress = passport.badges.has(requirement.badgeId)
        ? { have: stamps, need: stamps }
        : { have: Math.min(passport.visited.size, stamps - 1), need: stamps };
      break;
    }
    case "route":
      progress = countOf(data.routes.get(requirement.routeSlug) ?? []);
      // A route the data set no longer has unlocks nothing.
      if (progress.need === 0) progress = { have: 0, need: 1 };
      break;
    case "attractions":
      progress = countOf(requirement.slugs);
      break;
  }
  const need = Math.max(1, progress.need);
  const have = Math.min(progress.have, need);
  return { unlocked: have >= need, have, need };
}
