/**
 * The staff added on the console (`/panel/personal`), beside the `STAFF`
 * list of the environment (the bootstrap, which the console cannot change).
 * Staff are few: they live in one KV entry, so the guard reads it with the
 * session in one `getMany` on every request, and a change made on one
 * instance applies on every instance at its next request. Each change and
 * its audit entry commit together.
 */
import type { StaffMember, StaffRole } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";

/** A staff member added on the console. */
export interface StaffMemberRecord {
  /** The e-mail address, in lower case: also their staff id. */
  email: string;
  role: StaffRole;
  /** Who added them (e-mail or id of the admin). */
  addedBy: string;
  /** ISO 8601. */
  addedAt: string;
  /** ISO 8601 of the last change of role (or the addition). */
  updatedAt: string;
}

/** The one entry that holds every console member. */
export interface StaffRoster {
  members: StaffMemberRecord[];
}

/**
 * The most members the console keeps: the roster is one KV value (at most
 * 64 KiB), and a tourism office's staff are a few dozen.
 */
export const MAX_STAFF_MEMBERS = 200;

/** Why a change of the roster was refused: the page says so in Spanish. */
export type StaffMemberProblem = "exists" | "missing" | "full" | "unchanged";

/** A refused change of the roster; nothing was written. */
export class StaffMemberError extends Error {
  override name = "StaffMemberError";
  constructor(readonly problem: StaffMemberProblem) {
    super(`Staff member change refused: ${problem}`);
  }
}

/** The roster's members from a stored value (absent: none). */
export function toStaffMembers(value: unknown): StaffMemberRecord[] {
  const members = (value as StaffRoster | null)?.members;
  return Array.isArray(members) ? members : [];
}

/** Every member added on the console, in the order they were added. */
export async function listStaffMembers(
  kv: Deno.Kv,
): Promise<StaffMemberRecord[]> {
  return toStaffMembers((await kv.get(keys.staffMembers())).value);
}

/**
 * The caller's own rule for a change, run inside its transaction on the
 * roster as read (`before`) and as it would be written (`after`): it
 * throws to refuse, and then nothing is written. So a rule that counts
 * members (the console's last admin) holds against a change committed at
 * the same moment: the later one is tried again on the new roster.
 */
export type RosterRule = (
  before: readonly StaffMemberRecord[],
  after: readonly StaffMemberRecord[],
) => void;

/** Reads, changes and writes the roster with the change's audit entry, retried on a lost race. */
async function changeRoster(
  kv: Deno.Kv,
  change: (members: StaffMemberRecord[]) => StaffMemberRecord[],
  audit: (operation: Deno.AtomicOperation) => void,
  rule?: RosterRule,
): Promise<void> {
  await runTransaction(async () => {
    const entry = await kv.get<StaffRoster>(keys.staffMembers());
    const before = toStaffMembers(entry.value);
    const members = change(before);
    rule?.(before, members);
    const operation = kv.atomic().check(entry).set(keys.staffMembers(), {
      members,
    });
    audit(operation);
    const result = await commit(operation);
    return result.ok ? undefined : CONFLICT;
  });
}

/**
 * `by` adds `email` to the staff with `role`, audited as `staff_invited`.
 * Throws {@linkcode StaffMemberError} `exists` when the console already
 * has them, `full` past {@linkcode MAX_STAFF_MEMBERS}, and whatever
 * `rule` throws.
 */
export async function addStaffMember(
  kv: Deno.Kv,
  { email, role, by, now, rule }: {
    email: string;
    role: StaffRole;
    by: StaffMember;
    now: Date;
    rule?: RosterRule;
  },
): Promise<StaffMemberRecord> {
  const record: StaffMemberRecord = {
    email,
    role,
    addedBy: by.email || by.id,
    addedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await changeRoster(kv, (members) => {
    if (members.some((member) => member.email === email)) {
      throw new StaffMemberError("exists");
    }
    if (members.length >= MAX_STAFF_MEMBERS) {
      throw new StaffMemberError("full");
    }
    return [...members, record];
  }, (operation) =>
    addStaffActionTo(operation, {
      staff: by,
      action: "staff_invited",
      target: email,
      role,
      at: now,
    }), rule);
  return record;
}

/**
 * `by` gives the console member `email` the role `role`, audited as
 * `staff_role_changed`; it applies at the member's next request. Throws
 * {@linkcode StaffMemberError} `missing` or `unchanged`, and whatever
 * `rule` throws.
 */
export async function changeStaffMemberRole(
  kv: Deno.Kv,
  { email, role, by, now, rule }: {
    email: string;
    role: StaffRole;
    by: StaffMember;
    now: Date;
    rule?: RosterRule;
  },
): Promise<void> {
  await changeRoster(kv, (members) => {
    const found = members.find((member) => member.email === email);
    if (!found) throw new StaffMemberError("missing");
    if (found.role === role) throw new StaffMemberError("unchanged");
    return members.map((member) =>
      member.email === email
        ? { ...member, role, updatedAt: now.toISOString() }
        : member
    );
  }, (operation) =>
    addStaffActionTo(operation, {
      staff: by,
      action: "staff_role_changed",
      target: email,
      role,
      at: now,
    }), rule);
}

/**
 * `by` removes the console member `email`, audited as `staff_removed`.
 * Their sessions are ended by the caller
 * (`removeStaffMemberSessions`), their unused links by
 * `deleteStaffLinksOf`. Throws {@linkcode StaffMemberError} `missing`,
 * and whatever `rule` throws.
 */
export async function deleteStaffMember(
  kv: Deno.Kv,
  { email, by, now, rule }: {
    email: string;
    by: StaffMember;
    now: Date;
    rule?: RosterRule;
  },
): Promise<void> {
  await changeRoster(kv, (members) => {
    if (!members.some((member) => member.email === email)) {
      throw new StaffMemberError("missing");
    }
    return members.filter((member) => member.email !== email);
  }, (operation) =>
    addStaffActionTo(operation, {
      staff: by,
      action: "staff_removed",
      target: email,
      at: now,
    }), rule);
}
