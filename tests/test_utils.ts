import assert from "node:assert/strict";
import { createStaffSignInLink } from "@/lib/staff/sign_in.ts";
import type { StaffRole } from "@/lib/types/staff.ts";
import { createApp } from "@/app.ts";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { parseConfig } from "@/lib/config/config.ts";
import {
  type LoadedData,
  loadTourismData,
  type RawTourismData,
} from "@/lib/data/tourism_data.ts";
import { DataStore } from "@/lib/data/data_store.ts";
import type { Ticket } from "@/lib/db/tickets.ts";
import { keys } from "@/lib/db/keys.ts";
import type { StatsBackfillState } from "@/lib/db/stats_backfill.ts";
import { type AppDeps, type DepsOverrides, openDeps } from "@/deps.ts";
import { TEST_MAP_TILE_URL } from "./map_tiles.ts";

/** The shipped data set's file. */
export const DATA_PATH =
  new URL("../data/turismo.json", import.meta.url).pathname;

/**
 * A model at a named `OPENAI_BASE_URL` and a WordPress site: the settings
 * under which the privacy notice names where data goes by host.
 */
export const NAMED_HOSTS_ENV: Readonly<Record<string, string>> = {
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: "https://modelos.ejemplo.mx/v1",
  WP_URL: "https://cms.tequila.ejemplo.mx",
  WP_USER: "portal",
  WP_APP_PASSWORD: "xxxx xxxx xxxx xxxx",
};

/**
 * The shipped data set as its file has it, guide codes included (only tests
 * read them), read once. Frozen: change a copy with `mutateShipped`.
 */
export const SHIPPED: RawTourismData = deepFreeze(
  JSON.parse(await Deno.readTextFile(DATA_PATH)),
);

let shippedData: Promise<LoadedData> | undefined;

/** The shipped data set loaded as the service loads it, once. */
export function loadShippedData(): Promise<LoadedData> {
  return shippedData ??= loadTourismData(DATA_PATH);
}

/** The JSON of a copy of the shipped data set after `change`, which may break it. */
// deno-lint-ignore no-explicit-any -- tests break arbitrary parts of the data
export function mutateShipped(change: (data: any) => void): string {
  const data = structuredClone(SHIPPED);
  change(data);
  return JSON.stringify(data);
}

/** A copy of the shipped data file in a temp folder, removed at the end of `await using`. */
export async function copyShippedData(): Promise<
  { path: string } & AsyncDisposable
> {
  const dir = await Deno.makeTempDir({ prefix: "turismo-data-" });
  const path = `${dir}/turismo.json`;
  await Deno.copyFile(DATA_PATH, path);
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

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

/** The app in process, its dependencies and its clock (`createTestContext`). */
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
    // A worker only for a card, as a test asks: pages start none ahead.
    RENDER_WORKER_START: "first-card",
    // The maps' tiles from a loopback address, never the internet.
    MAP_TILE_URL: TEST_MAP_TILE_URL,
    ...env,
  });
  const clock = createTestClock(clockStart);
  const deps = await openDeps(config, {
    data: new DataStore(await loadShippedData()),
    now: clock.now,
    ...(cachePages ? {} : { pageCache: undefined }),
    ...overrides,
  });
  await waitForStatsBackfill(deps.kv);
  return {
    app: createApp(deps),
    deps,
    clock,
    tokenFor: (userId) =>
      signOwnToken(deps.signingSecret, userId, { now: clock.now() }),
    [Symbol.asyncDispose]: () => deps.close(),
  };
}

/**
 * Waits (a bounded while) for the counters' backfill that every start runs
 * in the background: until it ends, no closed period is published
 * (lib/db/open_data.ts), and on a busy machine a test could overtake it.
 */
async function waitForStatsBackfill(kv: Deno.Kv): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const state = await kv.get<StatsBackfillState>(keys.statsBackfill());
    if (state.value?.status !== "running") return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The card URL (path and query) the route page links in `og:image`. */
export async function getLinkedCard(
  ctx: TestContext,
  code: string,
): Promise<string> {
  const res = await ctx.app.request(`/ruta/${code}`);
  assert.equal(res.status, 200);
  const image = /<meta property="og:image" content="([^"]+)"/.exec(
    await res.text(),
  )?.[1];
  assert.ok(image, "og:image");
  const url = new URL(image.replaceAll("&amp;", "&"));
  return `${url.pathname}${url.search}`;
}

