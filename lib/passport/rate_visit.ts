import { rateVisit } from "@/lib/db/visits.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import { stripInvisible } from "@/lib/text/clean.ts";
import type { VisitDeps } from "@/lib/check_in/mod.ts";

/** The most characters of notes kept; longer notes are cut. */
export const MAX_NOTES_LENGTH = 1_000;

/**
 * Saves the rating and notes of a user's verified visit, replacing earlier
 * ones: both are what the call sends, so an omitted field clears it. An
 * invalid rating is saved as null (docs/API.md, rate-visit). 404 for an
 * attraction that is not in the data set or that the user has not verified.
 */
export async function rateVerifiedVisit(
  { kv, data, now, onChange }: VisitDeps,
  { userId, slug, rating, notes }: {
    userId: string;
    slug: string;
    rating: unknown;
    notes: string | null | undefined;
  },
): Promise<{ rating: number | null; notes: string | null }> {
  if (!data.current().attractionsBySlug.has(slug)) {
    throw new NotFoundError(apiMessage("attraction.unknown", { slug }));
  }
  const visit = await rateVisit(kv, {
    userId,
    slug,
    rating: normalizeRating(rating),
    notes: normalizeNotes(notes),
    now: now(),
    timeZone: data.current().data.municipality.timeZone,
  });
  if (!visit) {
    throw new NotFoundError(apiMessage("visit.notVerified"));
  }
  onChange({ kind: "rating", userId, slug });
  return { rating: visit.rating, notes: visit.notes };
}

/** A whole number 1..5, or null for anything else (not provided or invalid). */
export function normalizeRating(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 &&
      value <= 5
    ? value
    : null;
}

/**
 * Notes trimmed, empty as null, cut at {@linkcode MAX_NOTES_LENGTH}
 * characters (code points, so an emoji is never split).
 */
export function normalizeNotes(
  value: string | null | undefined,
): string | null {
  // Invisible and reordering characters go first: what is left is what shows.
  const trimmed = value === null || value === undefined
    ? undefined
    : stripInvisible(value).trim();
  if (!trimmed) return null;
  const characters = Array.from(trimmed);
  if (characters.length <= MAX_NOTES_LENGTH) return trimmed;
  return characters.slice(0, MAX_NOTES_LENGTH).join("").trimEnd();
}
