/**
 * How staff get into the console: a single-use link from
 * `deno task staff-link` (any set-up, the only way without an identity
 * provider), or the portal's OIDC provider for identities listed in
 * `STAFF`. Both end in a staff session, audited as a sign-in.
 */
import type { StaffEntry } from "@/lib/config/config.ts";
import {
  createStaffLink,
  createStaffSession,
  deleteStaffSession,
  redeemStaffLink,
  type StaffSession,
} from "@/lib/db/staff_sessions.ts";
import {
  listStaffMembers,
  type StaffMemberRecord,
} from "@/lib/db/staff_members.ts";
import type { StaffMember, StaffRole } from "@/lib/types/staff.ts";

/** Where a staff sign-in link leads; its token follows. Outside `/panel`, which strangers never see. */
export const STAFF_LINK_PATH = "/auth/personal/";

/** Where a staff member lands after signing in. */
export const PANEL_HOME = "/panel";

/**
 * Creates a single-use sign-in link for `email` with `role`, valid 15
 * minutes, at `baseUrl` (the portal's public origin). Only the hash of its
 * token is stored.
 */
export async function createStaffSignInLink(
  kv: Deno.Kv,
  { email, role, baseUrl, now }: {
    email: string;
    role: StaffRole;
    baseUrl: string;
    now: Date;
  },
): Promise<{ url: string; expiresAt: Date }> {
  const address = email.trim().toLowerCase();
  const staff: StaffMember = { id: address, email: address, role };
  const { token, expiresAt } = await createStaffLink(kv, { staff, now });
  return {
    url: new URL(`${STAFF_LINK_PATH}${token}`, baseUrl).href,
    expiresAt,
  };
}

/**
 * Opens a staff session from a link's token (consumed at once, audited);
 * `null` for a link that is unknown, already used or expired.
 */
export async function signInWithStaffLink(
  { kv, now }: { kv: Deno.Kv; now: () => Date },
  token: string,
): Promise<{ sessionId: string; session: StaffSession } | null> {
  return await redeemStaffLink(kv, { token, now: now() });
}

/**
 * The staff member an identity provider's identity is, by `STAFF`: a
 * subject entry first (it cannot change hands), else the verified e-mail
 * address; `null` when not listed.
 */
export function findStaffMember(
  entries: readonly StaffEntry[],
  identity: { subject: string; email: string | null },
): StaffMember | null {
  const bySubject = entries.find((entry) => entry.subject === identity.subject);
  const byEmail = identity.email === null
    ? undefined
    : entries.find((entry) => entry.email === identity.email);
  const entry = bySubject ?? byEmail;
  if (!entry) return null;
  return {
    id: identity.email ?? `sub:${identity.subject}`,
    email: identity.email ?? "",
    role: entry.role,
  };
}

/**
 * Who a staff session's holder is now, by the staff list of this very
 * request: `STAFF` (the bootstrap) and the members added on the console
 * (`members`, read with the session). An entry of `STAFF` that lists them
 * (by the provider's subject, else the e-mail address) gives its role,
 * whatever role they signed in with; else a console member's record gives
 * theirs. Neither lists them: `null`, unless `STAFF` is empty (no identity
 * provider), where a link's member is as the link made them: an operator
 * ends their access with `deno task staff-link --revoke`, an admin on the
 * console's sessions page.
 */
export function getCurrentStaffMember(
  entries: readonly StaffEntry[],
  session: Pick<StaffSession, "staff" | "method" | "subject">,
  members: readonly StaffMemberRecord[] = [],
): StaffMember | null {
  const { subject, staff } = session;
  const entry =
    (subject === undefined
      ? undefined
      : entries.find((entry) => entry.subject === subject)) ??
      (staff.email
        ? entries.find((entry) => entry.email === staff.email)
        : undefined);
  if (entry) return { ...staff, role: entry.role };
  const member = staff.email
    ? members.find((member) => member.email === staff.email)
    : undefined;
  if (member) return { ...staff, role: member.role };
  if (session.method === "link" && entries.length === 0) return session.staff;
  return null;
}

/**
 * Opens a staff session for an identity the provider vouched for, if
 * `STAFF` lists it, or the console added its verified e-mail address;
 * `null` (no session) otherwise.
 */
export async function signInStaffIdentity(
  { kv, now, config }: {
    kv: Deno.Kv;
    now: () => Date;
    config: { staff: readonly StaffEntry[] };
  },
  identity: { subject: string; email: string | null },
): Promise<{ sessionId: string; session: StaffSession } | null> {
  let staff = findStaffMember(config.staff, identity);
  if (!staff && identity.email) {
    const member = (await listStaffMembers(kv)).find((member) =>
      member.email === identity.email
    );
    if (member) {
      staff = { id: member.email, email: member.email, role: member.role };
    }
  }
  if (!staff) return null;
  return await createStaffSession(kv, {
    staff,
    now: now(),
    method: "provider",
    subject: identity.subject,
  });
}

/** Ends a staff session and audits the sign-out; nothing for an unknown one. */
export async function signOutStaff(
  { kv, now }: { kv: Deno.Kv; now: () => Date },
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId) await deleteStaffSession(kv, { sessionId, now: now() });
}
