import { z } from "zod";
import { cleanText } from "@/lib/text/clean.ts";

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
