/**
 * The tombstones of erased user ids: from the commit that records a
 * passport's erasure (lib/db/erasures.ts), its user id is refused for good.
 * Every bearer token naming it is a 401 on every instance (the verifier
 * reads the tombstone with the token's session, lib/db/sessions.ts), and
 * the writes of a user's records (visits, check-ins, ratings, a ticket's
 * link) check it in their own atomic, so a request that passed the
 * verifier before the erasure cannot write a record after it.
 *
 * A tombstone is the SHA-256 of the user id (base64url) and nothing else:
 * no date, nothing that names the person; the id itself is not kept. It is
 * kept for good (an identity provider's token may name the same id at any
 * time), and a sign-in after the erasure opens a passport with a new id.
 */
import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import { apiMessage, UnauthorizedError } from "@/lib/errors/mod.ts";
import { keys } from "./keys.ts";

/** Hashes of user ids read lately (a pure function's results: nothing to invalidate). */
const userIdHashes = new Map<string, string>();
const MAX_USER_ID_HASHES = 4_096;

/** The tombstone key of a user id (every authenticated request reads it: hashed once). */
export async function getErasedUserKey(userId: string): Promise<Deno.KvKey> {
  let hash = userIdHashes.get(userId);
  if (!hash) {
    hash = await sha256Base64Url(userId);
    if (userIdHashes.size >= MAX_USER_ID_HASHES) userIdHashes.clear();
    userIdHashes.set(userId, hash);
  }
  return keys.erasedUser(hash);
}

/** Whether a tombstone entry (as read) says the user id was erased. */
export function isErasedEntry(entry: Deno.KvEntryMaybe<unknown>): boolean {
  return entry.value !== null;
}

/** Adds the tombstone of `userId` to an erasure's atomic: permanent. */
export async function addErasedUserTo(
  operation: Deno.AtomicOperation,
  userId: string,
): Promise<void> {
  operation.set(await getErasedUserKey(userId), true);
}

/** Whether `userId` was erased (its tokens are refused for good). */
export async function isUserErased(
  kv: Deno.Kv,
  userId: string,
): Promise<boolean> {
  return isErasedEntry(await kv.get(await getErasedUserKey(userId)));
}

/**
 * A write for a user id erased meanwhile (its request's token was checked
 * before the erasure): nothing was written, and the request is the 401 the
 * token now gets.
 */
export class UserErasedError extends UnauthorizedError {
  override name = "UserErasedError";
  constructor() {
    super(apiMessage("auth.erased"));
  }
}
