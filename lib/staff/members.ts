/**
 * Managing the staff from the console (`/panel/personal`, admins): the
 * staff list in force (`STAFF`, the bootstrap the console cannot change,
 * and the members added on the console), inviting someone by e-mail (a
 * single-use sign-in link to hand over, as `deno task staff-link` makes;
 * nothing is sent), a new link for someone already added, a change of role
 * and a removal, whose sessions end at once on every instance. Each is
 * audited with who did it and to whom.
 */
import { isEmailAddress } from "@/lib/text/email.ts";
import type { StaffEntry } from "@/lib/config/config.ts";
import {
  addStaffMember,
  changeStaffMemberRole,
  deleteStaffMember,
  listStaffMembers,
  type RosterRule,
  StaffMemberError,
  type StaffMemberProblem,
  type StaffMemberRecord,
} from "@/lib/db/staff_members.ts";
import {
  createStaffMemberLink,
  deleteStaffLinksOf,
  removeStaffMemberSessions,
} from "@/lib/db/staff_sessions.ts";
import {
  STAFF_ROLES,
  type StaffMember,
  type StaffRole,
} from "@/lib/types/staff.ts";
import { StaffForbiddenError } from "./guard.ts";
import { createStaffSignInLink, STAFF_LINK_PATH } from "./sign_in.ts";

/**
 * Why a change was refused, for the page to say: the roster's own reasons,
 * an address or role that is not one, someone `STAFF` lists (changed only
 * in the environment), the admin's own removal, or a change that would
 * leave the console without an admin.
 */
export type StaffChangeProblem =
  | StaffMemberProblem
  | "invalid_email"
  | "invalid_role"
  | "bootstrap"
  | "self"
  | "last_admin";

/** A refused change; nothing was written. */
export class StaffChangeError extends Error {
  override name = "StaffChangeError";
  constructor(readonly problem: StaffChangeProblem) {
    super(`Staff change refused: ${problem}`);
  }
}

/** One person on the staff, as the console lists them. */
export interface StaffListEntry {
  /** The e-mail address, or `sub:<subject>` for a `STAFF` entry by subject. */
  identity: string;
  role: StaffRole;
  /**
   * `STAFF` (bootstrap: changed only in the environment), added on the
   * console, or the signed-in member themself when on neither list (a
   * terminal link's session: their access lasts as long as it does).
   */
  source: "bootstrap" | "console" | "session";
  /** Who added them and when (ISO 8601): console members only. */
  addedBy?: string;
  addedAt?: string;
}

/** What managing the staff needs of the app. */
export interface StaffManagementDeps {
  kv: Deno.Kv;
  now: () => Date;
  config: { staff: readonly StaffEntry[] };
}

/**
 * `STAFF`'s entries first (as listed), then the console's members (as
 * added), then `signedIn` if neither lists them (someone signed in by a
 * terminal link), so that whoever looks at the list finds themself on it.
 */
export async function listStaff(
  deps: Pick<StaffManagementDeps, "kv" | "config">,
  { signedIn }: { signedIn?: StaffMember } = {},
): Promise<StaffListEntry[]> {
  const bootstrap: StaffListEntry[] = deps.config.staff.map((entry) => ({
    identity: entry.email ?? `sub:${entry.subject}`,
    role: entry.role,
    source: "bootstrap",
  }));
  const members = await listStaffMembers(deps.kv);
  const listed: StaffListEntry[] = [
    ...bootstrap,
    ...members
      .filter((member) => !isBootstrap(deps.config.staff, member.email))
      .map((member): StaffListEntry => ({
        identity: member.email,
        role: member.role,
        source: "console",
        addedBy: member.addedBy,
        addedAt: member.addedAt,
      })),
  ];
  const identity = signedIn && (signedIn.email || signedIn.id);
  // A `STAFF` entry by subject may be them under another name (`sub:…`):
  // without their session's subject, they are not added twice.
  const bySubject = deps.config.staff.some((entry) => !entry.email);
  if (
    signedIn && identity && !bySubject &&
    !listed.some((entry) =>
      entry.identity === identity || entry.identity === signedIn.id
    )
  ) {
    listed.push({ identity, role: signedIn.role, source: "session" });
  }
  return listed;
}

