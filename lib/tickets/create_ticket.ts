import type { TicketCms, TicketInput } from "@/lib/types/cms.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import {
  claimShareCode,
  getShareCodeOfUser,
  getTicket,
  getTicketOrErasure,
  releaseShareCode,
  saveTicket,
  ShareCodeErasedError,
  type Ticket,
} from "@/lib/db/tickets.ts";
import { LIFETIMES } from "@/lib/db/keys.ts";
import { UserErasedError } from "@/lib/db/erased_users.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { DEFAULT_LANG } from "@/lib/i18n/catalogue.ts";
import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import {
  apiMessage,
  BadRequestError,
  ConflictError,
  TooManyRequestsError,
} from "@/lib/errors/mod.ts";

/**
 * Ticket requests one client address may make an hour: each new one is a
 * post in the city's CMS, and every one (a retry, a taken code) counts, so
 * the endpoint cannot be asked about share codes for free.
 */
export const TICKETS_PER_ADDRESS = {
  scope: "tickets_by_address",
  limit: 20,
  windowMs: 60 * 60_000,
} as const;

/**
 * How long a request's `Idempotency-Key` gets its ticket again (a retry
 * after a lost answer), and how long a claim whose CMS call failed is kept
 * for that key's retry: the lifetime of a `ticket_claims` entry.
 */
export const CLAIM_TTL_MS = LIFETIMES.ticketClaimMs;
/** How long a request may hold a share code while the CMS answers (its timeout is 10 s). */
export const CLAIM_HOLD_MS = 15_000;
const WAIT_STEP_MS = 100;

/**
 * Creates a visitor's ticket in the CMS and keeps it in KV, exactly once per
 * share code. A taken share code answers one 409 to everyone (an erased one
 * too), whatever e-mail they send: only a retry of the request that made
 * it, with the same `idempotencyKey` within {@linkcode CLAIM_TTL_MS}, or of
 * the passport (`userId`) it is linked to, gets the ticket again, also when
 * the CMS created the post and its answer was lost (the CMS is asked
 * first). Share codes are case-insensitive and kept in lower case:
 * `CaseX-0001` and `casex-0001` are one ticket and one CMS post. Every
 * request counts against {@linkcode TICKETS_PER_ADDRESS} (429 past it) when
 * the client's address is known. Linked to a passport (`userId`), it is the
 * passport's one ticket: asking for another is a 409 with the first's code.
 * `lang` is kept on a new ticket (a retry keeps the first one's).
 */
export async function createTicket(
  { kv, cms, now, onChange, data }: {
    kv: Deno.Kv;
    cms: TicketCms;
    now: () => Date;
    onChange: OnDataChange;
    /** The data set: its municipality's time zone dates the ticket on the dashboard. */
    data?: Pick<DataStore, "current">;
  },
  input: TicketInput,
  { clientIp, lang, idempotencyKey }: {
    clientIp?: string;
    /** The language the ticket is made in: its share card is drawn in it (KV only). */
    lang?: string;
    /** The request's `Idempotency-Key` (valid: {@linkcode parseIdempotencyKey}); none: no retry gets the ticket again. */
    idempotencyKey?: string;
  } = {},
): Promise<Ticket> {
  if (clientIp && clientIp !== "unknown") {
    const hit = await hitRateLimit(kv, {
      ...TICKETS_PER_ADDRESS,
      subject: clientIp,
      now: now(),
    });
    if (!hit.allowed) throw tooManyTickets(hit.retryAfterMs);
  }
  if (input.userId) {
    // A passport holds one share ticket: a second one is refused, naming the first.
    const own = await getShareCodeOfUser(kv, input.userId);
    if (own && own !== input.shareCode.toLowerCase()) {
      throw new ConflictError(apiMessage("ticket.passportHasOne"), {
        shareCode: own,
      });
    }
  }
  const ticket = await findOrCreateTicket({
    kv,
    cms,
    now,
    timeZone: data?.current().data.municipality.timeZone,
  }, {
    ...input,
    shareCode: input.shareCode.toLowerCase(),
  }, {
    lang,
    // Without a key the request still gets a claim of its own: no retry matches it.
    keyHash: await sha256Base64Url(idempotencyKey ?? crypto.randomUUID()),
    isKeyed: idempotencyKey !== undefined,
  });
  onChange({
    kind: "ticket",
    shareCode: ticket.shareCode,
    userId: ticket.userId,
  });
  return ticket;
}

