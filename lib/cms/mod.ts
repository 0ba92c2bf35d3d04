import type { Config } from "../config.ts";
import { createKvCms } from "./kv.ts";
import type { TicketCms } from "./types.ts";

/** Picks the CMS driver: WordPress when `WP_URL` is set, else the embedded KV one. */
export function createCms(_config: Config, kv: Deno.Kv): TicketCms {
  return createKvCms(kv);
}