function isBootstrap(entries: readonly StaffEntry[], email: string): boolean {
  return entries.some((entry) => entry.email === email);
}

/**
 * The admins the staff list keeps for good: `STAFF`'s admin entries (by
 * e-mail or subject: permanent, the console cannot remove them) and the
 * console members with the admin role whom `STAFF` does not list (an entry
 * of `STAFF` wins over their record). Someone signed in by a terminal link
 * and on neither list is an admin only until that session ends, so is not
 * counted.
 */
export function countStaffAdmins(
  entries: readonly StaffEntry[],
  members: readonly StaffMemberRecord[],
): number {
  return entries.filter((entry) => entry.role === "admin").length +
    members.filter((member) =>
      member.role === "admin" && !isBootstrap(entries, member.email)
    ).length;
}

/**
 * Whether the admin `by` is still one with the roster `members`: `STAFF`
 * gives them their role if it lists their address; else their console
 * record does, if they have one; else their role came from `STAFF` by
 * subject or from a terminal link, which the roster cannot change. (An
 * identity `STAFF` lists as an admin by subject whose address the console
 * also lists as a viewer counts as a viewer here: a contradiction the list
 * should not hold.)
 */
function isAdminWith(
  entries: readonly StaffEntry[],
  by: StaffMember,
  members: readonly StaffMemberRecord[],
): boolean {
  if (isBootstrap(entries, by.email)) return true;
  const member = by.email
    ? members.find((member) => member.email === by.email)
    : undefined;
  return member === undefined || member.role === "admin";
}

/**
 * The rule every change of the roster follows, checked in its own
 * transaction: the admin making it is still one on the roster as stored
 * (an admin demoted a moment ago, on any instance, gets the 403 page), and
 * the change leaves an admin: it never takes the last one (by
 * {@linkcode countStaffAdmins}) away, nor the admin's own role when no
 * other is left. So two admins demoting each other at the same moment do
 * not both succeed.
 */
function keepsAnAdmin(
  entries: readonly StaffEntry[],
  by: StaffMember,
): RosterRule {
  return (before, after) => {
    if (!isAdminWith(entries, by, before)) {
      throw new StaffForbiddenError("role");
    }
    if (countStaffAdmins(entries, after) > 0) return;
    if (
      countStaffAdmins(entries, before) > 0 || !isAdminWith(entries, by, after)
    ) {
      throw new StaffChangeError("last_admin");
    }
  };
}

/** A form's e-mail address, trimmed and in lower case; throws `invalid_email`. */
export function parseStaffEmail(value: unknown): string {
  const email = typeof value === "string" ? value.trim().toLowerCase() : "";
  if (!email || email.length > 254 || !isEmailAddress(email)) {
    throw new StaffChangeError("invalid_email");
  }
  return email;
}

/** A form's role; throws `invalid_role`. */
export function parseStaffRole(value: unknown): StaffRole {
  if (!STAFF_ROLES.includes(value as StaffRole)) {
    throw new StaffChangeError("invalid_role");
  }
  return value as StaffRole;
}

/** Runs a roster change, turning its refusal into a {@linkcode StaffChangeError}. */
async function asStaffChange<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof StaffMemberError) {
      throw new StaffChangeError(error.problem);
    }
    throw error;
  }
}

/**
 * `by` adds `email` to the staff with `role` (audited) and gets a
 * single-use sign-in link for them at `baseUrl`, valid 15 minutes, to hand
 * over: nothing is sent. Someone `STAFF` lists is refused (`bootstrap`);
 * so is the admin's own address with the viewer role when no other admin
 * would be left (`last_admin`).
 */
