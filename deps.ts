/**
 * What the app is built from. `openDeps` creates every long-lived part
 * (KV, the data set and its poller, caches, the render pool, the per-IP
 * budget) and `close()` ends them all; nothing else in the service holds
 * state of its own. Tests build the very same deps on `:memory:` KV and
 * loopback servers.
 */
import type OpenAI from "openai";
import type { TokenVerifier, TokenVerifierOptions } from "./lib/auth/tokens.ts";
import type { BadgeRule } from "./lib/badges/badges.ts";
import {
  createPromptCache,
  type PromptCache,
} from "./lib/chat/prompt_cache.ts";
import { createCms } from "./lib/cms/mod.ts";
import type { TicketCms } from "./lib/types/cms.ts";
import type { Config } from "./lib/config/config.ts";
import {
  openContent,
  type OpenedContent,
} from "./lib/content/content_store.ts";
import type { DataStore } from "./lib/data/data_store.ts";
import { type LoadedData, loadTourismData } from "./lib/data/tourism_data.ts";
import type { DataChange } from "./lib/db/changes.ts";
import {
  createKvPing,
  describeKvPath,
  type KvPing,
  KvStartError,
  moveLegacyKvFile,
  openKv,
} from "./lib/db/kv.ts";
import { watchRouteChanges } from "./lib/db/route_changes.ts";
import { getOrCreateSigningSecret } from "./lib/db/secrets.ts";
import { getTokenStanding } from "./lib/db/sessions.ts";
import { startStatsBackfill } from "./lib/db/stats_backfill.ts";
import { ChatDailyLimit } from "./lib/limits/chat_daily.ts";
import { countRequest, IP_BUDGET_WINDOW_MS } from "./lib/limits/ip_budget.ts";
import { SlidingWindowLimiter } from "./lib/limits/sliding_window.ts";
import {
  formatReplayedRequestLine,
  RequestLog,
} from "./lib/http/request_log.ts";
import { ReplayedAnswers } from "./lib/http/replay.ts";
import { RenderPool } from "./lib/og/pool.ts";
import { ShareCards } from "./lib/og/share_cards.ts";
import { getStaleTags, PageCache, pageTags } from "./lib/pages/page_cache.ts";
import { BUILD_DIR } from "./lib/pages/assets.ts";
import { PersonalDataWorker } from "./lib/personal_data/worker.ts";
import { PhotoLibrary } from "./lib/photos/library.ts";
import { assertNoGuideCodeClashes } from "./lib/passport/guide_codes.ts";

/** Everything the app needs from outside, created once by {@linkcode openDeps}. */
export interface AppDeps {
  config: Config;
  kv: Deno.Kv;
  /** Whether KV answers, read at most once a second (`/healthz`). */
  pingKv: KvPing;
  data: DataStore;
  /** Where the content lives (`CONTENT_SOURCE`): `kv` when the console publishes it. */
  contentSource: "kv" | "file";
  /** Refuses a data set that cannot be taken (a guide code the console gave another attraction). */
  checkContent: (next: LoadedData) => Promise<void>;
  /** The clock; tests move it to slide windows and expire things. */
  now: () => Date;
  auth: TokenVerifier;
  /** The service's own JWT secret (dev tokens, page sessions). */
  signingSecret: Uint8Array;
  /** Whether this start created the signing secret (a new, empty KV). */
  createdSigningSecret: boolean;
  /**
   * The language-model client, created on the first call (the SDK is a
   * fifth of a start's imports, and only the chat uses it); `undefined`
   * when no key is configured.
   */
  openai?: () => Promise<OpenAI>;
  cms: TicketCms;
  /** The chat's system prompt, built once per data version. */
  prompts: PromptCache;
  /** The rendered public pages of this instance; without one, pages render per request. */
  pageCache?: PageCache;
  /** Share cards: drawn in `renderPool` when routes change, stored in KV. */
  shareCards: ShareCards;
  /** The workers that render share cards. */
  renderPool: RenderPool;
  /** The per-IP budget; `undefined` when `IP_BUDGET_PER_MINUTE` is 0. */
  ipBudget?: SlidingWindowLimiter;
  /** The chat's daily ceiling; `undefined` when `CHAT_DAILY_LIMIT` is 0. */
  chatDailyLimit?: ChatDailyLimit;
  /** Where the request log's lines go; `undefined` when `LOG_REQUESTS` is off. */
  requestLog?: RequestLog;
  /** Pages, cards and health answers kept whole and replayed before Hono while current (lib/http/replay.ts). */
  replayedAnswers: ReplayedAnswers;
  /**
   * Told of every write by the domain operations; drops what the write made
   * stale in this instance's caches.
   */
  onChange: (change: DataChange) => void;
  /**
   * The badge table verifications award from (lib/badges); absent, the
   * shipped one. Tests set their own.
   */
  badges?: readonly BadgeRule[];
  /**
   * Erasures and retention in the background: finishes erasures cut short
   * (at start, then on a retry schedule) and erases unused guest passports
   * (at start, then daily).
   */
  personalData: PersonalDataWorker;
  /** The photo library: uploads processed in its worker, renditions served from KV. */
  photos: PhotoLibrary;
  /** Stops the data set's poller, the route-changes watcher and the render workers, closes KV, writes the last log lines. */
  close(): Promise<void>;
}

