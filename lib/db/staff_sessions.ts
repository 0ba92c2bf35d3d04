/**
 * Staff sessions and single-use staff sign-in links, in KV apart from the
 * tourists' sessions and passports. As with tourists' sessions, the cookie
 * and the link hold only a random id; KV keeps their SHA-256, so a copy of
 * the database opens nothing.
 */
import type { StaffMember, StaffRole } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys, LIFETIMES } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { generateSessionId, getSessionHandle } from "./sessions.ts";
import { type StaffMemberRecord, toStaffMembers } from "./staff_members.ts";

/** How a staff member signed in: a link from `deno task staff-link`, or the identity provider. */
export type StaffSignInMethod = "link" | "provider";

/** A staff session as KV keeps it. */
export interface StaffSession {
  /** base64url of the SHA-256 of the cookie's id. */
  handle: string;
  /**
   * A random id that names the session on the console's sessions page (to
   * end it); unlike the handle, nothing derived from the cookie.
   */
  ref: string;
  /**
   * The member as they signed in; their role on each request comes from
   * the configuration (lib/staff/guard.ts), not from here.
   */
  staff: StaffMember;
  method: StaffSignInMethod;
  /** The provider's subject of a provider sign-in: `STAFF` is checked against it again on every request. */
  subject?: string;
  /** ISO 8601. */
  createdAt: string;
  /** Epoch milliseconds of the last request that used it (written at most once per {@linkcode STAFF_SEEN_WRITE_MS}). */
  lastSeenAt: number;
}

/** A staff sign-in link not yet used, kept under the SHA-256 of its token. */
export interface StaffLink {
  staff: StaffMember;
  /** ISO 8601. */
  createdAt: string;
  /** Epoch milliseconds; the link is refused from then on. */
  expiresAt: number;
}

/**
 * What reading a staff cookie found; with a session, the staff added on the
 * console as they are now (read in the same `getMany`).
 */
export type StaffSessionLookup =
  | { status: "live"; session: StaffSession; members: StaffMemberRecord[] }
  /**
   * The session existed but was idle too long or is too old: back to the
   * sign-in, once its member is checked against the staff list as it is now.
   */
  | {
    status: "expired";
    session: StaffSession;
    members: StaffMemberRecord[];
  }
  /** No such session (never was, signed out, tampered): a stranger. */
  | { status: "none" };

/** A staff session ends after this long without a request. */
export const STAFF_IDLE_MS = LIFETIMES.staffIdleMs;
/** A staff session ends this long after its sign-in, however busy: 12 hours. */
export const STAFF_MAX_AGE_MS = 12 * 60 * 60 * 1000;
/** `lastSeenAt` is rewritten at most this often, so most reads cost one KV read. */
export const STAFF_SEEN_WRITE_MS = 60 * 1000;
/**
 * How long KV keeps a session past its idle expiry: long enough to tell a
 * staff member whose session ran out (sent to the sign-in) from a stranger
 * (404).
 */
export const STAFF_EXPIRED_KEPT_MS = LIFETIMES.staffExpiredKeptMs;
/** How long a staff sign-in link is valid. */
export const STAFF_LINK_TTL_MS = LIFETIMES.staffLinkMs;

/** Cookie ids and link tokens: base64url of 256 random bits. */
const RANDOM_ID = /^[A-Za-z0-9_-]{43}$/;

/** Whether `value` has the shape of a staff cookie id or link token (checked before any lookup). */
export function isRandomId(value: string): boolean {
  return RANDOM_ID.test(value);
}

/**
 * Stores a new single-use sign-in link for `staff`, valid
 * {@linkcode STAFF_LINK_TTL_MS}, and returns its token (the only copy). The
 * member's previous unused link, if any, stops working in the same atomic:
 * each person has one link at a time, the newest.
 */
