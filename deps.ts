import OpenAI from "openai";
import { ApproximateRateLimiter } from "./lib/limits/approximate_limiter.ts";
import { createTokenVerifier, type TokenVerifier } from "./lib/auth/tokens.ts";
import { createCms } from "./lib/cms/mod.ts";
import type { TicketCms } from "./lib/cms/types.ts";
import type { Config } from "./lib/config/config.ts";
import { DataStore } from "./lib/data/tourism_data.ts";
import {
  describeKvPath,
  KvStartError,
  moveLegacyKvFile,
  openKv,
} from "./lib/db/kv.ts";
import { getOrCreateSigningSecret } from "./lib/db/secrets.ts";
import { getSessionByHandle } from "./lib/db/sessions.ts";
import {
  IP_BUDGET_FLUSH_INTERVAL_MS,
  IP_BUDGET_SCOPE,
  IP_BUDGET_WINDOW_MS,
} from "./lib/limits/ip_budget.ts";
import { RenderPool } from "./lib/og/pool.ts";
import { PageCache } from "./lib/pages/page_cache.ts";

/**
 * Everything the app needs from outside, passed in once so that tests build
 * the very same app on `:memory:` KV and loopback servers. Every long-lived
 * part (caches, pools, timers, the KV handle) is created by
 * {@linkcode openDeps} and ended by {@linkcode AppDeps.close}.
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
  /** Whether this start created the signing secret (a new, empty KV). */
  createdSigningSecret: boolean;
  /** The language-model client; `undefined` when no key is configured. */
  openai?: OpenAI;
  cms: TicketCms;
  /**
   * The rendered public pages of this instance (lib/pages/page_cache.ts);
   * without one, pages are rendered per request.
   */
  pageCache?: PageCache;
  /** The per-IP request budget; `undefined` when `IP_BUDGET_PER_MINUTE` is 0. */
  ipBudget?: ApproximateRateLimiter;
  /** The workers that render share cards. */
  renderPool: RenderPool;
  /**
   * Stops the timers, writes the per-IP budget's unshared counts, stops the
   * render workers and closes KV: the last thing a process or test does.
   */
  close(): Promise<void>;
}

/** Parts a caller (a test) brings instead of the ones built from the configuration. */
export type DepsOverrides = Partial<
  Pick<
    AppDeps,
    "kv" | "data" | "now" | "cms" | "openai" | "pageCache" | "renderPool"
  >
>;

/**
 * Builds the dependencies from the configuration: moves a KV file of an
 * earlier version to its new place, opens KV (creating the signing secret
 * on first use), loads and polls the data set (not on Deno Deploy, whose
 * files only change with a new deployment).
 */
export async function openDeps(
  config: Config,
  overrides: DepsOverrides = {},
): Promise<AppDeps> {
  const data = overrides.data ??
    await DataStore.open(config.tourismDataPath);
  if (!overrides.kv && config.legacyKvPath && config.kvPath) {
    await moveLegacyKvFile(config.legacyKvPath, config.kvPath);
  }
  let kv: Deno.Kv | undefined;
  let secret;
  try {
    kv = overrides.kv ?? await openKv(config.kvPath);
    secret = await getOrCreateSigningSecret(kv);
  } catch (error) {
    kv?.close();
    throw new KvStartError(
      `${describeKvPath(config.kvPath)} cannot be read: ${
        (error as Error).message
      }`,
    );
  }
  const { secret: signingSecret, created: createdSigningSecret } = secret;
  const now = overrides.now ?? (() => new Date());
  if (!config.onDeploy) data.watch();
  const ipBudget = config.ipBudgetPerMinute === 0
    ? undefined
    : new ApproximateRateLimiter({
      kv,
      scope: IP_BUDGET_SCOPE,
      limit: config.ipBudgetPerMinute,
      windowMs: IP_BUDGET_WINDOW_MS,
      flushIntervalMs: IP_BUDGET_FLUSH_INTERVAL_MS,
      now: () => now().getTime(),
    });
  const renderPool = overrides.renderPool ?? new RenderPool();
  let closed: Promise<void> | undefined;
  return {
    config,
    kv,
    data,
    now,
    auth: createTokenVerifier({
      ownSecret: signingSecret,
      ...config.auth,
      now,
      isSessionLive: async (handle) =>
        (await getSessionByHandle(kv, handle, now())) !== null,
    }),
    signingSecret,
    createdSigningSecret,
    openai: "openai" in overrides
      ? overrides.openai
      : config.openai.apiKey
      ? new OpenAI({
        apiKey: config.openai.apiKey,
        baseURL: config.openai.baseUrl,
        timeout: 30_000,
        maxRetries: 1,
      })
      : undefined,
    cms: overrides.cms ?? createCms(config, kv),
    pageCache: "pageCache" in overrides ? overrides.pageCache : new PageCache(),
    ipBudget,
    renderPool,
    close() {
      closed ??= (async () => {
        data.close();
        // Unwritten counts are lost if KV fails now: at most one interval.
        await ipBudget?.close();
        renderPool.close();
        try {
          kv.close();
        } catch (error) {
          // Closed already (a test that took KV away): nothing to close.
          if (!(error instanceof Deno.errors.BadResource)) throw error;
        }
      })();
      return closed;
    },
  };
}
