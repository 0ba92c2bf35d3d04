import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import { keys } from "./keys.ts";
import { getErasedUserKey, UserErasedError } from "./erased_users.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { markRoutesChanged } from "./route_changes.ts";
import { countTicketCreated, DEFAULT_TIME_ZONE } from "./stats.ts";

/** A visitor's ticket as the service keeps it, once the CMS has answered. */
export interface Ticket {
  shareCode: string;
  name: string;
  email: string;
  phone: string | null;
  /** The CMS's id of the ticket post. */
  wpId: number;
  /** The signed-in user whose visits the route page and share card show. */
  userId: string | null;
  createdAt: string;
  /**
   * How many times the tourist changed the name (absent: never). The share
   * card's URL carries it, so a renamed card is a new URL for every cache.
   */
  nameRevision?: number;
  /**
   * The language the ticket was made in (`es`, `en`; absent: Spanish, as
   * tickets made before there were languages). The share card is drawn in
   * it. Kept here only, never sent to the CMS.
   */
  lang?: string;
  /**
   * The request that made the ticket, for its retries: the SHA-256 of its
   * `Idempotency-Key` and until when a retry with that key gets the ticket
   * again (absent: tickets of earlier versions, or made without a key).
   */
  retryKey?: { hash: string; until: string };
}

/** Saving a ticket whose share code was erased: it can never be claimed again. */
export class ShareCodeErasedError extends Error {
  override name = "ShareCodeErasedError";
}

/**
 * The name of an erased share code in KV: the SHA-256 of the code in lower
 * case (base64url), so the tombstone does not keep the code itself. Web
 * Crypto rather than node:crypto, whose Node layer would cost every start.
 */
export async function hashShareCode(shareCode: string): Promise<string> {
  const code = shareCode.toLowerCase();
  const known = shareCodeHashes.get(code);
  if (known) return known;
  const hash = await sha256Base64Url(code);
  // Every read of a ticket hashes its code (the tombstone is read with it):
  // the hot routes' and cards' codes are hashed once.
  if (shareCodeHashes.size >= MAX_SHARE_CODE_HASHES) shareCodeHashes.clear();
  shareCodeHashes.set(code, hash);
  return hash;
}

/** Hashes of share codes read lately (a pure function's results: nothing to invalidate). */
const shareCodeHashes = new Map<string, string>();
const MAX_SHARE_CODE_HASHES = 4_096;

/** The tombstone key of a share code. */
export async function getErasedShareCodeKey(
  shareCode: string,
): Promise<Deno.KvKey> {
  return keys.erasedShareCode(await hashShareCode(shareCode));
}

/** Whether a share code was erased (its route is gone for good). */
export async function isShareCodeErased(
  kv: Deno.Kv,
  shareCode: string,
): Promise<boolean> {
  return (await kv.get(await getErasedShareCodeKey(shareCode))).value !==
    null;
}

/**
 * Reads a ticket by its share code. A code being erased (or erased) has no
 * ticket from the moment its erasure was recorded, on every instance: the
 * tombstone is read in the same round trip, so every page and card that
 * finds a ticket here answers 404 at once.
 */
export async function getTicket(
  kv: Deno.Kv,
  shareCode: string,
): Promise<Ticket | null> {
  const { erased, entry } = await readTicketEntry(kv, shareCode);
  return erased.value === null ? entry.value : null;
}

/**
 * A ticket (as {@linkcode getTicket} reads it) and the versionstamp of its
 * entry: every change of the ticket (a rename, a new owner) changes the
 * stamp, so a copy made from it can be checked against KV before it is
 * served again.
 */
export async function getTicketEntry(
  kv: Deno.Kv,
  shareCode: string,
): Promise<{ ticket: Ticket; versionstamp: string } | null> {
  const { erased, entry } = await readTicketEntry(kv, shareCode);
  return erased.value === null && entry.value
    ? { ticket: entry.value, versionstamp: entry.versionstamp }
    : null;
}

/**
 * Whether a share code was erased, and its ticket, in one round trip: the
 * ticket endpoint answers an erased code and a taken one with the same
 * reads.
 */
export async function getTicketOrErasure(
  kv: Deno.Kv,
  shareCode: string,
): Promise<{ erased: boolean; ticket: Ticket | null }> {
  const { erased, entry } = await readTicketEntry(kv, shareCode);
  return erased.value !== null
    ? { erased: true, ticket: null }
    : { erased: false, ticket: entry.value };
}

/**
 * A code's tombstone and its ticket's entry (the lower-case key's, else an
 * earlier version's as typed), and the entry of `with` when given, in the
 * same round trip (lib/db/card_images.ts reads a route's stored card so).
 */
