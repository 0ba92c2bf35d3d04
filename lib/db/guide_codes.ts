/**
 * Replaced guide codes: the codes in the data set are the defaults; a code
 * an admin replaced lives here and wins, on every instance at once (it is
 * read inside each verification, never cached in process). One record per
 * attraction (`keys.guideCode`) and an index by code
 * (`keys.guideCodeByCode`) of every replaced code still accepted (the
 * current one, and the previous one during its grace period), so that a code
 * is never given to two attractions: a replacement checks that its new
 * code's index entry does not exist, in the same atomic.
 */
import { addStaffActionTo } from "./audit.ts";
import { MAX_CHECK_IN_AGE_MS } from "@/lib/check_in/names.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/** An attraction's replaced guide code, as stored. */
export interface GuideCodeRecord {
  slug: string;
  /** The current code, normalised (upper case). */
  code: string;
  /** ISO 8601. */
  setAt: string;
  /** The staff member who set it (their id). */
  setBy: string;
  /** The code it replaced, still accepted until `until`; null when it was cut off at once. */
  previous: { code: string; until: string } | null;
}

/** What the index says of a replaced code: its attraction, and until when it is accepted (null: current). */
export interface GuideCodeIndexEntry {
  slug: string;
  until: string | null;
}

/**
 * An index entry of a code in its grace period is kept this long after it
 * ends, then KV drops it: a check-in synced late (up to
 * {@linkcode MAX_CHECK_IN_AGE_MS} after it was made, lib/check_in/names.ts)
 * still finds a code typed within the grace period, with a day to spare.
 */
const GRACE_INDEX_SLACK_MS = MAX_CHECK_IN_AGE_MS + 24 * 60 * 60 * 1000;

/**
 * The attraction a typed (normalised) code opens, from what a
 * verification read: `index` (the code's index entry) and `record` (the
 * replaced code of `defaultSlug`, the attraction whose data-set code it is,
 * if any). A replaced code's index entry decides; otherwise a data-set code
 * counts only while its attraction's code has not been replaced. `now` is
 * when the code was typed: a check-in synced late passes its claimed time,
 * so a code in its grace period counts if it was typed before the grace
 * ended. A code cut off without grace (leaked) has no index entry any more,
 * so it is refused whatever the time.
 */
export function resolveGuideCode(
  { index, record, defaultSlug, now }: {
    index: GuideCodeIndexEntry | null;
    record: GuideCodeRecord | null;
    defaultSlug: string | undefined;
    now: Date;
  },
): string | null {
  if (index) {
    return index.until === null || Date.parse(index.until) > now.getTime()
      ? index.slug
      : null;
  }
  if (!defaultSlug || record) return null;
  return defaultSlug;
}

/** Every replaced guide code, by slug (one list: at most one record per attraction). */
export async function listGuideCodeRecords(
  kv: Deno.Kv,
): Promise<Map<string, GuideCodeRecord>> {
  const records = new Map<string, GuideCodeRecord>();
  for await (
    const entry of kv.list<GuideCodeRecord>({ prefix: keys.guideCodes() })
  ) {
    if (typeof entry.value?.code === "string") {
      records.set(entry.value.slug, entry.value);
    }
  }
  return records;
}

/** One attraction's replaced guide code, or null while it has its data-set code. */
export async function getGuideCodeRecord(
  kv: Deno.Kv,
  slug: string,
): Promise<GuideCodeRecord | null> {
  return (await kv.get<GuideCodeRecord>(keys.guideCode(slug))).value;
}

/** What {@linkcode saveGuideCode} did. */
export type SaveGuideCodeResult =
  | { status: "saved"; record: GuideCodeRecord }
  /** Another attraction's code (current or in its grace period) is `code`: nothing written. */
  | { status: "taken" }
  /** The attraction's code changed meanwhile: read again and retry. */
  | { status: "conflict" };

/**
 * Replaces an attraction's code in one atomic: its record, the index
 * entries (the new code's, which must not exist; the replaced code's, kept
 * for the grace period or removed; an older code still in grace, removed:
 * only one previous code is accepted) and the audit entry. `current` is the
 * code being replaced (the record's, or the data set's when there is none).
 * The audit names the attraction and the grace period, never a code.
 */
export async function saveGuideCode(
  kv: Deno.Kv,
  { slug, current, code, graceMs, staff, now, auditTarget }: {
    slug: string;
    current: string;
    code: string;
    graceMs: number;
    staff: StaffMember;
    now: Date;
    auditTarget: string;
  },
): Promise<SaveGuideCodeResult> {
  const recordEntry = await kv.get<GuideCodeRecord>(keys.guideCode(slug));
  const stored = recordEntry.value;
  const newKey = keys.guideCodeByCode(code);
  const [newEntry, currentEntry, olderEntry] = await kv.getMany<
    GuideCodeIndexEntry[]
  >([
    newKey,
    keys.guideCodeByCode(current),
    keys.guideCodeByCode(stored?.previous?.code ?? current),
  ]);
  if (newEntry.value) return { status: "taken" };
  if ((stored?.code ?? current) !== current) return { status: "conflict" };
  const until = new Date(now.getTime() + graceMs);
  const record: GuideCodeRecord = {
    slug,
    code,
    setAt: now.toISOString(),
    setBy: staff.id,
    previous: graceMs > 0
      ? { code: current, until: until.toISOString() }
      : null,
  };
  const operation = kv.atomic()
    .check(recordEntry, newEntry, currentEntry, olderEntry)
    .set(newKey, { slug, until: null } satisfies GuideCodeIndexEntry)
    .set(keys.guideCode(slug), record);
  if (graceMs > 0) {
    operation.set(
      keys.guideCodeByCode(current),
      { slug, until: record.previous!.until } satisfies GuideCodeIndexEntry,
      { expireIn: graceMs + GRACE_INDEX_SLACK_MS },
    );
  } else {
    // A data-set code without an index entry is refused once a record exists.
    operation.delete(keys.guideCodeByCode(current));
  }
  const older = stored?.previous?.code;
  if (older && older !== current && older !== code) {
    operation.delete(keys.guideCodeByCode(older));
  }
  addStaffActionTo(operation, {
    staff,
    action: "code_replaced",
    target: auditTarget,
    at: now,
  });
  const result = await commit(operation);
  if (result.ok) return { status: "saved", record };
  // Lost a race: another attraction took the code, or this one changed.
  const taken = await kv.get<GuideCodeIndexEntry>(newKey);
  return taken.value ? { status: "taken" } : { status: "conflict" };
}