export async function createStaffLink(
  kv: Deno.Kv,
  { staff, now }: { staff: StaffMember; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  return await runTransaction(() => attemptStaffLink(kv, { staff, now }));
}

/**
 * A new sign-in link for the console member `email` (**Enlace nuevo**), with
 * the role the roster gives them now, audited as `staff_link_issued` by
 * `by`: the roster is checked, their older unused link ended, the new one
 * stored and the action recorded in one atomic. `null` when the roster no
 * longer has them.
 */
export async function createStaffMemberLink(
  kv: Deno.Kv,
  { email, by, now }: { email: string; by: StaffMember; now: Date },
): Promise<{ token: string; expiresAt: Date; role: StaffRole } | null> {
  return await runTransaction(async () => {
    const roster = await kv.get(keys.staffMembers());
    const member = toStaffMembers(roster.value).find((m) => m.email === email);
    if (!member) return null;
    const made = await attemptStaffLink(kv, {
      staff: { id: email, email, role: member.role },
      now,
      also: (operation) => {
        operation.check(roster);
        addStaffActionTo(operation, {
          staff: by,
          action: "staff_link_issued",
          target: email,
          at: now,
        });
      },
    });
    return made === CONFLICT ? CONFLICT : { ...made, role: member.role };
  });
}

/**
 * One attempt at storing a link for `staff`: the index of their newest
 * link is checked, the link it names deleted, the new link and the index
 * written, with `also`'s checks and writes, in one atomic.
 */
async function attemptStaffLink(
  kv: Deno.Kv,
  { staff, now, also }: {
    staff: StaffMember;
    now: Date;
    also?: (operation: Deno.AtomicOperation) => void;
  },
): Promise<{ token: string; expiresAt: Date } | typeof CONFLICT> {
  const indexKey = keys.staffLinkByStaff(staff.id);
  const index = await kv.get<string>(indexKey);
  const token = generateSessionId();
  const hash = await getSessionHandle(token);
  const key = keys.staffLink(hash);
  const link: StaffLink = {
    staff,
    createdAt: now.toISOString(),
    expiresAt: now.getTime() + STAFF_LINK_TTL_MS,
  };
  const operation = kv.atomic().check(index).check({ key, versionstamp: null });
  if (typeof index.value === "string") {
    operation.delete(keys.staffLink(index.value));
  }
  operation
    .set(key, link, { expireIn: STAFF_LINK_TTL_MS })
    .set(indexKey, hash, { expireIn: STAFF_LINK_TTL_MS });
  also?.(operation);
  const result = await commit(operation);
  return result.ok ? { token, expiresAt: new Date(link.expiresAt) } : CONFLICT;
}

/**
 * Redeems a sign-in link: in one atomic, the link is deleted, a staff
 * session under a new random id is stored and the sign-in is audited, so
 * a replayed or raced link opens at most one session. Unknown, used,
 * expired or malformed: `null`.
 */
export async function redeemStaffLink(
  kv: Deno.Kv,
  { token, now }: { token: string; now: Date },
): Promise<{ sessionId: string; session: StaffSession } | null> {
  if (!isRandomId(token)) return null;
  const linkKey = keys.staffLink(await getSessionHandle(token));
  return await runTransaction(async () => {
    const entry = await kv.get<StaffLink>(linkKey);
    if (!entry.value) return null;
    if (entry.value.expiresAt <= now.getTime()) {
      // Stale: gone for good, whatever KV's own expiry does.
      const result = await commit(kv.atomic().check(entry).delete(linkKey));
      return result.ok ? null : CONFLICT;
    }
    const { sessionId, session, key } = await newSession(
      entry.value.staff,
      now,
      { method: "link" },
    );
    const operation = kv.atomic().check(entry).delete(linkKey)
      .check({ key, versionstamp: null })
      .set(key, session, { expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS });
    // The member's index of their newest link goes with it, if it names it.
    const indexKey = keys.staffLinkByStaff(entry.value.staff.id);
    const index = await kv.get<string>(indexKey);
    if (index.value === linkKey[1]) operation.check(index).delete(indexKey);
    addStaffActionTo(operation, {
      staff: session.staff,
      action: "signin",
      method: "link",
      at: now,
    });
    const result = await commit(operation);
    return result.ok ? { sessionId, session } : CONFLICT;
  });
}

/**
 * Opens a staff session for a member already vouched for (the identity
 * provider's sign-in against `STAFF`, with its `subject`; `link` for one
 * the operator vouched for, as a link does) and audits the sign-in, in one
 * atomic.
 */
export async function createStaffSession(
  kv: Deno.Kv,
  { staff, now, method = "link", subject }: {
    staff: StaffMember;
    now: Date;
    method?: StaffSignInMethod;
    subject?: string;
  },
): Promise<{ sessionId: string; session: StaffSession }> {
  return await runTransaction(async () => {
    const { sessionId, session, key } = await newSession(staff, now, {
      method,
      subject,
    });
    const operation = kv.atomic().check({ key, versionstamp: null })
      .set(key, session, { expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS });
    addStaffActionTo(operation, { staff, action: "signin", method, at: now });
    const result = await commit(operation);
    return result.ok ? { sessionId, session } : CONFLICT;
  });
}

async function newSession(
  staff: StaffMember,
  now: Date,
  { method, subject }: { method: StaffSignInMethod; subject?: string },
) {
  const sessionId = generateSessionId();
  const handle = await getSessionHandle(sessionId);
  const session: StaffSession = {
    handle,
    ref: crypto.randomUUID(),
    staff,
    method,
    ...(subject !== undefined ? { subject } : {}),
    createdAt: now.toISOString(),
    lastSeenAt: now.getTime(),
  };
  return { sessionId, session, key: keys.staffSession(handle) };
}

/**
 * Reads the staff session a cookie names and slides its idle expiry: the
 * new `lastSeenAt` is written only when the stored one is at least
 * {@linkcode STAFF_SEEN_WRITE_MS} old, and a lost race to write it is
 * ignored (another request of the same session just wrote it). Idle for
 * {@linkcode STAFF_IDLE_MS} or signed in {@linkcode STAFF_MAX_AGE_MS} ago:
 * expired. So is a session stored before sessions had a `ref` and a
 * sign-in method: its member signs in again. The session and the roster
 * of console members are one KV read (`getMany`).
 */
export async function touchStaffSession(
  kv: Deno.Kv,
  { sessionId, now }: { sessionId: string; now: Date },
): Promise<StaffSessionLookup> {
  if (!isRandomId(sessionId)) return { status: "none" };
  const key = keys.staffSession(await getSessionHandle(sessionId));
  const [entry, roster] = await kv.getMany<[StaffSession, unknown]>([
    key,
    keys.staffMembers(),
  ]);
  if (!entry.value) return { status: "none" };
  const members = toStaffMembers(roster.value);
  if (!entry.value.ref || !entry.value.method) {
    return { status: "expired", session: entry.value, members };
  }
  const at = now.getTime();
  if (isStaffSessionOver(entry.value, now)) {
    return { status: "expired", session: entry.value, members };
  }
  if (at - entry.value.lastSeenAt >= STAFF_SEEN_WRITE_MS) {
    const session = { ...entry.value, lastSeenAt: at };
    await commit(
      kv.atomic().check(entry).set(key, session, {
        expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS,
      }),
    );
    return { status: "live", session, members };
  }
  return { status: "live", session: entry.value, members };
}

/**
 * Until when KV keeps `session` (its last write, idle expiry and
 * {@linkcode STAFF_EXPIRED_KEPT_MS}): the staff cookie lasts as long, so a
 * browser reopened after its session ran out is told so rather than shown
 * a 404.
 */
export function getStaffSessionKeptUntil(
  session: Pick<StaffSession, "lastSeenAt">,
): Date {
  return new Date(session.lastSeenAt + STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS);
}

/** Whether a session has been idle too long or lived its whole life. */
function isStaffSessionOver(session: StaffSession, now: Date): boolean {
  const at = now.getTime();
  return at - session.lastSeenAt >= STAFF_IDLE_MS ||
    at - Date.parse(session.createdAt) >= STAFF_MAX_AGE_MS;
}

/**
 * Ends a staff session (sign-out) and audits it, in one atomic; an unknown
 * or already ended session changes nothing. Returns whether one ended.
 */
export async function deleteStaffSession(
  kv: Deno.Kv,
  { sessionId, now }: { sessionId: string; now: Date },
): Promise<boolean> {
  if (!isRandomId(sessionId)) return false;
  const key = keys.staffSession(await getSessionHandle(sessionId));
  return await endStaffSessionAt(kv, key, {
    now,
    audit: (session) => ({ staff: session.staff, action: "signout" }),
  });
}

/**
 * Ends a session whose member is no longer on the staff (removed from
 * `STAFF`), audited as `access_removed` under their name as they were;
 * called by the guard on the request that finds it.
 */
export async function removeStaffSession(
  kv: Deno.Kv,
  { session, now }: { session: StaffSession; now: Date },
): Promise<void> {
  await endStaffSessionAt(kv, keys.staffSession(session.handle), {
    now,
    audit: (ended) => ({ staff: ended.staff, action: "access_removed" }),
  });
}

/** A live staff session as the console lists it: never its id or handle. */
export interface StaffSessionSummary {
  ref: string;
  staff: StaffMember;
  method: StaffSignInMethod;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601 (to the minute: see {@linkcode STAFF_SEEN_WRITE_MS}). */
  lastSeenAt: string;
  /** ISO 8601: when it ends at the latest, whatever its use. */
  endsAt: string;
}

/**
 * Every live staff session (neither idle too long nor too old), the most
 * recently used first. Staff are few: one list of the family.
 */
export async function listStaffSessions(
  kv: Deno.Kv,
  { now }: { now: Date },
): Promise<StaffSessionSummary[]> {
  const found: StaffSessionSummary[] = [];
  for await (
    const { value } of kv.list<StaffSession>({
      prefix: keys.staffSessions(),
    })
  ) {
    if (!value?.ref || !value.method || isStaffSessionOver(value, now)) {
      continue;
    }
    found.push({
      ref: value.ref,
      staff: value.staff,
      method: value.method,
      createdAt: value.createdAt,
      lastSeenAt: new Date(value.lastSeenAt).toISOString(),
      endsAt: new Date(
        Math.min(
          Date.parse(value.createdAt) + STAFF_MAX_AGE_MS,
          value.lastSeenAt + STAFF_IDLE_MS,
        ),
      ).toISOString(),
    });
  }
  return found.sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
}

/**
 * An admin (`by`) ends the session `ref` names, audited as
 * `session_ended` with the member whose it was as its target, in one
 * atomic; its next request, on any instance, is a stranger's. Returns the
 * member, or null when no such session is live.
 */
export async function endStaffSession(
  kv: Deno.Kv,
  { ref, by, now }: { ref: string; by: StaffMember; now: Date },
): Promise<StaffMember | null> {
  for await (
    const entry of kv.list<StaffSession>({ prefix: keys.staffSessions() })
  ) {
    if (entry.value?.ref !== ref) continue;
    const member = entry.value.staff;
    const ended = await endStaffSessionAt(kv, entry.key, {
      now,
      audit: () => ({
        staff: by,
        action: "session_ended",
        target: member.email || member.id,
      }),
    });
    return ended ? member : null;
  }
  return null;
}

/**
 * Ends every session of the member `staffId` (`deno task staff-link
 * --revoke`), each audited as `access_removed`. Returns how many ended.
 */
export async function removeStaffMemberSessions(
  kv: Deno.Kv,
  { staffId, now }: { staffId: string; now: Date },
): Promise<number> {
  let count = 0;
  for await (
    const entry of kv.list<StaffSession>({ prefix: keys.staffSessions() })
  ) {
    if (entry.value?.staff.id !== staffId) continue;
    const ended = await endStaffSessionAt(kv, entry.key, {
      now,
      audit: (session) => ({ staff: session.staff, action: "access_removed" }),
    });
    if (ended) count++;
  }
  return count;
}

/**
 * Deletes every unused sign-in link made for the member `staffId` (a
 * member removed on the console: a link handed over before cannot open a
 * session after), with the index of their newest, in one atomic. Returns
 * how many.
 */
export async function deleteStaffLinksOf(
  kv: Deno.Kv,
  { staffId }: { staffId: string },
): Promise<number> {
  return await runTransaction(async () => {
    const indexKey = keys.staffLinkByStaff(staffId);
    const operation = kv.atomic().check(await kv.get(indexKey))
      .delete(indexKey);
    let count = 0;
    for await (
      const entry of kv.list<StaffLink>({ prefix: keys.staffLinks() })
    ) {
      if (entry.value?.staff.id !== staffId) continue;
      operation.check(entry).delete(entry.key);
      count++;
    }
    const result = await commit(operation);
    return result.ok ? count : CONFLICT;
  });
}

/** Deletes the session at `key` with its audit entry, in one atomic; false when it is gone. */
async function endStaffSessionAt(
  kv: Deno.Kv,
  key: Deno.KvKey,
  { now, audit }: {
    now: Date;
    audit: (
      session: StaffSession,
    ) => Omit<Parameters<typeof addStaffActionTo>[1], "at">;
  },
): Promise<boolean> {
  return await runTransaction(async () => {
    const entry = await kv.get<StaffSession>(key);
    if (!entry.value) return false;
    const operation = kv.atomic().check(entry).delete(key);
    addStaffActionTo(operation, { ...audit(entry.value), at: now });
    const result = await commit(operation);
    return result.ok ? true : CONFLICT;
  });
}
