/**
 * The city's CMS as far as tickets go: the drivers in lib/cms and the
 * stored posts of the KV driver (lib/db/cms_posts.ts) both name these.
 *
 * @module
 */

/** What the ticket endpoint sends to the city's CMS. */
export interface TicketInput {
  shareCode: string;
  name: string;
  email: string;
  phone?: string;
  /** The signed-in user the ticket is linked to, if any. */
  userId?: string;
}

/** A ticket as the CMS holds it. */
export interface CmsTicket extends TicketInput {
  /** The CMS's id of the ticket post. */
  wpId: number;
}

/**
 * The city's content-management system, as far as tickets go. Drivers: the
 * embedded Deno KV one (default) and WordPress (when `WP_URL` is set).
 */
export interface TicketCms {
  /** A short name for logs: "kv" or "wordpress". */
  readonly kind: string;
  /** Finds the ticket with this share code; `null` when there is none. */
  findTicket(shareCode: string): Promise<CmsTicket | null>;
  /** Creates a ticket; the share code is unique. */
  createTicket(input: TicketInput): Promise<CmsTicket>;
  /**
   * Changes the name the ticket's post shows (its title and name field);
   * `null` when there is no post with this share code.
   */
  renameTicket(shareCode: string, name: string): Promise<CmsTicket | null>;
  /**
   * Deletes the ticket's post for good (not to a trash). A post already
   * gone is no error, so an erasure can run it again after a failure.
   */
  deleteTicket(shareCode: string): Promise<void>;
}