export async function inviteStaffMember(
  deps: StaffManagementDeps,
  { email, role, by, baseUrl }: {
    email: string;
    role: StaffRole;
    by: StaffMember;
    baseUrl: string;
  },
): Promise<{ url: string; expiresAt: Date }> {
  if (isBootstrap(deps.config.staff, email)) {
    throw new StaffChangeError("bootstrap");
  }
  const now = deps.now();
  await asStaffChange(() =>
    addStaffMember(deps.kv, {
      email,
      role,
      by,
      now,
      rule: keepsAnAdmin(deps.config.staff, by),
    })
  );
  return await createStaffSignInLink(deps.kv, { email, role, baseUrl, now });
}

/**
 * `by` gets a new single-use sign-in link for a member added on the
 * console (theirs expired, or was lost), audited; their previous unused
 * link stops working in the same atomic. Throws `missing`.
 */
export async function issueStaffLink(
  deps: StaffManagementDeps,
  { email, by, baseUrl }: { email: string; by: StaffMember; baseUrl: string },
): Promise<{ url: string; expiresAt: Date }> {
  if (isBootstrap(deps.config.staff, email)) {
    throw new StaffChangeError("missing");
  }
  const made = await createStaffMemberLink(deps.kv, {
    email,
    by,
    now: deps.now(),
  });
  if (!made) throw new StaffChangeError("missing");
  return {
    url: new URL(`${STAFF_LINK_PATH}${made.token}`, baseUrl).href,
    expiresAt: made.expiresAt,
  };
}

/**
 * `by` changes a console member's role (audited); it applies at their
 * next request, on any instance. `STAFF`'s entries are refused, and so is
 * a demotion that would leave no admin (`last_admin`); an admin may pass
 * themself to viewer while another admin is left.
 */
export async function changeStaffRole(
  deps: StaffManagementDeps,
  { email, role, by }: { email: string; role: StaffRole; by: StaffMember },
): Promise<void> {
  if (isBootstrap(deps.config.staff, email)) {
    throw new StaffChangeError("bootstrap");
  }
  await asStaffChange(() =>
    changeStaffMemberRole(deps.kv, {
      email,
      role,
      by,
      now: deps.now(),
      rule: keepsAnAdmin(deps.config.staff, by),
    })
  );
}

/**
 * `by` removes a console member (audited): every session of theirs ends at
 * once (each audited as `access_removed`), on every instance, and their
 * unused sign-in links stop working. `STAFF`'s entries, the admin
 * themself and the last admin are refused.
 */
export async function removeStaff(
  deps: StaffManagementDeps,
  { email, by }: { email: string; by: StaffMember },
): Promise<void> {
  if (isBootstrap(deps.config.staff, email)) {
    throw new StaffChangeError("bootstrap");
  }
  if (email === by.email) throw new StaffChangeError("self");
  const now = deps.now();
  await asStaffChange(() =>
    deleteStaffMember(deps.kv, {
      email,
      by,
      now,
      rule: keepsAnAdmin(deps.config.staff, by),
    })
  );
  // The guard already refuses them (not listed any more, once `STAFF` is
  // set); their sessions are deleted too, so that without `STAFF` a link's
  // session is not taken for the operator's own.
  await deleteStaffLinksOf(deps.kv, { staffId: email });
  await removeStaffMemberSessions(deps.kv, { staffId: email, now });
}

/**
 * The refusals {@linkcode removeStaff} would give, in its order, without
 * changing anything: for the confirmation step, so that it never asks to
 * confirm a removal that would be refused. The removal checks again in its
 * own transaction.
 */
export async function checkStaffRemoval(
  deps: Pick<StaffManagementDeps, "kv" | "config">,
  { email, by }: { email: string; by: StaffMember },
): Promise<void> {
  if (isBootstrap(deps.config.staff, email)) {
    throw new StaffChangeError("bootstrap");
  }
  if (email === by.email) throw new StaffChangeError("self");
  const before = await listStaffMembers(deps.kv);
  if (!before.some((member) => member.email === email)) {
    throw new StaffChangeError("missing");
  }
  keepsAnAdmin(deps.config.staff, by)(
    before,
    before.filter((member) => member.email !== email),
  );
}
