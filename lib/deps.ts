import OpenAI from "openai";
import { createTokenVerifier, type TokenVerifier } from "./auth.ts";
import { createCms } from "./cms/mod.ts";
import type { TicketCms } from "./cms/types.ts";
import type { Config } from "./config.ts";
import { DataStore } from "./data.ts";
import { openKv } from "./db/kv.ts";
import { getOrCreateSigningSecret } from "./db/secrets.ts";
import { PageCache } from "./pages/page_cache.ts";

/**
 * Everything the app needs from outside, passed in once so that tests build
 * the very same app on `:memory:` KV and loopback servers.
 */
export interface AppDeps {
  config: Config;
  kv: Deno.Kv;
  data: DataStore;
  /** The clock; tests move it to slide windows and expire things. */
  now: () => Date;
  auth: TokenVerifier;
  /** The service's own JWT secret (dev tokens, page sessions). */
  signingSecret: Uint8Array;
  /** The language-model client; `undefined` when no key is configured. */
  openai?: OpenAI;
  cms: TicketCms;
  /**
   * The rendered public pages of this instance (lib/pages/page_cache.ts);
   * without one, pages are rendered per request.
   */
  pageCache?: PageCache;
  /**
   * Aborted when the app shuts down: background work (the per-IP budget's
   * flush timer) stops. Without it that work stops by itself when idle.
   */
  signal?: AbortSignal;
}

/** Builds the production dependencies from the configuration. */
export async function openDeps(config: Config): Promise<AppDeps> {
  const kv = await openKv(config.kvPath);
  const data = await DataStore.open(config.tourismDataPath);
  const signingSecret = await getOrCreateSigningSecret(kv);
  return {
    config,
    kv,
    data,
    now: () => new Date(),
    auth: createTokenVerifier({ ownSecret: signingSecret, ...config.auth }),
    signingSecret,
    openai: config.openai.apiKey
      ? new OpenAI({
        apiKey: config.openai.apiKey,
        baseURL: config.openai.baseUrl,
        timeout: 30_000,
        maxRetries: 1,
      })
      : undefined,
    cms: createCms(config, kv),
    pageCache: new PageCache(),
  };
}
