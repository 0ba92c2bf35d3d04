import type { Context } from "hono";
import type { Config } from "@/lib/config/config.ts";

/**
 * The portal's public origin: `BASE_URL`'s, or the request's own. Ticket
 * URLs, page links, cookies and same-origin checks all use this one.
 */
export function getPublicOrigin(
  c: Context,
  config: Pick<Config, "baseUrl">,
): string {
  return new URL(config.baseUrl ?? c.req.url).origin;
}
