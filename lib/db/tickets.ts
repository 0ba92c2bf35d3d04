import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
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
}

/** Reads a ticket by its share code. */
export async function getTicket(
  kv: Deno.Kv,
  shareCode: string,
): Promise<Ticket | null> {
  const key = keys.ticket(shareCode);
  const legacy = keys.ticketAsTyped(shareCode);
  if (legacy[1] === key[1]) return (await kv.get<Ticket>(key)).value;
  const [current, asTyped] = await kv.getMany<[Ticket, Ticket]>([key, legacy]);
  return current.value ?? asTyped.value;
}

/** The share code of the ticket linked to a user, if any. */
export async function getShareCodeOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<string | null> {
  return (await kv.get<string>(keys.ticketByUser(userId))).value;
}

/**
 * Stores a ticket unless its share code is taken; links it to its user
 * unless the user's passport already holds a ticket (one each: a second
 * one raced past the caller's check still shows the user's visits, but the
 * passport keeps its first). Returns the ticket stored under that share
 * code: the new one, or the earlier one when it already existed. A new
 * ticket is counted on the dashboard (its `createdAt` day in `timeZone`) in
 * the same atomic.
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
  return await runTransaction(async () => {
    const existing = await kv.get<Ticket>(key);
    if (existing.value) return existing.value;
    const operation = kv.atomic().check(existing).set(key, ticket);
    countTicketCreated(operation, { createdAt: ticket.createdAt, timeZone });
    if (ticket.userId) {
      const link = await kv.get<string>(keys.ticketByUser(ticket.userId));
      operation.check(link);
      if (!link.value) {
        operation.set(keys.ticketByUser(ticket.userId), ticket.shareCode);
      }
    }
    return (await commit(operation)).ok ? ticket : CONFLICT;
  });
}

interface TicketClaim {
  email: string;
  expiresAt: number;
}

/**
 * Claims a share code for `email` while the CMS is asked, so that concurrent
 * requests (on any instance) do not create a second CMS post. Returns `null`
 * when claimed, or the email of the request that holds the claim.
 */
export async function claimShareCode(
  kv: Deno.Kv,
  shareCode: string,
  { email, ttlMs, now }: { email: string; ttlMs: number; now: Date },
): Promise<{ heldBy: string } | null> {
  const key = keys.ticketClaim(shareCode);
  return await runTransaction(async () => {
    const existing = await kv.get<TicketClaim>(key);
    if (existing.value && existing.value.expiresAt > now.getTime()) {
      return { heldBy: existing.value.email };
    }
    const claim: TicketClaim = { email, expiresAt: now.getTime() + ttlMs };
    const result = await commit(
      kv.atomic().check(existing).set(key, claim, { expireIn: ttlMs }),
    );
    return result.ok ? null : CONFLICT;
  });
}

/** Ends a claim taken with {@linkcode claimShareCode}. */
export async function releaseShareCode(
  kv: Deno.Kv,
  shareCode: string,
): Promise<void> {
  await kv.delete(keys.ticketClaim(shareCode));
}