export async function readTicketEntry<T = unknown>(
  kv: Deno.Kv,
  shareCode: string,
  { with: other }: { with?: Deno.KvKey } = {},
): Promise<{
  erased: Deno.KvEntryMaybe<unknown>;
  entry: Deno.KvEntryMaybe<Ticket>;
  other?: Deno.KvEntryMaybe<T>;
}> {
  const key = keys.ticket(shareCode);
  const legacy = keys.ticketAsTyped(shareCode);
  const tombstone = await getErasedShareCodeKey(shareCode);
  const wanted: Deno.KvKey[] = legacy[1] === key[1]
    ? [tombstone, key]
    : [tombstone, key, legacy];
  if (other) wanted.push(other);
  const entries = await kv.getMany<unknown[]>(wanted);
  const current = entries[1] as Deno.KvEntryMaybe<Ticket>;
  const asTyped = legacy[1] === key[1]
    ? undefined
    : entries[2] as Deno.KvEntryMaybe<Ticket>;
  return {
    erased: entries[0],
    entry: current.value || !asTyped ? current : asTyped,
    ...(other
      ? { other: entries[entries.length - 1] as Deno.KvEntryMaybe<T> }
      : {}),
  };
}

/** The share code of the ticket linked to a user, if any. */
export async function getShareCodeOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<string | null> {
  return (await kv.get<string>(keys.ticketByUser(userId))).value;
}

/**
 * Stores a ticket unless its share code is taken (or was erased: a
 * {@linkcode ShareCodeErasedError}), with its e-mail index; links it to its user
 * unless the user's passport already holds a ticket (one each: a second
 * one raced past the caller's check still shows the user's visits, but the
 * passport keeps its first). Returns the ticket stored under that share
 * code: the new one, or the earlier one when it already existed. A new
 * ticket is counted on the dashboard (its `createdAt` day in `timeZone`) in
 * the same atomic. A new ticket of an erased user id is a
 * {@linkcode UserErasedError} (the tombstone checked in the atomic), nothing
 * stored.
 */
export async function saveTicket(
  kv: Deno.Kv,
  ticket: Ticket,
  { timeZone = DEFAULT_TIME_ZONE }: {
    /** The municipality's time zone: whose day the ticket is counted in. */
    timeZone?: string;
  } = {},
): Promise<Ticket> {
  const key = keys.ticket(ticket.shareCode);
  const tombstone = await getErasedShareCodeKey(ticket.shareCode);
  return await runTransaction(async () => {
    const [existing, erased] = await kv.getMany<[Ticket, unknown]>([
      key,
      tombstone,
    ]);
    if (erased.value !== null) {
      throw new ShareCodeErasedError("The share code was erased");
    }
    if (existing.value) return existing.value;
    const operation = kv.atomic().check(existing, erased).set(key, ticket)
      .set(
        keys.ticketByEmail(ticket.email, ticket.shareCode),
        ticket.shareCode,
      );
    countTicketCreated(operation, { createdAt: ticket.createdAt, timeZone });
    if (ticket.userId) {
      const [link, erasedUser] = await kv.getMany<[string, unknown]>([
        keys.ticketByUser(ticket.userId),
        await getErasedUserKey(ticket.userId),
      ]);
      // A passport erased meanwhile gets no ticket: the request's token is
      // refused now, and nothing names the user again.
      if (erasedUser.value !== null) throw new UserErasedError();
      operation.check(link, erasedUser);
      if (!link.value) {
        operation.set(keys.ticketByUser(ticket.userId), ticket.shareCode);
      }
    }
    return (await commit(operation)).ok ? ticket : CONFLICT;
  });
}

/**
 * A share code claimed by one request (by its key's hash): held while that
 * request asks the CMS (`holdUntil`), then kept, when the CMS failed, so
 * that only a retry with the same key may finish it.
 */
interface TicketClaim {
  keyHash: string;
  holdUntil: number;
}

/**
 * What {@linkcode claimShareCode} found: `claimed` (a new claim),
 * `resumed` (this key's earlier claim, whose request failed: a post it
 * made in the CMS is its own), `held` (this key's other request is asking
 * the CMS right now) or `taken` (another request's).
 */
export type ShareCodeClaim = "claimed" | "resumed" | "held" | "taken";

/**
 * Claims a share code for the request whose key hashes to `keyHash` while
 * the CMS is asked, so that concurrent requests (on any instance) do not
 * create a second CMS post, and a failed request's code can be finished by
 * its own retry only. The claim lives `ttlMs`; it is held `holdMs`.
 */
