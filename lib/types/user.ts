/**
 * The tourist a request speaks for: the verified bearer token's user, put on
 * the context by `requireUser` (lib/http/user.ts), and the browser's session,
 * put there by `readTouristSession` (lib/oauth/tourist_session.ts); written
 * and read in KV by lib/db/sessions.ts.
 */

/** The user a verified token speaks for. */
export interface AuthUser {
  /** The token's `sub`. */
  id: string;
}

/**
 * A signed-in browser session. The cookie holds only its id; KV keeps it
 * under the id's SHA-256 (its `handle`), so neither a copy of the database
 * nor a page token (whose `sid` is the handle) reveals a live cookie.
 */
export interface Session {
  /** The KV name of the session: base64url of SHA-256 of its id. */
  handle: string;
  userId: string;
  /** The name the identity provider gave, to greet the user; null when it gave none. */
  name: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; a session read at or after this instant is treated as signed out. */
  expiresAt: string;
  /** A guest passport: a user id of its own, no account behind it. */
  guest?: boolean;
  /**
   * The last day (`YYYY-MM-DD`, UTC) the session was used, written at most
   * once a day (lib/db/passport_activity.ts); absent until its first use.
   */
  lastSeenDay?: string;
}
