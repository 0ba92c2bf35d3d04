/**
 * Correcting a tourist's data (the right to rectification): the name their
 * route page and share card show. The CMS post is changed first, so a CMS
 * that fails (502) leaves KV as it was: never half a change. Then the
 * ticket in KV, with its name revision (a new card URL for every cache),
 * and this instance's cached page and card are dropped.
 */
import type { TicketCms } from "@/lib/types/cms.ts";
import type { OnDataChange } from "@/lib/db/changes.ts";
import {
  getShareCodeOfUser,
  renameTicket,
  type Ticket,
} from "@/lib/db/tickets.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";

/** What a correction needs from the app. */
export interface CorrectionDeps {
  kv: Deno.Kv;
  cms: TicketCms;
  onChange: OnDataChange;
}

/**
 * Changes the name on the ticket of a passport (`name` already validated
 * and cleaned with `ticketNameSchema`). 404 when the passport has no
 * ticket; the CMS's failures are its 502s.
 */
export async function changeRouteName(
  deps: CorrectionDeps,
  { userId, name }: { userId: string; name: string },
): Promise<Ticket> {
  const shareCode = await getShareCodeOfUser(deps.kv, userId);
  const ticket = shareCode ? await renameInBoth(deps, shareCode, name) : null;
  if (!ticket) {
    throw new NotFoundError(apiMessage("ticket.none"));
  }
  deps.onChange({ kind: "ticket", shareCode: ticket.shareCode, userId });
  return ticket;
}

async function renameInBoth(
  { kv, cms }: CorrectionDeps,
  shareCode: string,
  name: string,
): Promise<Ticket | null> {
  // A post missing from the CMS (deleted there by hand) does not stop the
  // portal's own copy from following the tourist's wish.
  await cms.renameTicket(shareCode, name);
  return await renameTicket(kv, shareCode, name);
}