export async function claimShareCode(
  kv: Deno.Kv,
  shareCode: string,
  { keyHash, holdMs, ttlMs, now }: {
    keyHash: string;
    holdMs: number;
    ttlMs: number;
    now: Date;
  },
): Promise<ShareCodeClaim> {
  const key = keys.ticketClaim(shareCode);
  return await runTransaction(async () => {
    const existing = await kv.get<TicketClaim>(key);
    const claim = existing.value;
    let found: ShareCodeClaim = "claimed";
    if (claim && claim.keyHash !== keyHash) {
      // A claim of an earlier version (`{email, expiresAt}`) counts while it lasts.
      const legacy = claim as unknown as { expiresAt?: number };
      if (claim.keyHash || (legacy.expiresAt ?? 0) > now.getTime()) {
        return "taken";
      }
    } else if (claim) {
      if (claim.holdUntil > now.getTime()) return "held";
      found = "resumed";
    }
    const held: TicketClaim = { keyHash, holdUntil: now.getTime() + holdMs };
    const result = await commit(
      kv.atomic().check(existing).set(key, held, { expireIn: ttlMs }),
    );
    return result.ok ? found : CONFLICT;
  });
}

/**
 * Ends a claim taken with {@linkcode claimShareCode}: deleted, or with
 * `keep` (the CMS failed, the post may exist) kept for `keep.ttlMs` but no
 * longer held, so the same key's retry goes on at once.
 */
export async function releaseShareCode(
  kv: Deno.Kv,
  shareCode: string,
  keep?: { keyHash: string; ttlMs: number },
): Promise<void> {
  const key = keys.ticketClaim(shareCode);
  if (!keep) return await kv.delete(key);
  const claim: TicketClaim = { keyHash: keep.keyHash, holdUntil: 0 };
  await kv.set(key, claim, { expireIn: keep.ttlMs });
}

/**
 * Changes the name a ticket shows (its route page and card), counting the
 * change in `nameRevision`. Returns the ticket as stored, or null when there
 * is none (erased meanwhile).
 */
export async function renameTicket(
  kv: Deno.Kv,
  shareCode: string,
  name: string,
): Promise<Ticket | null> {
  return await runTransaction(async () => {
    const { erased, entry } = await readTicketEntry(kv, shareCode);
    if (erased.value !== null || !entry.value) return null;
    const ticket: Ticket = {
      ...entry.value,
      name,
      nameRevision: (entry.value.nameRevision ?? 0) + 1,
    };
    // Every instance's memory of the route page and card drops it.
    const result = await commit(
      markRoutesChanged(
        kv.atomic().check(erased, entry).set(entry.key, ticket),
      ),
    );
    return result.ok ? ticket : CONFLICT;
  });
}

/**
 * The share codes of the tickets that hold an e-mail address (any case).
 * Reads the index written with each ticket; until the start-up backfill
 * has indexed the tickets of earlier versions (`indexed` false), it also
 * scans every ticket: a rare admin path, answered right either way.
 */
export async function listShareCodesByEmail(
  kv: Deno.Kv,
  email: string,
  { indexed }: { indexed: boolean },
): Promise<string[]> {
  const codes = new Set<string>();
  for await (
    const entry of kv.list<string>({ prefix: keys.ticketsByEmail(email) })
  ) {
    codes.add(entry.value.toLowerCase());
  }
  if (!indexed) {
    const wanted = email.toLowerCase();
    for await (const entry of kv.list<Ticket>({ prefix: keys.tickets() })) {
      if (entry.value?.email?.toLowerCase() === wanted) {
        codes.add(entry.value.shareCode.toLowerCase());
      }
    }
  }
  return [...codes].sort();
}

/**
 * Deletes a ticket from KV with its links (the user's, the e-mail index,
 * a claim in flight); the tombstone written before keeps the code from
 * being claimed again. Deleting a ticket that is gone is a no-op.
 */
export async function deleteTicketRecords(
  kv: Deno.Kv,
  shareCode: string,
): Promise<void> {
  await runTransaction(async () => {
    const key = keys.ticket(shareCode);
    const legacy = keys.ticketAsTyped(shareCode);
    const entries = await kv.getMany<Ticket[]>(
      legacy[1] === key[1] ? [key] : [key, legacy],
    );
    const operation = kv.atomic().check(...entries)
      .delete(key)
      .delete(legacy)
      .delete(keys.ticketClaim(shareCode));
    if (entries.some((entry) => entry.value)) markRoutesChanged(operation);
    for (const { value: ticket } of entries) {
      if (!ticket) continue;
      operation.delete(keys.ticketByEmail(ticket.email, shareCode));
      if (ticket.userId) {
        const link = await kv.get<string>(keys.ticketByUser(ticket.userId));
        if (link.value?.toLowerCase() === shareCode.toLowerCase()) {
          operation.check(link).delete(keys.ticketByUser(ticket.userId));
        }
      }
    }
    return (await commit(operation)).ok ? undefined : CONFLICT;
  });
}
