/** A milestone badge as responses and pages show it (docs/API.md, milestone badges). */
export interface Badge {
  id: string;
  name: string;
  /** A single emoji. */
  icon: string;
}

/** A milestone badge and the verified-visit count that unlocks it. */
export interface BadgeDefinition extends Badge {
  /** Verified visits needed; `"all"` means every attraction of the data set. */
  threshold: number | "all";
}

/**
 * The milestone badges, lowest first (docs/API.md, milestone badges): 5,
 * 10 and every attraction. Leyenda is tied to the data set's total rather
 * than to 17, so a data set with more or fewer attractions keeps "every
 * attraction" meaning every attraction.
 */
export const BADGE_DEFINITIONS: readonly Readonly<BadgeDefinition>[] = [
  { id: "explorador", name: "Explorador", icon: "🧭", threshold: 5 },
  { id: "veterano", name: "Veterano", icon: "🎖️", threshold: 10 },
  { id: "leyenda", name: "Leyenda", icon: "👑", threshold: "all" },
];

/** The badges with their thresholds resolved against `totalAttractions`, lowest first. */
export function getBadgeDefinitions(
  totalAttractions: number,
): (Badge & { threshold: number })[] {
  return BADGE_DEFINITIONS
    .map(({ threshold, ...badge }) => ({
      ...badge,
      threshold: threshold === "all" ? totalAttractions : threshold,
    }))
    .sort((a, b) => a.threshold - b.threshold);
}

/**
 * Every badge whose threshold `visitCount` has reached, in milestone order
 * (Explorador, Veterano, Leyenda: the last is the most prestigious). A count
 * past a threshold still qualifies: when a reloaded data set lowers the
 * total, a user beyond it gets Leyenda at their next verification instead of
 * never; the caller unlocks each badge at most once.
 */
export function getBadgesReachedAt(
  visitCount: number,
  totalAttractions: number,
): Badge[] {
  return BADGE_DEFINITIONS
    .filter(({ threshold }) => {
      const needed = threshold === "all" ? totalAttractions : threshold;
      return needed > 0 && visitCount >= needed;
    })
    .map(({ id, name, icon }) => ({ id, name, icon }));
}

/** The definition of a badge id, or `undefined` for an id no longer defined. */
export function getBadgeDefinition(
  id: string,
): Readonly<BadgeDefinition> | undefined {
  return BADGE_DEFINITIONS.find((badge) => badge.id === id);
}
