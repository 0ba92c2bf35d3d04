/**
 * The tickets' zod schemas, for the API's contract (the ticket endpoint, the
 * name correction) and the forms that share its rules. Apart from mod.ts,
 * which pages and cards import: they test a share code without loading zod.
 *
 * @module
 */
import { z } from "zod";
import { cleanText } from "@/lib/text/clean.ts";
import { SHARE_CODE_PATTERN } from "./share_code.ts";

/** The longest name a ticket shows. */
export const MAX_TICKET_NAME_LENGTH = 120;

/**
 * A ticket's name as the ticket endpoint and the name correction accept it:
 * trimmed, 1 to 120 characters, with controls, bidi overrides and
 * zero-width characters removed as on the share card; a name that is
 * nothing else is empty (400). The 400s' Spanish sentences are in
 * lib/http/validation_messages.ts (field `name`).
 */
export const ticketNameSchema = z.string().trim().min(1).max(
  MAX_TICKET_NAME_LENGTH,
)
  .transform((name) => cleanText(name, MAX_TICKET_NAME_LENGTH))
  .pipe(z.string().min(1));

/**
 * The share code as the ticket endpoint validates (and OpenAPI shows) it; its
 * 400 is worded in `lib/http/validation_messages.ts`.
 */
export const shareCodeSchema = z.string().regex(SHARE_CODE_PATTERN);
