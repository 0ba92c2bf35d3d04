import { signOwnToken } from "../lib/auth.ts";
import { createApp } from "../lib/app.ts";
import { createTokenVerifier } from "../lib/auth.ts";
import { createKvCms } from "../lib/cms/kv.ts";
import { parseConfig } from "../lib/config.ts";
import { DataStore, loadTourismData } from "../lib/data.ts";
import type { AppDeps } from "../lib/deps.ts";
import { openKv } from "../lib/db/kv.ts";
import { getOrCreateSigningSecret } from "../lib/db/secrets.ts";

export const DATA_PATH =
  new URL("../data/turismo.json", import.meta.url).pathname;

/** A clock the test moves by hand. */
export function createTestClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

export interface TestContext {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  clock: ReturnType<typeof createTestClock>;
  /** A valid bearer token for `userId`, signed with the service's own key. */
  tokenFor(userId: string): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Builds the real app on `:memory:` KV (or `kvPath`) and the shipped data
 * set; any dependency can be replaced. Use with `await using`.
 */
export async function createTestContext(
  { env = {}, kvPath = ":memory:", clockStart, ...overrides }:
    & Partial<AppDeps>
    & { env?: Record<string, string>; kvPath?: string; clockStart?: Date } = {},
): Promise<TestContext> {
  const config = parseConfig({
    LOG_REQUESTS: "false",
    KV_PATH: kvPath,
    ...env,
  });
  const kv = overrides.kv ?? await openKv(config.kvPath);
  const signingSecret = await getOrCreateSigningSecret(kv);
  const clock = createTestClock(clockStart);
  const stopped = new AbortController();
  const deps: AppDeps = {
    config,
    kv,
    data: new DataStore(await loadTourismData(DATA_PATH)),
    now: clock.now,
    auth: createTokenVerifier({
      ownSecret: signingSecret,
      ...config.auth,
      now: clock.now,
    }),
    signingSecret,
    cms: createKvCms(kv),
    signal: stopped.signal,
    ...overrides,
  };
  return {
    app: createApp(deps),
    deps,
    clock,
    tokenFor: (userId) =>
      signOwnToken(signingSecret, userId, { now: clock.now() }),
    [Symbol.asyncDispose]() {
      stopped.abort();
      deps.data.close();
      kv.close();
      return Promise.resolve();
    },
  };
}

/** A JSON POST through the app in process. */
export function postJson(
  ctx: TestContext,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  }));
}

/** A JSON POST with a bearer token for `userId`. */
export async function postAsUser(
  ctx: TestContext,
  path: string,
  userId: string,
  body: unknown,
): Promise<Response> {
  return await postJson(ctx, path, body, {
    authorization: `Bearer ${await ctx.tokenFor(userId)}`,
  });
}

export function randomUserId(): string {
  return crypto.randomUUID();
}

export function randomShareCode(): string {
  return `ruta-${crypto.randomUUID().slice(0, 8)}`;
}

export function randomEmail(): string {
  return `viajero-${crypto.randomUUID().slice(0, 8)}@ejemplo.mx`;
}
