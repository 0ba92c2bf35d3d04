import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import type { Session } from "@/lib/types/user.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { countPassportOpened, DEFAULT_TIME_ZONE } from "./stats.ts";
import { addFirstUseTo, getUseDay } from "./passport_activity.ts";
import { getErasedUserKey } from "./erased_users.ts";

/** A tourist's browser session; the type lives in lib/types (the HTTP layer names it too). */
export type { Session };

/** A sign-in in progress, kept under its `state` until the provider redirects back. */
export interface OAuthFlow {
  /** The PKCE verifier whose S256 challenge went to the provider. */
  codeVerifier: string;
  nonce: string;
  /** A same-site path to return to after sign-in. */
  next: string;
  /** A staff member signing in to the panel (a staff session, no passport); absent for a tourist. */
  purpose?: "staff";
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A user of the service, created at their first sign-in with a provider identity. */
export interface IdentityUser {
  userId: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Session ids and OAuth `state` values: base64url of 256 random bits. */
const RANDOM_ID = /^[A-Za-z0-9_-]{43}$/;
/** Accepted `state` values: what oauth4webapi generates, and a bit of room. */
const STATE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The handle a session is kept under: base64url of the SHA-256 of its id. */
export async function getSessionHandle(sessionId: string): Promise<string> {
  return await sha256Base64Url(sessionId);
}

/** A random, unguessable 256-bit id in base64url: the only thing a session cookie holds. */
export function generateSessionId(): string {
  return crypto.getRandomValues(new Uint8Array(32)).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });
}

/**
 * Creates a session under a NEW random id, never one the browser sent, so
 * that an id planted before sign-in (session fixation) never becomes valid.
 * Kept with `expireIn` so KV drops it by itself; its expiry is also checked on read.
 * A guest session is a passport opened: the dashboard counts it in the same atomic.
 */
export async function createSession(
  kv: Deno.Kv,
  { userId, name, now, ttlMs, guest = false, timeZone = DEFAULT_TIME_ZONE }: {
    userId: string;
    name: string | null;
    now: Date;
    ttlMs: number;
    /** A guest passport rather than a signed-in account. */
    guest?: boolean;
    /** The municipality's time zone: whose day a guest passport is counted in. */
    timeZone?: string;
  },
): Promise<{ sessionId: string; session: Session }> {
  return await runTransaction(async () => {
    const sessionId = generateSessionId();
    const session: Session = {
      handle: await getSessionHandle(sessionId),
      userId,
      name,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
      ...(guest ? { guest: true } : {}),
      lastSeenDay: getUseDay(now),
    };
    const key = keys.session(session.handle);
    const operation = kv.atomic().check({ key, versionstamp: null }).set(
      key,
      session,
      { expireIn: ttlMs },
    ).set(keys.sessionByUser(userId, session.handle), session.handle, {
      expireIn: ttlMs,
    });
    if (guest) {
      countPassportOpened(operation, { kind: "guest", at: now, timeZone });
    }
    // Its first use (a guest's indexed for the retention rule).
    addFirstUseTo(operation, { userId, guest, day: session.lastSeenDay! });
    const result = await commit(operation);
    return result.ok ? { sessionId, session } : CONFLICT;
  });
}

/**
 * Reads a live session. A malformed id (a tampered cookie) is not looked up;
 * an expired session is `null` even before KV has dropped it.
 */
export async function getSession(
  kv: Deno.Kv,
  sessionId: string,
  now: Date,
): Promise<Session | null> {
  if (!RANDOM_ID.test(sessionId)) return null;
  return await getSessionByHandle(kv, await getSessionHandle(sessionId), now);
}

/** Reads a live session by its handle (the `sid` of a page token). */
export async function getSessionByHandle(
  kv: Deno.Kv,
  handle: string,
  now: Date,
): Promise<Session | null> {
  if (!RANDOM_ID.test(handle)) return null;
  const session = (await kv.get<Session>(keys.session(handle))).value;
  if (!session || Date.parse(session.expiresAt) <= now.getTime()) return null;
  return session;
}

/**
 * What a bearer token's user and session are now, in one read: whether the
 * user id was erased (lib/db/erased_users.ts), and, with `sessionHandle`
 * (a page token's `sid`), whether that session is live.
 */
export async function getTokenStanding(
  kv: Deno.Kv,
  { userId, sessionHandle, now }: {
    userId: string;
    sessionHandle?: string;
    now: Date;
  },
): Promise<{ erased: boolean; sessionLive: boolean }> {
  const erasedKey = await getErasedUserKey(userId);
  const withSession = sessionHandle !== undefined &&
    RANDOM_ID.test(sessionHandle);
  if (!withSession) {
    return {
      erased: (await kv.get(erasedKey)).value !== null,
      sessionLive: false,
    };
  }
  const [erased, session] = await kv.getMany<[unknown, Session]>([
    erasedKey,
    keys.session(sessionHandle),
  ]);
  return {
    erased: erased.value !== null,
    sessionLive: session.value !== null &&
      Date.parse(session.value.expiresAt) > now.getTime(),
  };
}

/** Deletes a session (sign-out) and its index entry; deleting an unknown id is a no-op. */
export async function deleteSession(
  kv: Deno.Kv,
  sessionId: string,
): Promise<void> {
  if (!RANDOM_ID.test(sessionId)) return;
  await deleteSessionByHandle(kv, await getSessionHandle(sessionId));
}

/** Deletes a session by its handle, with its entry in the user's index. */
export async function deleteSessionByHandle(
  kv: Deno.Kv,
  handle: string,
): Promise<void> {
  const session = await kv.get<Session>(keys.session(handle));
  const operation = kv.atomic().delete(keys.session(handle));
  if (session.value?.userId) {
    operation.delete(keys.sessionByUser(session.value.userId, handle));
  }
  await commit(operation);
}

