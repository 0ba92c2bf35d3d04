/**
 * Staff sessions and single-use staff sign-in links, in KV apart from the
 * tourists' sessions and passports. As with tourists' sessions, the cookie
 * and the link hold only a random id; KV keeps their SHA-256, so a copy of
 * the database opens nothing.
 */
import type { StaffMember } from "@/lib/staff/types.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { generateSessionId, getSessionHandle } from "./sessions.ts";

/** A staff session as KV keeps it. */
export interface StaffSession {
  /** base64url of the SHA-256 of the cookie's id. */
  handle: string;
  staff: StaffMember;
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

/** What reading a staff cookie found. */
export type StaffSessionLookup =
  | { status: "live"; session: StaffSession }
  /** The session existed but has been idle too long: back to the sign-in. */
  | { status: "expired" }
  /** No such session (never was, signed out, tampered): a stranger. */
  | { status: "none" };

/** A staff session ends after this long without a request. */
export const STAFF_IDLE_MS = 8 * 60 * 60 * 1000;
/** `lastSeenAt` is rewritten at most this often, so most reads cost one KV read. */
export const STAFF_SEEN_WRITE_MS = 60 * 1000;
/**
 * How long KV keeps a session past its idle expiry: long enough to tell a
 * staff member whose session ran out (sent to the sign-in) from a stranger
 * (404).
 */
export const STAFF_EXPIRED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a staff sign-in link is valid. */
export const STAFF_LINK_TTL_MS = 15 * 60 * 1000;

/** Cookie ids and link tokens: base64url of 256 random bits. */
const RANDOM_ID = /^[A-Za-z0-9_-]{43}$/;

/** Whether `value` has the shape of a staff cookie id or link token (checked before any lookup). */
export function isRandomId(value: string): boolean {
  return RANDOM_ID.test(value);
}

/**
 * Stores a new single-use sign-in link for `staff`, valid
 * {@linkcode STAFF_LINK_TTL_MS}, and returns its token (the only copy).
 */
export async function createStaffLink(
  kv: Deno.Kv,
  { staff, now }: { staff: StaffMember; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  return await runTransaction(async () => {
    const token = generateSessionId();
    const key = keys.staffLink(await getSessionHandle(token));
    const link: StaffLink = {
      staff,
      createdAt: now.toISOString(),
      expiresAt: now.getTime() + STAFF_LINK_TTL_MS,
    };
    const result = await commit(
      kv.atomic().check({ key, versionstamp: null }).set(key, link, {
        expireIn: STAFF_LINK_TTL_MS,
      }),
    );
    return result.ok
      ? { token, expiresAt: new Date(link.expiresAt) }
      : CONFLICT;
  });
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
    );
    const operation = kv.atomic().check(entry).delete(linkKey)
      .check({ key, versionstamp: null })
      .set(key, session, { expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS });
    addStaffActionTo(operation, {
      staff: session.staff,
      action: "signin",
      at: now,
    });
    const result = await commit(operation);
    return result.ok ? { sessionId, session } : CONFLICT;
  });
}

/**
 * Opens a staff session for a member already vouched for (the identity
 * provider's sign-in against `STAFF`) and audits the sign-in, in one atomic.
 */
export async function createStaffSession(
  kv: Deno.Kv,
  { staff, now }: { staff: StaffMember; now: Date },
): Promise<{ sessionId: string; session: StaffSession }> {
  return await runTransaction(async () => {
    const { sessionId, session, key } = await newSession(staff, now);
    const operation = kv.atomic().check({ key, versionstamp: null })
      .set(key, session, { expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS });
    addStaffActionTo(operation, { staff, action: "signin", at: now });
    const result = await commit(operation);
    return result.ok ? { sessionId, session } : CONFLICT;
  });
}

async function newSession(staff: StaffMember, now: Date) {
  const sessionId = generateSessionId();
  const handle = await getSessionHandle(sessionId);
  const session: StaffSession = {
    handle,
    staff,
    createdAt: now.toISOString(),
    lastSeenAt: now.getTime(),
  };
  return { sessionId, session, key: keys.staffSession(handle) };
}

/**
 * Reads the staff session a cookie names and slides its idle expiry: the
 * new `lastSeenAt` is written only when the stored one is at least
 * {@linkcode STAFF_SEEN_WRITE_MS} old, and a lost race to write it is
 * ignored (another request of the same session just wrote it).
 */
export async function touchStaffSession(
  kv: Deno.Kv,
  { sessionId, now }: { sessionId: string; now: Date },
): Promise<StaffSessionLookup> {
  if (!isRandomId(sessionId)) return { status: "none" };
  const key = keys.staffSession(await getSessionHandle(sessionId));
  const entry = await kv.get<StaffSession>(key);
  if (!entry.value) return { status: "none" };
  const at = now.getTime();
  if (at - entry.value.lastSeenAt >= STAFF_IDLE_MS) {
    return { status: "expired" };
  }
  if (at - entry.value.lastSeenAt >= STAFF_SEEN_WRITE_MS) {
    const session = { ...entry.value, lastSeenAt: at };
    await commit(
      kv.atomic().check(entry).set(key, session, {
        expireIn: STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS,
      }),
    );
    return { status: "live", session };
  }
  return { status: "live", session: entry.value };
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
  return await runTransaction(async () => {
    const entry = await kv.get<StaffSession>(key);
    if (!entry.value) return false;
    const operation = kv.atomic().check(entry).delete(key);
    addStaffActionTo(operation, {
      staff: entry.value.staff,
      action: "signout",
      at: now,
    });
    const result = await commit(operation);
    return result.ok ? true : CONFLICT;
  });
}
