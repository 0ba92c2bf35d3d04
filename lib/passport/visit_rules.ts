import type { Badge } from "./badges.ts";
import { type DataStore, normalizeGuideCode } from "@/lib/data/tourism_data.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import {
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
} from "@/lib/http/errors.ts";

/** What the visit rules need from the app's dependencies. */
export interface VisitDeps {
  kv: Deno.Kv;
  data: DataStore;
  now: () => Date;
}

/**
 * Wrong guide codes one user may send per window (DESIGN.md: more than 10 in
 * 10 minutes is a 429): about 1,440 guesses a day against the two billion
 * six-character codes of letters and digits.
 */
export const GUIDE_CODE_LIMIT = {
  scope: "guide_codes",
  limit: 10,
  windowMs: 10 * 60_000,
} as const;

/** The most characters of notes kept; longer notes are cut. */
export const MAX_NOTES_LENGTH = 1_000;

/**
 * Verifies a visit by guide code for an authenticated user. An unknown code
 * is a 404 that counts against {@linkcode GUIDE_CODE_LIMIT}; past the limit
 * every code, right or wrong, is a 429 until the oldest failure leaves the
 * window, so the answers give a guesser nothing. A visit already verified is
 * a 409 carrying the first visit.
 */
export async function verifyVisit(
  { kv, data, now }: VisitDeps,
  { userId, code }: { userId: string; code: string },
): Promise<{ visitId: string; atractivo: string; badge: Badge | null }> {
  const loaded = data.current();
  const at = now();
  const limit = { ...GUIDE_CODE_LIMIT, subject: userId };
  const slug = loaded.slugByGuideCode.get(normalizeGuideCode(code));

  if (!slug) {
    const hit = await hitRateLimit(kv, { ...limit, now: at });
    if (!hit.allowed) throw tooManyWrongCodes(hit.retryAfterMs);
    throw new NotFoundError(
      `El código de guía no corresponde a ningún atractivo. Revisa el código que aparece en el lugar (intentos restantes: ${hit.remaining}).`,
    );
  }

  const result = await recordVisit(kv, {
    userId,
    slug,
    now: at,
    totalAttractions: loaded.totalAttractions,
    rateLimit: limit,
  });
  if (result.status === "rate_limited") {
    throw tooManyWrongCodes(result.retryAfterMs);
  }
  if (result.status === "duplicate") {
    throw new ConflictError("Ya registraste tu visita a este atractivo", {
      visitId: result.visit.visitId,
      atractivo: slug,
    });
  }
  return {
    visitId: result.visit.visitId,
    atractivo: slug,
    badge: result.badge,
  };
}

/**
 * Saves the rating and notes of a user's verified visit, replacing earlier
 * ones: both are what the call sends, so an omitted field clears it. An
 * invalid rating is saved as null (spec 4.3). 404 for an attraction that is
 * not in the data set or that the user has not verified.
 */
export async function rateVerifiedVisit(
  { kv, data, now }: VisitDeps,
  { userId, slug, rating, notes }: {
    userId: string;
    slug: string;
    rating: unknown;
    notes: string | null | undefined;
  },
): Promise<{ rating: number | null; notes: string | null }> {
  if (!data.current().attractionsBySlug.has(slug)) {
    throw new NotFoundError(`No existe el atractivo "${slug}"`);
  }
  const visit = await rateVisit(kv, {
    userId,
    slug,
    rating: normalizeRating(rating),
    notes: normalizeNotes(notes),
    now: now(),
  });
  if (!visit) {
    throw new NotFoundError(
      "Aún no has verificado tu visita a este atractivo: registra su código de guía primero",
    );
  }
  return { rating: visit.rating, notes: visit.notes };
}

/** A whole number 1..5, or null for anything else ("null if not provided or invalid"). */
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
  const trimmed = value?.trim();
  if (!trimmed) return null;
  const characters = Array.from(trimmed);
  if (characters.length <= MAX_NOTES_LENGTH) return trimmed;
  return characters.slice(0, MAX_NOTES_LENGTH).join("").trimEnd();
}

function tooManyWrongCodes(retryAfterMs: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new TooManyRequestsError(
    `Demasiados códigos incorrectos. Espera ${minutes} ${
      minutes === 1 ? "minuto" : "minutos"
    } antes de intentarlo de nuevo.`,
    retryAfterMs / 1000,
  );
}
