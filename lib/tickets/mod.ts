/**
 * The tickets a visitor creates (`POST /api/turismo/ticket`): the share code
 * and creating one idempotently. Routes, components and scripts import this
 * entry, never the folder's insides; the API's zod schemas of a ticket's name
 * and code are in schemas.ts, so pages load no zod through here.
 *
 * @module
 */
export { createTicket, parseIdempotencyKey } from "./create_ticket.ts";
export { isShareCode } from "./share_code.ts";
