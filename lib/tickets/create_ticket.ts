import type { TicketCms, TicketInput } from "@/lib/cms/types.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import {
  claimShareCode,
  getShareCodeOfUser,
  getTicket,
  isShareCodeErased,
  releaseShareCode,
  saveTicket,
  ShareCodeErasedError,
  type Ticket,
} from "@/lib/db/tickets.ts";
import { hitRateLimit } from "@/lib/db/rate_limits.ts";
import { DEFAULT_LANG } from "@/lib/i18n/catalogue.ts";
import {
  apiMessage,
  ConflictError,
  TooManyRequestsError,
} from "@/lib/http/errors.ts";

/**
 * Tickets one client address may create an hour: each is a post in the
 * city's CMS. A retry of an existing ticket does not count.
 */
export const TICKETS_PER_ADDRESS = {
  scope: "tickets_by_address",
  limit: 20,
  windowMs: 60 * 60_000,
} as const;

/** How long a request may hold a share code while the CMS answers (its timeout is 10 s). */
export const CLAIM_TTL_MS = 15_000;
const WAIT_STEP_MS = 100;

/**
 * Creates a visitor's ticket in the CMS and keeps it in KV, exactly once per
 * share code. The same share code with the same email is a safe retry: the
 * earlier ticket is returned, also when the CMS created the post but its
 * answer was lost (the CMS is asked first). Another email: 409. Share codes
 * are case-insensitive and kept in lower case: `CaseX-0001` and
 * `casex-0001` are one ticket and one CMS post. A new
 * ticket counts against {@linkcode TICKETS_PER_ADDRESS} (429 past it) when
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
  { clientIp, lang }: {
    clientIp?: string;
    /** The language the ticket is made in: its share card is drawn in it (KV only). */
    lang?: string;
  } = {},
): Promise<Ticket> {
  // An erased code is never claimed again (its old links must stay dead).
  if (await isShareCodeErased(kv, input.shareCode)) throw erasedCode();
  if (input.userId) {
    // A passport holds one share ticket: a second one is refused, naming the first.
    const own = await getShareCodeOfUser(kv, input.userId);
    if (own && own !== input.shareCode.toLowerCase()) {
      throw new ConflictError(apiMessage("ticket.passportHasOne"), {
        shareCode: own,
      });
    }
  }
  if (clientIp && clientIp !== "unknown") {
    const existing = await getTicket(kv, input.shareCode);
    if (!existing) {
      const hit = await hitRateLimit(kv, {
        ...TICKETS_PER_ADDRESS,
        subject: clientIp,
        now: now(),
      });
      if (!hit.allowed) throw tooManyTickets(hit.retryAfterMs);
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
  }, lang);
  onChange({
    kind: "ticket",
    shareCode: ticket.shareCode,
    userId: ticket.userId,
  });
  return ticket;
}

async function findOrCreateTicket(
  { kv, cms, now, timeZone }: {
    kv: Deno.Kv;
    cms: TicketCms;
    now: () => Date;
    timeZone?: string;
  },
  input: TicketInput,
  lang: string | undefined,
): Promise<Ticket> {
  const deadline = Date.now() + CLAIM_TTL_MS + 1_000;
  while (true) {
    const existing = await getTicket(kv, input.shareCode);
    if (existing) return assertSameVisitor(existing.email, input, existing);
    const claim = await claimShareCode(kv, input.shareCode, {
      email: input.email,
      ttlMs: CLAIM_TTL_MS,
      now: now(),
    });
    if (!claim) break;
    assertSameVisitor(claim.heldBy, input, null);
    // The same visitor's other request is creating it right now: wait for it.
    if (Date.now() > deadline) {
      throw new ConflictError(apiMessage("ticket.registering"));
    }
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }

  try {
    const post = (await cms.findTicket(input.shareCode)) ??
      await cms.createTicket(input);
    assertSameVisitor(post.email, input, null);
    return await saveTicket(kv, {
      shareCode: input.shareCode,
      name: post.name,
      email: post.email,
      phone: post.phone ?? null,
      wpId: post.wpId,
      userId: post.userId ?? input.userId ?? null,
      createdAt: now().toISOString(),
      ...(lang && lang !== DEFAULT_LANG ? { lang } : {}),
    }, { timeZone }).catch((error) => {
      throw error instanceof ShareCodeErasedError ? erasedCode() : error;
    });
  } finally {
    await releaseShareCode(kv, input.shareCode);
  }
}

function assertSameVisitor<T>(email: string, input: TicketInput, value: T): T {
  if (email.toLowerCase() !== input.email.toLowerCase()) {
    throw new ConflictError(apiMessage("ticket.codeInUse"));
  }
  return value;
}

function erasedCode(): ConflictError {
  return new ConflictError(apiMessage("ticket.codeErased"));
}

function tooManyTickets(retryAfterMs: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new TooManyRequestsError(
    apiMessage("limit.tickets", { minutes }),
    retryAfterMs / 1000,
  );
}