/** What an export shows of a session: when, never its id or handle. */
export interface SessionSummary {
  createdAt: string;
  expiresAt: string;
  /** The last day it was used (`YYYY-MM-DD`), or null before its first use. */
  lastSeenDay: string | null;
  guest: boolean;
}

/**
 * A user's sessions (found by the `sessions_by_user` index), oldest first;
 * live or expired but not yet dropped by KV.
 */
export async function listSessionsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<Session[]> {
  const handles: string[] = [];
  for await (
    const entry of kv.list<string>({ prefix: keys.sessionsByUser(userId) })
  ) {
    handles.push(entry.key.at(-1) as string);
  }
  const sessions: Session[] = [];
  for (let i = 0; i < handles.length; i += 10) {
    const entries = await kv.getMany<Session[]>(
      handles.slice(i, i + 10).map((handle) => keys.session(handle)),
    );
    for (const entry of entries) {
      if (entry.value?.userId === userId) sessions.push(entry.value);
    }
  }
  return sessions.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Deletes every session of a user and the index (signs every device out).
 * Returns how many sessions there were.
 */
export async function deleteSessionsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<number> {
  let count = 0;
  for await (
    const entry of kv.list<string>({ prefix: keys.sessionsByUser(userId) })
  ) {
    const handle = entry.key.at(-1) as string;
    await commit(
      kv.atomic().delete(keys.session(handle)).delete(entry.key),
    );
    count++;
  }
  return count;
}

/** An identity link of a user: the provider (issuer) and the subject there. */
export interface IdentityLink {
  issuer: string;
  subject: string;
  /** ISO 8601: the first sign-in with it. */
  createdAt: string;
}

/** A user's identity links (the `identities_by_user` index). */
export async function listIdentitiesOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<IdentityLink[]> {
  const links: IdentityLink[] = [];
  for await (
    const entry of kv.list<IdentityLink>({
      prefix: keys.identitiesOfUser(userId),
    })
  ) {
    links.push(entry.value);
  }
  return links;
}

/**
 * Deletes a user's identity links both ways: a later sign-in with the same
 * provider account opens a new, empty passport.
 */
export async function deleteIdentitiesOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<void> {
  for (const link of await listIdentitiesOfUser(kv, userId)) {
    await runTransaction(async () => {
      const forward = await kv.get<IdentityUser>(
        keys.userByIdentity(link.issuer, link.subject),
      );
      const operation = kv.atomic().check(forward).delete(
        keys.identityOfUser(userId, link.issuer, link.subject),
      );
      if (forward.value?.userId === userId) {
        operation.delete(keys.userByIdentity(link.issuer, link.subject));
      }
      return (await commit(operation)).ok ? undefined : CONFLICT;
    });
  }
}

/** Stores a sign-in in progress under its `state`, once, for `ttlMs`. */
export async function saveOAuthFlow(
  kv: Deno.Kv,
  state: string,
  flow: OAuthFlow,
  { ttlMs }: { ttlMs: number },
): Promise<void> {
  if (!STATE_PATTERN.test(state)) throw new Error("Malformed OAuth state");
  const key = keys.oauthFlow(state);
  // A commit refused by a busy KV file is retried; a state taken is an error.
  await runTransaction(async () => {
    const existing = await kv.get(key);
    if (existing.value !== null) throw new Error("OAuth state collision");
    const result = await commit(
      kv.atomic().check(existing).set(key, flow, { expireIn: ttlMs }),
    );
    return result.ok ? undefined : CONFLICT;
  });
}

/**
 * Takes the sign-in stored under `state` and deletes it in one atomic step,
 * so a callback replayed (or raced) with the same `state` finds nothing.
 * Unknown, malformed or expired: `null`.
 */
export async function consumeOAuthFlow(
  kv: Deno.Kv,
  state: string,
  now: Date,
): Promise<OAuthFlow | null> {
  if (!STATE_PATTERN.test(state)) return null;
  const key = keys.oauthFlow(state);
  return await runTransaction(async () => {
    const entry = await kv.get<OAuthFlow>(key);
    if (!entry.value) return null;
    const result = await commit(kv.atomic().check(entry).delete(key));
    if (!result.ok) return CONFLICT;
    return entry.value.expiresAt > now.getTime() ? entry.value : null;
  });
}

/**
 * The service's user id (a UUID) for a provider identity (`iss` + `sub`),
 * created at its first sign-in. Concurrent first sign-ins agree on one id:
 * the first commit wins and the others read it back. A new user is a
 * passport opened: the dashboard counts it in the same atomic.
 */
export async function getOrCreateUserForIdentity(
  kv: Deno.Kv,
  { issuer, subject, now, timeZone = DEFAULT_TIME_ZONE }: {
    issuer: string;
    subject: string;
    now: Date;
    /** The municipality's time zone: whose day the new passport is counted in. */
    timeZone?: string;
  },
): Promise<{ userId: string; created: boolean }> {
  const key = keys.userByIdentity(issuer, subject);
  return await runTransaction(async () => {
    const entry = await kv.get<IdentityUser>(key);
    if (entry.value) return { userId: entry.value.userId, created: false };
    const user: IdentityUser = {
      userId: crypto.randomUUID(),
      createdAt: now.toISOString(),
    };
    const operation = kv.atomic().check(entry).set(key, user).set(
      keys.identityOfUser(user.userId, issuer, subject),
      { issuer, subject, createdAt: user.createdAt } satisfies IdentityLink,
    );
    countPassportOpened(operation, { kind: "account", at: now, timeZone });
    const result = await commit(operation);
    return result.ok ? { userId: user.userId, created: true } : CONFLICT;
  });
}
