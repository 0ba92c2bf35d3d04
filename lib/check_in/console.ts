/**
 * How visits are checked in at an attraction, as the console shows and
 * changes it (and the attraction's page reads it): the rule in force (an
 * admin's choice, else the data set's default), the admin's form read and
 * checked, and the audited save
 * (lib/db/check_in_methods.ts). The check-in itself reads the same record,
 * so a change applies to tourists at once.
 */
import type { OnDataChange } from "@/lib/db/changes.ts";
import {
  getCheckInMethodRecord,
  listCheckInMethodRecords,
  saveCheckInMethod,
} from "@/lib/db/check_in_methods.ts";
import { type ApiMessage, BadRequestError } from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { type DataCheckIn, resolveCheckInRule } from "./methods.ts";
import {
  CHECK_IN_METHODS,
  type CheckInMethod,
  type CheckInRule,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
} from "./names.ts";

/** The console's words of the check-in (`locales/<lang>/panel_check_in.json`). */
export const CHECK_IN_WORDS = "panel_check_in";

/** The catalogue key of a method as the console's form offers it. */
export function getMethodLabelKey(method: CheckInMethod): string {
  return `${CHECK_IN_WORDS}.method.${method}`;
}

/** The catalogue key of a method in a few words, inside a sentence (tables, the audit log). */
export function getMethodWordsKey(method: CheckInMethod): string {
  return `${CHECK_IN_WORDS}.words.${method}`;
}

/** The audit target of a saved rule: `<slug> (method: <id>, radius_m: <n>)`. */
export const CHECK_IN_AUDIT_TARGET = /^ \(method: (\S+), radius_m: (\d+)\)$/;

/** An attraction's rule in force, and whether an admin set it (else: the data set's). */
export interface AttractionCheckInView extends CheckInRule {
  /** Set on the console (ISO 8601), or null while the data set's default applies. */
  setAt: string | null;
}

function checkInMessage(
  key: string,
  values?: Record<string, string | number>,
): ApiMessage {
  return { key: `${CHECK_IN_WORDS}.${key}`, values };
}

function toView(
  rule: CheckInRule,
  setAt: string | null,
): AttractionCheckInView {
  return { ...rule, setAt };
}

/** The rule in force at `slug`; `dataDefault` is the data set's `checkIn`. */
export async function getAttractionCheckIn(
  kv: Deno.Kv,
  slug: string,
  dataDefault: DataCheckIn | undefined,
): Promise<AttractionCheckInView> {
  const record = await getCheckInMethodRecord(kv, slug);
  return toView(
    resolveCheckInRule(record, dataDefault),
    record?.setAt ?? null,
  );
}

/** The rule in force at `slug`, for its page (which method the form offers). */
export async function getCheckInRule(
  kv: Deno.Kv,
  slug: string,
  dataDefault: DataCheckIn | undefined,
): Promise<CheckInRule> {
  return resolveCheckInRule(
    await getCheckInMethodRecord(kv, slug),
    dataDefault,
  );
}

/** The rule in force at every attraction of `attractions`, by slug (one listing). */
export async function listAttractionCheckIns(
  kv: Deno.Kv,
  attractions: readonly {
    slug: string;
    checkIn?: DataCheckIn;
  }[],
): Promise<Map<string, AttractionCheckInView>> {
  const records = await listCheckInMethodRecords(kv);
  return new Map(attractions.map((a) => {
    const record = records.get(a.slug);
    return [
      a.slug,
      toView(resolveCheckInRule(record, a.checkIn), record?.setAt ?? null),
    ];
  }));
}

/**
 * The admin's form (`metodo`, `radio` in whole metres) as a rule; a bad
 * value is a {@linkcode BadRequestError} (400) saying what to fix.
 */
export function parseCheckInRuleForm(
  form: { metodo?: unknown; radio?: unknown },
): CheckInRule {
  const method = CHECK_IN_METHODS.find((m) => m === form.metodo);
  if (!method) {
    throw new BadRequestError(checkInMessage("error.method"));
  }
  const text = typeof form.radio === "string" ? form.radio.trim() : "";
  const radiusM = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (
    !Number.isInteger(radiusM) || radiusM < MIN_CHECK_IN_RADIUS_M ||
    radiusM > MAX_CHECK_IN_RADIUS_M
  ) {
    throw new BadRequestError(checkInMessage("error.radius", {
      min: MIN_CHECK_IN_RADIUS_M,
      max: MAX_CHECK_IN_RADIUS_M,
      shown: text ? "yes" : "no",
      typed: text.slice(0, 20),
    }));
  }
  return { method, radiusM };
}

/**
 * Saves an admin's rule for `slug`, audited as `check_in_method_set` with
 * the target `<slug> (method: <id>, radius_m: <n>)` (the audit log words it).
 */
export async function setAttractionCheckIn(
  kv: Deno.Kv,
  { slug, rule, staff, now, onChange }: {
    slug: string;
    rule: CheckInRule;
    staff: StaffMember;
    now: Date;
    /** Told of the change: the attraction's cached page shows the new rule at once. */
    onChange: OnDataChange;
  },
): Promise<AttractionCheckInView> {
  const record = await saveCheckInMethod(kv, {
    slug,
    rule,
    staff,
    now,
    auditTarget: `${slug} (method: ${rule.method}, radius_m: ${rule.radiusM})`,
  });
  onChange({ kind: "check_in_rule", slug });
  return toView(record, record.setAt);
}
