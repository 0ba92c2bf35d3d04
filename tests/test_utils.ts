import { createApp } from "@/app.ts";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { parseConfig } from "@/lib/config/config.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import { type AppDeps, type DepsOverrides, openDeps } from "@/deps.ts";

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
 * Builds the real app with `openDeps`, on `:memory:` KV (or `kvPath`), the
 * shipped data set, a clock the test moves, and no page cache unless asked
 * (`cachePages`); any part can be replaced. Use with `await using`: it ends
 * with `deps.close()`, as the service does.
 */
export async function createTestContext(
  {
    env = {},
    kvPath = ":memory:",
    clockStart,
    cachePages = false,
    ...overrides
  }:
    & DepsOverrides
    & {
      env?: Record<string, string>;
      kvPath?: string;
      clockStart?: Date;
      /** Serve public pages from the page cache, as the service does. */
      cachePages?: boolean;
    } = {},
): Promise<TestContext> {
  const config = parseConfig({
    LOG_REQUESTS: "false",
    KV_PATH: kvPath,
    ...env,
  });
  const clock = createTestClock(clockStart);
  const deps = await openDeps(config, {
    data: new DataStore(await loadTourismData(DATA_PATH)),
    now: clock.now,
    ...(cachePages ? {} : { pageCache: undefined }),
    ...overrides,
  });
  return {
    app: createApp(deps),
    deps,
    clock,
    tokenFor: (userId) =>
      signOwnToken(deps.signingSecret, userId, { now: clock.now() }),
    [Symbol.asyncDispose]: () => deps.close(),
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
