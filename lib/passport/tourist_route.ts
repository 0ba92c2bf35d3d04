import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { readNote } from "@/lib/db/notes.ts";
import { listBadges, listVisits } from "@/lib/db/visits.ts";

export { getAttractionStats } from "@/lib/db/visits.ts";

/**
 * A tourist's route: what the route page, the share image and the ticket page
 * show. Only visits of attractions in the current data set are listed and
 * counted, so completion never passes 100% after an attraction is removed.
 */
export interface TouristRoute {
  userId: string;
  visits: {
    visitId: string;
    slug: string;
    name: string;
    /** ISO 8601. */
    visitedAt: string;
    rating: number | null;
    /** Null when none, and on public pages when an admin hid them. */
    notes: string | null;
  }[];
  badges: { id: string; name: string; icon: string; unlockedAt: string }[];
  visitCount: number;
  totalAttractions: number;
  /** Integer 0..100; 100 only when every attraction is visited. */
  completionPercent: number;
}

/**
 * Reads a user's route: visits oldest first, with names from `loaded`, and
 * badges. Notes an admin hid are left out unless `owner` (the tourist's own
 * passport): every public page gets them hidden by default.
 */
export async function getTouristRoute(
  kv: Deno.Kv,
  userId: string,
  loaded: LoadedData,
  { owner = false }: { owner?: boolean } = {},
): Promise<TouristRoute> {
  const [visits, badges] = await Promise.all([
    listVisits(kv, userId),
    listBadges(kv, userId),
  ]);
  const listed = visits.flatMap((visit) => {
    const attraction = loaded.attractionsBySlug.get(visit.slug);
    if (!attraction) return [];
    return [{
      visitId: visit.visitId,
      slug: visit.slug,
      name: attraction.name,
      visitedAt: visit.visitedAt,
      rating: visit.rating ?? null,
      notes: readNote(visit, owner ? "author" : "others"),
    }];
  });
  const total = loaded.totalAttractions;
  return {
    userId,
    visits: listed,
    badges: badges.map(({ id, name, icon, unlockedAt }) => ({
      id,
      name,
      icon,
      unlockedAt,
    })),
    visitCount: listed.length,
    totalAttractions: total,
    completionPercent: total > 0
      ? Math.min(100, Math.floor((listed.length / total) * 100))
      : 0,
  };
}

/** The route of a passport with no visits yet (or a ticket linked to none). */
export function getEmptyRoute(loaded: LoadedData): TouristRoute {
  return {
    userId: "",
    visits: [],
    badges: [],
    visitCount: 0,
    totalAttractions: loaded.totalAttractions,
    completionPercent: 0,
  };
}
