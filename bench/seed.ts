import { rateVisit, recordVisit } from "@/lib/db/visits.ts";

/**
 * Seeds the tourist whose route page the benches load: the first seven
 * attractions visited, every other one rated. Returns the user id.
 */
export async function seedRouteUser(
  kv: Deno.Kv,
  slugs: string[],
  { now, totalAttractions }: { now: Date; totalAttractions: number },
): Promise<string> {
  const userId = crypto.randomUUID();
  for (const [i, slug] of slugs.slice(0, 7).entries()) {
    await recordVisit(kv, { userId, slug, now, totalAttractions });
    if (i % 2 === 0) {
      await rateVisit(kv, {
        userId,
        slug,
        rating: 4,
        notes: "Imperdible al atardecer",
        now,
      });
    }
  }
  return userId;
}
