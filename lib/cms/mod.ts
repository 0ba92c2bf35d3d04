import type { Config } from "@/lib/config/config.ts";
import { createKvCms } from "./kv.ts";
import type { TicketCms } from "@/lib/types/cms.ts";
import { createWordPressCms } from "./wordpress.ts";

/** Picks the CMS driver: WordPress when `WP_URL` is set, else the embedded KV one. */
export function createCms(config: Config, kv: Deno.Kv): TicketCms {
  return config.wordpress
    ? createWordPressCms(config.wordpress)
    : createKvCms(kv);
}
