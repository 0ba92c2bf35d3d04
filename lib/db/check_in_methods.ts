/**
 * The check-in rule an admin set for an attraction on the console: by code,
 * by position, or either, and the radius. One entry per attraction
 * (`keys.checkInMethod`); none means the data set's default (which rule
 * wins is lib/check_in's `resolveCheckInRule`). A check-in reads it in the
 * visit's own read (lib/db/visits.ts, `readVisitAttempt`) and checks it in
 * the visit's atomic, so a switch applies at once on every instance.
 */
import type { CheckInRule } from "@/lib/check_in/names.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";

/** An admin's check-in rule, as stored. */
export interface CheckInMethodRecord extends CheckInRule {
  slug: string;
  /** ISO 8601. */
  setAt: string;
  /** The staff member who set it (their id). */
  setBy: string;
}

/** Whether a stored value is a check-in rule (anything else: the data set's). */
export function isCheckInMethodRecord(
  value: unknown,
): value is CheckInMethodRecord {
  const record = value as Partial<CheckInMethodRecord> | null;
  return typeof record?.method === "string" &&
    typeof record.radiusM === "number";
}

/** Every admin-set rule, by slug. */
export async function listCheckInMethodRecords(
  kv: Deno.Kv,
): Promise<Map<string, CheckInMethodRecord>> {
  const records = new Map<string, CheckInMethodRecord>();
  for await (const entry of kv.list({ prefix: keys.checkInMethods() })) {
    if (isCheckInMethodRecord(entry.value)) {
      records.set(entry.value.slug, entry.value);
    }
  }
  return records;
}

/** One attraction's admin-set rule, or null while the data set's applies. */
export async function getCheckInMethodRecord(
  kv: Deno.Kv,
  slug: string,
): Promise<CheckInMethodRecord | null> {
  const { value } = await kv.get(keys.checkInMethod(slug));
  return isCheckInMethodRecord(value) ? value : null;
}

/**
 * Sets an attraction's check-in rule and records the admin's action in one
 * atomic (the audit names the attraction, never a code).
 */
export async function saveCheckInMethod(
  kv: Deno.Kv,
  { slug, rule, staff, now, auditTarget }: {
    slug: string;
    rule: CheckInRule;
    staff: StaffMember;
    now: Date;
    auditTarget: string;
  },
): Promise<CheckInMethodRecord> {
  const record: CheckInMethodRecord = {
    slug,
    method: rule.method,
    radiusM: rule.radiusM,
    setAt: now.toISOString(),
    setBy: staff.id,
  };
  const operation = kv.atomic().set(keys.checkInMethod(slug), record);
  addStaffActionTo(operation, {
    staff,
    action: "check_in_method_set",
    target: auditTarget,
    at: now,
  });
  if (!(await commit(operation)).ok) {
    throw new Error("Could not save the check-in rule");
  }
  return record;
}