/** An `Idempotency-Key`: 16 to 128 of `A-Z a-z 0-9 _ -` (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** The `Idempotency-Key` header's value, `undefined` when absent; a 400 when malformed. */
export function parseIdempotencyKey(
  header: string | undefined,
): string | undefined {
  if (header === undefined) return undefined;
  const key = header.trim();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new BadRequestError(apiMessage("ticket.badIdempotencyKey"));
  }
  return key;
}

async function findOrCreateTicket(
  { kv, cms, now, timeZone }: {
    kv: Deno.Kv;
    cms: TicketCms;
    now: () => Date;
    timeZone?: string;
  },
  input: TicketInput,
  { lang, keyHash, isKeyed }: {
    lang: string | undefined;
    keyHash: string;
    isKeyed: boolean;
  },
): Promise<Ticket> {
  const deadline = Date.now() + CLAIM_HOLD_MS + 1_000;
  let claim;
  while (true) {
    // An erased code is never claimed again (its old links must stay dead),
    // and says so to no one: it is answered as any taken code, after the
    // same read.
    const { erased, ticket } = await getTicketOrErasure(kv, input.shareCode);
    if (erased) throw codeInUse();
    if (ticket) return assertOwnRetry(ticket, input, keyHash, now());
    claim = await claimShareCode(kv, input.shareCode, {
      keyHash,
      holdMs: CLAIM_HOLD_MS,
      ttlMs: CLAIM_TTL_MS,
      now: now(),
    });
    if (claim === "claimed" || claim === "resumed") break;
    if (claim === "taken") throw codeInUse();
    // The same request's other copy is creating it right now: wait for it.
    if (Date.now() > deadline) {
      throw new ConflictError(apiMessage("ticket.registering"));
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }

  let keep: { keyHash: string; ttlMs: number } | undefined;
  try {
    // Saved by a request that ended between the read above and the claim.
    const meanwhile = await getTicket(kv, input.shareCode);
    if (meanwhile) return assertOwnRetry(meanwhile, input, keyHash, now());
    const found = await cms.findTicket(input.shareCode);
    // A post this request's key did not start is someone else's.
    if (found && claim !== "resumed") throw codeInUse();
    // From here a failure may leave a post: kept for this key's retry.
    if (isKeyed) keep = { keyHash, ttlMs: CLAIM_TTL_MS };
    const post = found ?? await cms.createTicket(input);
    const saved = await saveTicket(kv, {
      shareCode: input.shareCode,
      name: post.name,
      email: post.email,
      phone: post.phone ?? null,
      wpId: post.wpId,
      userId: post.userId ?? input.userId ?? null,
      createdAt: now().toISOString(),
      ...(lang && lang !== DEFAULT_LANG ? { lang } : {}),
      retryKey: {
        hash: keyHash,
        until: new Date(now().getTime() + CLAIM_TTL_MS).toISOString(),
      },
    }, { timeZone }).catch(async (error) => {
      if (error instanceof UserErasedError) {
        // The passport was erased while the CMS was asked: this request's
        // post goes too (the token is refused from now on, so no retry).
        await cms.deleteTicket(input.shareCode).catch((failure) =>
          console.error(
            `A ticket post of an erased passport was left in the CMS: ${
              failure instanceof Error ? failure.name : "error"
            }`,
          )
        );
        keep = undefined;
        throw error;
      }
      throw error instanceof ShareCodeErasedError ? codeInUse() : error;
    });
    keep = undefined;
    return assertOwnRetry(saved, input, keyHash, now());
  } finally {
    await releaseShareCode(kv, input.shareCode, keep);
  }
}

/**
 * `ticket` when this request may have it: the retry of the request that
 * made it (same key, in time) or of its passport; otherwise the 409 every
 * other request gets.
 */
function assertOwnRetry(
  ticket: Ticket,
  input: TicketInput,
  keyHash: string,
  now: Date,
): Ticket {
  const { retryKey } = ticket;
  const isSameRequest = retryKey?.hash === keyHash &&
    Date.parse(retryKey.until) > now.getTime();
  const isSamePassport = !!input.userId && ticket.userId === input.userId;
  if (isSameRequest || isSamePassport) return ticket;
  throw codeInUse();
}

function codeInUse(): ConflictError {
  return new ConflictError(apiMessage("ticket.codeInUse"));
}
function tooManyTickets(retryAfterMs: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new TooManyRequestsError(
    apiMessage("limit.tickets", { minutes }),
    retryAfterMs / 1000,
  );
}