/** `fetch` (the app's, or a stand-in's) on 127.0.0.1 and a free port. */
export function serveApp(
  fetch: (
    request: Request,
    info: Deno.ServeHandlerInfo,
  ) => Response | Promise<Response>,
): { origin: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    fetch,
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
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

/** Asserts the status and a JSON content type; returns the parsed body. */
// deno-lint-ignore no-explicit-any -- each test reads the fields it expects
export async function assertJson(res: Response, status: number): Promise<any> {
  assert.equal(res.status, status);
  assert.match(res.headers.get("content-type")!, /^application\/json/);
  return await res.json();
}

/** GETs a page through the app and asserts its status and that it is the app's HTML. */
export async function getPage(
  ctx: TestContext,
  path: string,
  status = 200,
  headers: Record<string, string> = {},
): Promise<{ res: Response; html: string }> {
  const res = await ctx.app.request(path, { headers });
  assert.equal(res.status, status, `${path} status`);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html><html lang="es-MX">/);
  return { res, html };
}

/**
 * Verifies the shipped data set's first `count` attractions for `userId`
 * through the API, in file order, moving the clock `stepMs` after each.
 */
export async function verifyVisits(
  ctx: TestContext,
  userId: string,
  count: number,
  stepMs = 60 * 60 * 1000,
): Promise<void> {
  for (const attraction of SHIPPED.attractions.slice(0, count)) {
    const res = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
      code: attraction.guideCode,
      userId,
    });
    assert.equal(res.status, 200, await res.text());
    ctx.clock.advance(stepMs);
  }
}

/** Runs `fn` with `console[method]` recorded (and kept off the test output): one line a call. */
export async function capture<T>(
  method: "info" | "warn" | "error",
  fn: () => Promise<T>,
): Promise<{ result: T; logged: string; lines: string[] }> {
  const original = console[method];
  const lines: string[] = [];
  console[method] = (...args: unknown[]) =>
    lines.push(
      args.map((a) =>
        a instanceof Error ? `${a.message} ${a.stack}` : String(a)
      )
        .join(" "),
    );
  try {
    return { result: await fn(), logged: lines.join("\n"), lines };
  } finally {
    console[method] = original;
  }
}

/**
 * Great-circle distance in km by the spherical law of cosines: an
 * independent check of the service's haversine.
 */
export function distanceKm(
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
): number {
  const r = Math.PI / 180;
  const cos = Math.sin(a.lat * r) * Math.sin(b.lat * r) +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lng - a.lng) * r);
  return 6371.0088 * Math.acos(Math.min(1, cos));
}

/** A UUID as `crypto.randomUUID()` writes it. */
export const UUID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A new user's id. */
export function randomUserId(): string {
  return crypto.randomUUID();
}

/** A share code no test used yet. */
export function randomShareCode(): string {
  return `ruta-${crypto.randomUUID().slice(0, 8)}`;
}

/** An email address no test used yet. */
export function randomEmail(): string {
  return `viajero-${crypto.randomUUID().slice(0, 8)}@ejemplo.mx`;
}

/** A valid body for `POST /api/turismo/ticket`, with a new share code and email. */
export function ticketBody(overrides: Record<string, unknown> = {}) {
  return {
    name: "María José Ñúñez",
    email: randomEmail(),
    shareCode: randomShareCode(),
    phone: "+52 (33) 1234-5678",
    ...overrides,
  };
}

/** A ticket to store with `saveTicket`, with a new share code and email. */
export function randomTicket(overrides: Partial<Ticket> = {}): Ticket {
  return {
    shareCode: randomShareCode(),
    name: "Ana Lucía Pérez",
    email: randomEmail(),
    phone: "+52 33 1234 5678",
    wpId: 7,
    userId: null,
    createdAt: "2026-11-20T18:00:00.000Z",
    ...overrides,
  };
}

/**
 * Signs a staff member in as `deno task staff-link` and the link's button
 * do; returns the `Cookie` header of their staff session.
 */
export async function signInStaff(
  ctx: TestContext,
  { email = "ana@municipio.gob.mx", role = "admin" }: {
    email?: string;
    role?: StaffRole;
  } = {},
): Promise<string> {
  const { url } = await createStaffSignInLink(ctx.deps.kv, {
    email,
    role,
    baseUrl: "http://localhost",
    now: ctx.clock.now(),
  });
  const res = await ctx.app.request(new URL(url).pathname, {
    method: "POST",
    headers: {
      origin: "http://localhost",
      "content-type": "application/x-www-form-urlencoded",
    },
  });
  assert.equal(res.status, 303, await res.text());
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("staff="));
  assert.ok(cookie, "the staff cookie is set");
  return cookie.split(";")[0];
}