/** Parts a caller (a test, a benchmark) brings instead of the ones built from the configuration. */
export type DepsOverrides =
  & Partial<
    Pick<
      AppDeps,
      | "kv"
      | "data"
      | "now"
      | "cms"
      | "pageCache"
      | "renderPool"
      | "requestLog"
    >
  >
  & {
    /** A model client of the caller's (a fake model's); `undefined`: no model. */
    openai?: OpenAI;
  };

/**
 * Builds the dependencies from the configuration: moves a KV file of an
 * earlier version to its new place, opens KV (creating the signing secret
 * on first use; KV that cannot be read is a {@linkcode KvStartError}), loads
 * and polls the data set (not on Deno Deploy, whose files only change with
 * a new deployment).
 */
export async function openDeps(
  config: Config,
  overrides: DepsOverrides = {},
): Promise<AppDeps> {
  if (!overrides.kv && config.legacyKvPath && config.kvPath) {
    await moveLegacyKvFile(config.legacyKvPath, config.kvPath);
  }
  // A start that cannot take its data set stops before anything is
  // written: a new KV file is seeded from the file, and with
  // CONTENT_SOURCE=file the file is the content.
  if (
    !overrides.data && !overrides.kv &&
    (config.contentSource === "file" || await isNewKvFile(config.kvPath))
  ) {
    await loadTourismData(config.tourismDataPath);
  }
  let kv: Deno.Kv | undefined;
  let secret;
  try {
    kv = overrides.kv ?? await openKv(config.kvPath);
    performance.mark("start: KV open");
    secret = await getOrCreateSigningSecret(kv);
    performance.mark("start: signing secret read");
  } catch (error) {
    kv?.close();
    throw new KvStartError(
      `${describeKvPath(config.kvPath)} cannot be read: ${
        (error as Error).message
      }`,
    );
  }
  const now = overrides.now ?? (() => new Date());
  // Two attractions never share a guide code: a data set that gives one the
  // code the staff console gave another stops the start (and a reload).
  const checkGuideCodes = (next: LoadedData) =>
    assertNoGuideCodeClashes(kv, next, now());
  let data: DataStore;
  let content: OpenedContent | undefined;
  try {
    if (overrides.data) {
      data = overrides.data;
      await checkGuideCodes(data.current());
      if (!config.onDeploy) data.watch({ check: checkGuideCodes });
    } else {
      content = await openContent(kv, {
        source: config.contentSource,
        path: config.tourismDataPath,
        onDeploy: config.onDeploy,
        check: checkGuideCodes,
        now,
      });
      data = content.data;
    }
    performance.mark("start: content loaded");
  } catch (error) {
    if (!overrides.kv) kv.close();
    throw error;
  }
  // The dashboard's counters of what earlier versions stored: claimed before
  // serving, counted in the background, stopped by close().
  const backfillStop = new AbortController();
  const backfill = await startStatsBackfill(kv, {
    timeZone: data.current().data.municipality.timeZone,
    now,
    signal: backfillStop.signal,
  });
  performance.mark("start: backfill claimed");
  backfill.done.catch((error) => {
    if (!backfillStop.signal.aborted) {
      console.error("Dashboard: the backfill of the counters failed:", error);
    }
  });
  const renderPool = overrides.renderPool ??
    new RenderPool({
      size: config.renderWorkers,
      start: config.renderWorkerStart,
      idleMs: config.renderWorkerIdleMs,
    });
  const pageCache = "pageCache" in overrides
    ? overrides.pageCache
    : new PageCache({ now: () => now().getTime() });
  const photos = new PhotoLibrary({ kv, now });
  const shareCards = new ShareCards({ kv, data, renderPool }, {
    buildDir: BUILD_DIR,
    photos,
    now: () => now().getTime(),
  });
  const requestLog = overrides.requestLog ??
    (config.logRequests ? new RequestLog() : undefined);
  const ipBudget = config.ipBudgetPerMinute === 0
    ? undefined
    : new SlidingWindowLimiter({
      limit: config.ipBudgetPerMinute,
      windowMs: IP_BUDGET_WINDOW_MS,
      now: () => now().getTime(),
    });
  // Counted and logged as every request (the app's middleware does the same).
  const replayedAnswers = new ReplayedAnswers({
    admit: (request, info, path) =>
      countRequest({ ipBudget, config }, request, info, path)?.allowed ?? true,
    log: requestLog && {
      describe: formatReplayedRequestLine,
      push: (line) => requestLog.push(line),
    },
  });
  const cms = overrides.cms ?? await createCms(config, kv);
  const onChange = (change: DataChange) => {
    // This instance's pages show the write at once (others within their TTL).
    pageCache?.invalidate(getStaleTags(change));
    // The cards the write changed are drawn now, and stored for every instance.
    shareCards.changed(change);
  };
  // A rename or an erasure on any instance: this one's route pages and
  // cards, served from memory without a KV read, are dropped within a
  // second (one watch and one small read every 250 ms, not one per request).
  const routeChanges = watchRouteChanges(kv, {
    onChange() {
      pageCache?.invalidate([pageTags.routes()]);
      shareCards.forgetRoutes();
    },
  });
  const personalData = new PersonalDataWorker(
    { kv, cms, now, onChange },
    config,
  );
  personalData.start();
  performance.mark("start: caches, workers, watchers");
  let closed: Promise<void> | undefined;
  return {
    config,
    kv,
    pingKv: createKvPing(kv, {
      now: overrides.now ? () => now().getTime() : Date.now,
    }),
    data,
    contentSource: content?.source ?? "kv",
    checkContent: checkGuideCodes,
    now,
    auth: createLazyVerifier({
      ownSecret: secret.secret,
      ...config.auth,
      now,
      getStanding: (userId, sessionHandle) =>
        getTokenStanding(kv, { userId, sessionHandle, now: now() }),
    }),
    signingSecret: secret.secret,
    createdSigningSecret: secret.created,
    openai: "openai" in overrides
      ? givenModel(overrides.openai)
      : createModelClient(config),
    cms,
    prompts: createPromptCache(),
    pageCache,
    shareCards,
    renderPool,
    ipBudget,
    chatDailyLimit: config.chatDailyLimit === 0
      ? undefined
      : new ChatDailyLimit({
        kv,
        now,
        limit: config.chatDailyLimit,
        timeZone: data.current().data.municipality.timeZone,
      }),
    requestLog,
    replayedAnswers,
    onChange,
    personalData,
    photos,
    close() {
      if (!closed) {
        backfillStop.abort();
        data.close();
        shareCards.close();
        renderPool.close();
        // The backfill's batch in flight ends first (it stops at the abort).
        closed = Promise.all([
          backfill.done.catch(() => {}),
          personalData.close(),
          routeChanges.close(),
          photos.close(),
          content?.close(),
        ]).then(() => {
          try {
            kv.close();
          } catch (error) {
            // Closed already (a test that took KV away): nothing to close.
            if (!(error instanceof Deno.errors.BadResource)) throw error;
          }
          return requestLog?.flush();
        });
      }
      return closed;
    },
  };
}

