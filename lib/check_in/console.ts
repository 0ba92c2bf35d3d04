/**
 * How visits are checked in at an attraction, as the console shows and
 * changes it (and the attraction's page reads it): the rule in force (an
 * admin's choice, else the data set's default), its words in Spanish, the
 * admin's form read and checked, and the audited save
 * (lib/db/check_in_methods.ts). The check-in itself reads the same record,
 * so a change applies to tourists at once.
 */
import type { OnDataChange } from "@/lib/db/changes.ts";
import {
  getCheckInMethodRecord,
  listCheckInMethodRecords,
  saveCheckInMethod,
} from "@/lib/db/check_in_methods.ts";
import { BadRequestError } from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { type DataCheckIn, resolveCheckInRule } from "./methods.ts";
import {
  CHECK_IN_METHODS,
  type CheckInMethod,
  type CheckInRule,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
} from "./names.ts";

/** Each method as the console's form offers it. */
export const CHECK_IN_METHOD_LABELS: Record<CheckInMethod, string> = {
  code: "Con el código del cartel",
  gps: "Con la ubicación («Estoy aquí»)",
  "gps-or-code": "Con ubicación o código",
};

/** Each method in a few words, inside a sentence (tables, the audit log). */
export const CHECK_IN_METHOD_WORDS: Record<CheckInMethod, string> = {
  code: "con código",
  gps: "solo con ubicación",
  "gps-or-code": "con ubicación o código",
};

/** An attraction's rule in force, and whether an admin set it (else: the data set's). */
export interface AttractionCheckInView extends CheckInRule {
  /** Set on the console (ISO 8601), or null while the data set's default applies. */
  setAt: string | null;
  /** The method in words. */
  methodText: string;
}

function toView(
  rule: CheckInRule,
  setAt: string | null,
): AttractionCheckInView {
  return { ...rule, setAt, methodText: CHECK_IN_METHOD_WORDS[rule.method] };
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
    throw new BadRequestError(
      "Elige cómo se registra la visita: con el código, con la ubicación, o con cualquiera de los dos.",
    );
  }
  const text = typeof form.radio === "string" ? form.radio.trim() : "";
  const radiusM = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (
    !Number.isInteger(radiusM) || radiusM < MIN_CHECK_IN_RADIUS_M ||
    radiusM > MAX_CHECK_IN_RADIUS_M
  ) {
    throw new BadRequestError(
      `El radio debe ser un número entero de metros, de ${MIN_CHECK_IN_RADIUS_M} a ${MAX_CHECK_IN_RADIUS_M}${
        text ? ` (escribiste «${text.slice(0, 20)}»)` : ""
      }. No se cambió nada.`,
    );
  }
  return { method, radiusM };
}

/**
 * Saves an admin's rule for `slug`, audited as `check_in_method_set` with
 * the target `<slug> (<method in words>, <radius> m)`.
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
    auditTarget: `${slug} (${
      CHECK_IN_METHOD_WORDS[rule.method]
    }, ${rule.radiusM} m)`,
  });
  onChange({ kind: "check_in_rule", slug });
  return toView(record, record.setAt);
}
