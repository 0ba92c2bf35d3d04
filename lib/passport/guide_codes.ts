/**
 * Guide codes as the staff console and the posters see them: each
 * attraction's current code (a replaced one from KV, else the data set's),
 * and replacing one with a new random code. Verification reads the same
 * records inside its own transaction (lib/db/visits.ts, `recordVisit`).
 */
import { DataError, type LoadedData } from "@/lib/data/tourism_data.ts";
import {
  type GuideCodeRecord,
  listGuideCodeRecords,
  saveGuideCode,
} from "@/lib/db/guide_codes.ts";
import {
  type ApiMessage,
  BadRequestError,
  ConflictError,
  NotFoundError,
} from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/**
 * A message of the codes page's catalogue (`locales/<lang>/panel_codes.json`):
 * the refusals say what to do, in the reader's language.
 */
function codesMessage(
  key: string,
  values?: Record<string, string | number>,
): ApiMessage {
  return { key: `panel_codes.${key}`, values };
}

/**
 * The letters of a new code: digits and capitals without the ones read as
 * another (0/O, 1/I). 32 symbols, so a random byte's low 5 bits pick one
 * without bias.
 */
export const GUIDE_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/**
 * The grace periods the console offers, in days, the default first: the
 * posters on the walls keep working while new ones go up. Stopping the old
 * code at once (a leaked code) is a separate, explicit choice.
 */
export const GRACE_PERIOD_DAYS = [30, 14, 7] as const;

/** The grace period when the form names none. */
export const DEFAULT_GRACE_DAYS = 30;

/** The form's `motivo` that stops the old code at once: it leaked. */
export const LEAKED_REASON = "filtrado";

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
 * The grace period the replacement form asks for: none when it says the
 * code leaked (`motivo` {@linkcode LEAKED_REASON}); otherwise `gracia`, 1
 * to {@linkcode MAX_GRACE_DAYS} whole days, {@linkcode DEFAULT_GRACE_DAYS}
 * when absent. Anything else (0 included: stopping a code at once is only
 * the leaked choice) is a 400 that says the range.
 */
export function parseReplacementForm(
  form: { gracia?: unknown; motivo?: unknown },
): number {
  if (form.motivo === LEAKED_REASON) return 0;
  if (form.gracia === undefined) return DEFAULT_GRACE_DAYS;
  const text = typeof form.gracia === "string" ? form.gracia.trim() : "";
  const days = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > MAX_GRACE_DAYS) {
    throw new BadRequestError(codesMessage("error.graceChoice", {
      max: MAX_GRACE_DAYS,
    }));
  }
  return days;
}

/** Two attractions that one guide code would open. */
export interface GuideCodeClash {
  /** The attraction whose code in the data set is taken (its index there). */
  dataSet: { slug: string; name: string; index: number };
  /** The attraction the staff console gave that code, and until when it is accepted (null: its current code). */
  replaced: { slug: string; name: string; until: string | null };
}

/**
 * The clashes between a data set and the codes the staff console gave
 * (`records`): an attraction whose data-set code is another attraction's
 * replaced code, current or still in its grace period at `now`. The data
 * set alone never has one (its schema refuses duplicates).
 */
export function findGuideCodeClashes(
  loaded: LoadedData,
  records: ReadonlyMap<string, GuideCodeRecord>,
  now: Date,
): GuideCodeClash[] {
  const replacedBy = new Map<string, { slug: string; until: string | null }>();
  for (const record of records.values()) {
    replacedBy.set(record.code, { slug: record.slug, until: null });
    if (
      record.previous && Date.parse(record.previous.until) > now.getTime()
    ) {
      replacedBy.set(record.previous.code, {
        slug: record.slug,
        until: record.previous.until,
      });
    }
  }
  const clashes: GuideCodeClash[] = [];
  const defaults = getDefaultGuideCodes(loaded);
  loaded.data.attractions.forEach((attraction, index) => {
    const owner = replacedBy.get(defaults.get(attraction.slug)!);
    if (!owner || owner.slug === attraction.slug) return;
    clashes.push({
      dataSet: { slug: attraction.slug, name: attraction.name, index },
      replaced: {
        slug: owner.slug,
        name: loaded.attractionsBySlug.get(owner.slug)?.name ?? owner.slug,
        until: owner.until,
      },
    });
  });
  return clashes;
}