/** Whether `kvPath` names a local KV file that does not exist yet. */
async function isNewKvFile(kvPath: string | undefined): Promise<boolean> {
  if (!kvPath || kvPath === ":memory:" || /^https?:\/\//.test(kvPath)) {
    return false;
  }
  try {
    await Deno.stat(kvPath);
    return false;
  } catch {
    return true;
  }
}

/**
 * The verifier of bearer tokens, built (and jose imported) on the first
 * token: most requests, and a start's first, carry none.
 */
function createLazyVerifier(options: TokenVerifierOptions): TokenVerifier {
  let verifier: Promise<TokenVerifier> | undefined;
  return {
    async verify(token, verifyOptions) {
      verifier ??= import("./lib/auth/tokens.ts").then((m) =>
        m.createTokenVerifier(options)
      ).catch((error) => {
        verifier = undefined;
        throw error;
      });
      return await (await verifier).verify(token, verifyOptions);
    },
  };
}

/**
 * The model client, with a 30 s timeout and one retry, created (and the
 * SDK imported) on the first call; none without a key.
 */
function createModelClient(
  config: Config,
): (() => Promise<OpenAI>) | undefined {
  const { apiKey, baseUrl } = config.openai;
  if (!apiKey) return undefined;
  let client: Promise<OpenAI> | undefined;
  return () =>
    client ??= import("openai").then(({ default: OpenAI }) =>
      new OpenAI({ apiKey, baseURL: baseUrl, timeout: 30_000, maxRetries: 1 })
    ).catch((error) => {
      client = undefined;
      throw error;
    });
}

/** A client the caller made, as {@linkcode AppDeps.openai} gives one. */
function givenModel(
  client: OpenAI | undefined,
): (() => Promise<OpenAI>) | undefined {
  return client && (() => Promise.resolve(client));
}
