/**
 * The tourist a verified bearer token speaks for: put on the context by
 * `requireUser` (lib/http/user.ts), read by the API's handlers.
 */

/** The user a verified token speaks for. */
export interface AuthUser {
  /** The token's `sub`. */
  id: string;
}
