/**
 * The tickets a visitor creates (`POST /api/turismo/ticket`): the route's name,
 * the share code and creating one idempotently. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export { createTicket, parseIdempotencyKey } from "./create_ticket.ts";
export { ticketNameSchema } from "./name.ts";
export { isShareCode, shareCodeSchema } from "./share_code.ts";
