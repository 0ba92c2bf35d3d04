/**
 * Guide codes as the staff console and the posters see them: each
 * attraction's current code (a replaced one from KV, else the data set's),
 * and replacing one with a new random code. Verification reads the same
 * records inside its own transaction (lib/db/visits.ts, `recordVisit`).
 */
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import {
  type GuideCodeRecord,
  listGuideCodeRecords,
  saveGuideCode,
} from "@/lib/db/guide_codes.ts";
import {
  BadRequestError,
  ConflictError,
  NotFoundError,
} from "@/lib/http/errors.ts";
import type { StaffMember } from "@/lib/staff/types.ts";

/**
 * The letters of a new code: digits and capitals without the ones read as
 * another (0/O, 1/I). 32 symbols, so a random byte's low 5 bits pick one
 * without bias.
 */
export const GUIDE_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** The grace periods the console offers, in days (0: the old code stops at once). */
export const GRACE_PERIOD_DAYS = [0, 7, 14, 30] as const;

/** The longest grace period: posters get replaced within a month. */
export const MAX_GRACE_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** New codes are never shorter than this, even if the data set's are. */
const MIN_CODE_LENGTH = 6;

/** A new code of `length` symbols of {@linkcode GUIDE_CODE_ALPHABET}, from `crypto.getRandomValues`. */
export function generateGuideCode(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => GUIDE_CODE_ALPHABET[b & 31]).join("");
}

/** The data set's (default) code of every attraction, by slug. */
export function getDefaultGuideCodes(loaded: LoadedData): Map<string, string> {
  return new Map(
    [...loaded.slugByGuideCode].map(([code, slug]) => [slug, code]),
  );
}

/** An attraction's code as the console shows it. */
export interface CurrentGuideCode {
  slug: string;
  name: string;
  /** The code accepted now, upper case. */
  code: string;
  /** The replacement in KV, or null while the data set's code stands. */
  replaced: GuideCodeRecord | null;
  /** The replaced code still accepted, and until when (ISO 8601); null when none is. */
  previous: { code: string; until: string } | null;
}

/** Every attraction's current code, in the data set's order (one KV list). */
export async function listCurrentGuideCodes(
  kv: Deno.Kv,
  loaded: LoadedData,
  now: Date,
): Promise<CurrentGuideCode[]> {
  const defaults = getDefaultGuideCodes(loaded);
  const records = await listGuideCodeRecords(kv);
  return loaded.data.attractions.map((attraction) => {
    const record = records.get(attraction.slug) ?? null;
    const previous = record?.previous &&
        Date.parse(record.previous.until) > now.getTime()
      ? record.previous
      : null;
    return {
      slug: attraction.slug,
      name: attraction.name,
      code: record?.code ?? defaults.get(attraction.slug)!,
      replaced: record,
      previous,
    };
  });
}

/**
 * Parses the grace period a form sent (whole days, 0 to
 * {@linkcode MAX_GRACE_DAYS}); anything else is a 400 with a Spanish message.
 */
export function parseGraceDays(value: unknown): number {
  const text = typeof value === "string" ? value.trim() : "";
  const days = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(days) || days < 0 || days > MAX_GRACE_DAYS) {
    throw new BadRequestError(
      `Elige un periodo de gracia: sin periodo de gracia, o de 1 a ${MAX_GRACE_DAYS} días.`,
    );
  }
  return days;
}

/**
 * Gives an attraction a new random code (as long as its current one, at
 * least {@linkcode MIN_CODE_LENGTH}): the old one is still accepted for
 * `graceDays` (0: refused at once, for a leaked code). A code taken by any
 * attraction (in the data set, or replaced and current or in its grace
 * period) is never handed out: a generated one is drawn again, an explicit
 * `code` (tests, a future form) is a 409. Recorded in the audit log with
 * the attraction and the grace period, never a code.
 */
export async function replaceGuideCode(
  { kv, data, now }: {
    kv: Deno.Kv;
    data: { current(): LoadedData };
    now: () => Date;
  },
  { slug, graceDays, staff, code: wanted }: {
    slug: string;
    graceDays: number;
    staff: StaffMember;
    /** A chosen code instead of a random one. */
    code?: string;
  },
): Promise<{ code: string; record: GuideCodeRecord }> {
  const loaded = data.current();
  if (!loaded.attractionsBySlug.has(slug)) {
    throw new NotFoundError("Ese atractivo no existe en el catálogo.");
  }
  if (
    !Number.isInteger(graceDays) || graceDays < 0 || graceDays > MAX_GRACE_DAYS
  ) {
    throw new BadRequestError(
      `El periodo de gracia va de 0 a ${MAX_GRACE_DAYS} días.`,
    );
  }
  const defaults = getDefaultGuideCodes(loaded);
  const target = wanted?.trim().toUpperCase();
  if (
    target !== undefined &&
    !new RegExp(`^[${GUIDE_CODE_ALPHABET}]{${MIN_CODE_LENGTH},16}$`).test(
      target,
    )
  ) {
    throw new BadRequestError(
      `El código debe tener de ${MIN_CODE_LENGTH} a 16 caracteres entre ${GUIDE_CODE_ALPHABET}.`,
    );
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const at = now();
    const records = await listGuideCodeRecords(kv);
    const current = records.get(slug)?.code ?? defaults.get(slug)!;
    const code = target ??
      generateGuideCode(Math.max(MIN_CODE_LENGTH, current.length));
    // A data-set code stays somebody's (it would come back if a record went).
    const taken = loaded.slugByGuideCode.has(code) || code === current ||
      [...records.values()].some((r) => r.previous?.code === code);
    const result = taken ? { status: "taken" as const } : await saveGuideCode(
      kv,
      {
        slug,
        current,
        code,
        graceMs: graceDays * DAY_MS,
        staff,
        now: at,
        auditTarget: `${slug} (periodo de gracia: ${
          graceDays === 0 ? "ninguno" : `${graceDays} días`
        })`,
      },
    );
    if (result.status === "saved") return { code, record: result.record };
    if (result.status === "taken" && target !== undefined) {
      throw new ConflictError(
        "Ese código ya lo usa otro atractivo (o sigue vigente en su periodo de gracia). No se cambió nada.",
      );
    }
    // A random code that was taken, or a race: draw and read again.
  }
  throw new ConflictError(
    "No se pudo reemplazar el código en este momento. Inténtalo de nuevo.",
  );
}