/** {@linkcode findGuideCodeClashes} of the records in KV now (the console's alert). */
export async function listGuideCodeClashes(
  kv: Deno.Kv,
  loaded: LoadedData,
  now: Date,
): Promise<GuideCodeClash[]> {
  return findGuideCodeClashes(loaded, await listGuideCodeRecords(kv), now);
}

/**
 * Refuses a data set (at start, at a reload) in which two attractions
 * would share a guide code with what the staff console gave: a
 * {@linkcode DataError} naming both attractions, never the code, one line
 * each.
 */
export async function assertNoGuideCodeClashes(
  kv: Deno.Kv,
  loaded: LoadedData,
  now: Date,
): Promise<void> {
  const clashes = await listGuideCodeClashes(kv, loaded, now);
  if (clashes.length === 0) return;
  throw new DataError(
    clashes.map(({ dataSet, replaced }) =>
      `Data set: attractions[${dataSet.index}] "${dataSet.name}" (${dataSet.slug}) has the guide code the staff console gave "${replaced.name}" (${replaced.slug}) ${
        replaced.until === null
          ? "as its current code"
          : `as its old code, still accepted until ${replaced.until}`
      }; two attractions cannot share a code: give attractions[${dataSet.index}] another guideCode.`
    ).join("\n"),
  );
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
    throw new NotFoundError(codesMessage("error.noAttraction"));
  }
  if (
    !Number.isInteger(graceDays) || graceDays < 0 || graceDays > MAX_GRACE_DAYS
  ) {
    throw new BadRequestError(codesMessage("error.graceRange", {
      max: MAX_GRACE_DAYS,
    }));
  }
  const defaults = getDefaultGuideCodes(loaded);
  const target = wanted?.trim().toUpperCase();
  if (
    target !== undefined &&
    !new RegExp(`^[${GUIDE_CODE_ALPHABET}]{${MIN_CODE_LENGTH},16}$`).test(
      target,
    )
  ) {
    throw new BadRequestError(codesMessage("error.codeShape", {
      min: MIN_CODE_LENGTH,
      max: 16,
      alphabet: GUIDE_CODE_ALPHABET,
    }));
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
    const clash = taken ? undefined : findGuideCodeClashes(
      loaded,
      new Map(records).set(slug, {
        slug,
        code,
        setAt: at.toISOString(),
        setBy: staff.id,
        previous: graceDays > 0
          ? {
            code: current,
            until: new Date(at.getTime() + graceDays * DAY_MS).toISOString(),
          }
          : null,
      }),
      at,
    ).find((found) => found.replaced.slug === slug);
    if (clash) throw describeClash(clash);
    const result = taken ? { status: "taken" as const } : await saveGuideCode(
      kv,
      {
        slug,
        current,
        code,
        graceMs: graceDays * DAY_MS,
        staff,
        now: at,
        // Said in words by the audit log (lib/staff/audit_log.ts).
        auditTarget: `${slug} (grace_days: ${graceDays})`,
      },
    );
    if (result.status === "saved") return { code, record: result.record };
    if (result.status === "taken" && target !== undefined) {
      const owner = loaded.slugByGuideCode.get(code) ??
        [...records.values()].find((r) =>
          r.code === code || r.previous?.code === code
        )?.slug;
      const name = owner && loaded.attractionsBySlug.get(owner)?.name;
      throw new ConflictError(
        name
          ? codesMessage("error.codeTaken", { name })
          : codesMessage("error.codeTakenByAnother"),
      );
    }
    // A random code that was taken, or a race: draw and read again.
  }
  throw new ConflictError(codesMessage("error.busy"));
}

/**
 * The 409 of a replacement that would leave two attractions with one
 * code, naming both.
 */
function describeClash({ dataSet, replaced }: GuideCodeClash): ConflictError {
  return new ConflictError(
    codesMessage(
      replaced.until === null ? "error.clashCurrent" : "error.clashPrevious",
      { dataSet: dataSet.name, replaced: replaced.name },
    ),
  );
}
