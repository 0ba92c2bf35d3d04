import type { Config } from "@/lib/config/config.ts";
import { createKvCms } from "./kv.ts";
import type { TicketCms } from "@/lib/types/cms.ts";

/**
 * Picks the CMS driver: WordPress when `WP_URL` is set, else the embedded KV
 * one. The WordPress driver (and zod, which checks its answers) is loaded
 * only when configured: the embedded default starts without either.
 */
export async function createCms(
  config: Config,
  kv: Deno.Kv,
): Promise<TicketCms> {
  if (!config.wordpress) return createKvCms(kv);
  const { createWordPressCms } = await import("./wordpress.ts");
  return createWordPressCms(config.wordpress);
}
