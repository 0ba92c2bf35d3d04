/**
 * The cold-start phase: fresh processes of the service, each timed from the
 * moment it is spawned to the first 200 of one request, against a bare
 * `Deno.serve` answering "ok" (bench/bare_server.ts) started the same way in
 * the same run. Deno Deploy starts an instance when a request arrives and
 * stops it when idle, so this is what the first visitor after a quiet spell
 * waits for.
 *
 * The service is started three ways:
 *
 * - `start`: main.ts as `deno task start` runs it (the task's environment
 *   and V8 flags, read from deno.json);
 * - `deploy`: `deno run -A main.ts` with `DENO_DEPLOYMENT_ID` set, as Deno
 *   Deploy runs the entrypoint (no runtime flags there);
 * - `task`: the whole `deno task start`, its build check included (the
 *   first `/healthz` only).
 *
 * Each start answers exactly one kind of first request (`/healthz`, the home
 * page, or a verify-visit with a new user), polled every millisecond until
 * the server listens; the modes take turns in an order that rotates every
 * round. After the first `/healthz` the process idles for
 * {@linkcode SETTLE_MS} and its RSS is read. Then the share card: a start
 * whose first `/healthz` is followed at once by a card never rendered
 * before, then by {@linkcode WARM_CARDS} more (rendered by the now warm
 * worker); and, for each `RENDER_WORKER_START`, starts whose first request
 * is a route page, followed by the card that page links, at once (as a
 * link preview fetches it) or {@linkcode CARD_DELAY_MS} later (the RSS
 * read just before: what the worker started ahead costs while idle).
 */
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { DATA_PATH, SERVER_CORE } from "./config.ts";
import { seed } from "./fixtures.ts";
import {
  getFreePort,
  readMemory,
  readStartCommand,
  serviceEnv,
  spawn,
  type Started,
  stop,
} from "./processes.ts";

/** How long a started process idles before its RSS is read. */
export const SETTLE_MS = 3_000;
/** New cards asked for after the first one, rendered by a warm worker. */
export const WARM_CARDS = 5;
/** How long after the route page its card is asked for in the delayed runs. */
export const CARD_DELAY_MS = 1_500;
/** The render worker's start policies (lib/og/pool.ts), the default first. */
export const WORKER_STARTS = ["first-page", "first-card", "boot"] as const;
export type WorkerStart = typeof WORKER_STARTS[number];
/** The longest a start may take before the run fails. */
const START_DEADLINE_MS = 60_000;

export type FirstRequest = "healthz" | "page" | "verify";
export type Mode = "bare" | "start" | "deploy" | "task";

/** One start's figures, in milliseconds and MiB. */
export interface ColdStartPhase {
  starts: number;
  settleMs: number;
  /** The start task's command (env, flags), as it ran. */
  startCommand: string;
  /** Times to the first 200, by mode and first request. */
  firstMs: Record<Mode, Partial<Record<FirstRequest, number[]>>>;
  /** RSS after the first `/healthz` and {@linkcode SETTLE_MS} idle. */
  idleMiB: Partial<Record<Mode, number[]>>;
  cards: {
    /** The first card after start (right after the first `/healthz`), on the default policy. */
    firstMs: number[];
    /** The median of the next {@linkcode WARM_CARDS} new cards of each start. */
    warmMs: number[];
    /** RSS right after the first card. */
    afterFirstMiB: number[];
    /** By worker start policy: the card a route page links, asked for at once after that page (the first request). */
    afterPageMs: Record<WorkerStart, number[]>;
    /** The same, {@linkcode CARD_DELAY_MS} after the page. */
    afterPageDelayedMs: Record<WorkerStart, number[]>;
    /** RSS {@linkcode CARD_DELAY_MS} after the first page, before its card. */
    afterPageMiB: Record<WorkerStart, number[]>;
  };
}

interface ColdFixtures {
  kvPath: string;
  secret: Uint8Array;
  guideCode: string;
  /** Share codes whose cards no start has asked for yet. */
  cardCodes: string[];
  /** The share code of the route page (its card is new to every process). */
  routeCode: string;
}

/** Measures `starts` rounds of fresh starts; every process is stopped by its PID. */
export async function measureColdStarts(
  { dir, starts }: { dir: string; starts: number },
): Promise<ColdStartPhase> {
  console.info(`Cold starts: ${starts} rounds...`);
  const fixtures = await seedColdKv(dir, starts);
  const start = await readStartCommand();
  const phase: ColdStartPhase = {
    starts,
    settleMs: SETTLE_MS,
    startCommand: [
      ...Object.entries(start.env).map(([k, v]) => `${k}=${v}`),
      "deno run",
      ...start.flags,
      "main.ts",
    ].join(" "),
    firstMs: { bare: {}, start: {}, deploy: {}, task: {} },
    idleMiB: {},
    cards: {
      firstMs: [],
      warmMs: [],
      afterFirstMiB: [],
      afterPageMs: { "first-page": [], "first-card": [], boot: [] },
      afterPageDelayedMs: { "first-page": [], "first-card": [], boot: [] },
      afterPageMiB: { "first-page": [], "first-card": [], boot: [] },
    },
  };
  const runs: [Mode, FirstRequest][] = [
    ["bare", "healthz"],
    ["start", "healthz"],
    ["deploy", "healthz"],
    ["task", "healthz"],
    ["bare", "page"],
    ["start", "page"],
    ["deploy", "page"],
    ["bare", "verify"],
    ["start", "verify"],
    ["deploy", "verify"],
  ];
  for (let round = 0; round < starts; round++) {
    // The same runs each round, in an order that rotates.
    const offset = round % runs.length;
    for (
      const [mode, first] of [...runs.slice(offset), ...runs.slice(0, offset)]
    ) {
      const { ms, rssMiB } = await timeFirstRequest(fixtures, mode, first);
      (phase.firstMs[mode][first] ??= []).push(ms);
      if (rssMiB !== undefined) (phase.idleMiB[mode] ??= []).push(rssMiB);
    }
    await measureCards(fixtures, phase);
    console.info(
      `  round ${round + 1}: healthz bare ${
        last(phase.firstMs.bare.healthz)
      } / start ${last(phase.firstMs.start.healthz)} / deploy ${
        last(phase.firstMs.deploy.healthz)
      } ms; page start ${last(phase.firstMs.start.page)} ms; card first ${
        last(phase.cards.firstMs)
      } / warm ${last(phase.cards.warmMs)} ms; idle RSS bare ${
        last(phase.idleMiB.bare)
      } / start ${last(phase.idleMiB.start)} MiB`,
    );
  }
  return phase;
}

function last(values: number[] | undefined): string {
  const value = values?.at(-1);
  return value === undefined ? "–" : value.toFixed(0);
}

/** A KV file with the route page's tourist, a ticket per card to ask for, and the signing secret. */
async function seedColdKv(dir: string, starts: number): Promise<ColdFixtures> {
  const kvPath = `${dir}/cold-start.kv`;
  const run = crypto.randomUUID().slice(0, 6);
  const cardCodes = Array.from(
    { length: starts * (WARM_CARDS + 1) + 1 },
    (_, i) => `arranque-${run}-${i}`,
  );
  const fixtures = await seed(kvPath, { coldCodes: cardCodes });
  return {
    kvPath,
    secret: fixtures.secret,
    guideCode: fixtures.codes[0],
    cardCodes,
    routeCode: cardCodes.pop()!,
  };
}

/** Spawns `mode` on the server core; the process and its URL. */
async function launch(
  mode: Mode,
  fixtures: ColdFixtures,
  extraEnv: Record<string, string> = {},
): Promise<{ process: Started; url: string; spawnedAt: number }> {
  const port = await getFreePort();
  const url = `http://127.0.0.1:${port}`;
  if (mode === "bare") {
    const spawnedAt = performance.now();
    const process = spawn("bare server", SERVER_CORE, [
      "run",
      "-A",
      "bench/bare_server.ts",
      String(port),
    ]);
    return { process, url, spawnedAt };
  }
  const env = serviceEnv({
    port,
    kvPath: fixtures.kvPath,
    dataPath: DATA_PATH,
    // A model is configured (its client is part of the start), never called.
    modelUrl: "http://127.0.0.1:9/v1",
  });
  Object.assign(env, extraEnv);
  if (mode === "deploy") {
    const spawnedAt = performance.now();
    const process = spawn("service (as Deploy runs it)", SERVER_CORE, [
      "run",
      "-A",
      "main.ts",
    ], { ...env, DENO_DEPLOYMENT_ID: "bench-cold-start" });
    return { process, url, spawnedAt };
  }
  if (mode === "task") {
    const spawnedAt = performance.now();
    const process = spawn(
      "deno task start",
      SERVER_CORE,
      ["task", "start"],
      env,
    );
    return { process, url, spawnedAt };
  }
  const start = await readStartCommand();
  const spawnedAt = performance.now();
  const process = spawn("service (start task)", SERVER_CORE, [
    "run",
    ...start.flags,
    "main.ts",
  ], { ...env, ...start.env });
  return { process, url, spawnedAt };
}

/** Stops a process and whatever it started (`deno task` runs its commands as children). */
async function stopTree(process: Started): Promise<void> {
  for (const pid of await readDescendants(process.child.pid)) {
    try {
      Deno.kill(pid, "SIGTERM");
    } catch {
      // ended meanwhile
    }
  }
  await stop(process);
}

async function readDescendants(pid: number): Promise<number[]> {
  const out: number[] = [];
  let children: number[] = [];
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const text = await Deno.readTextFile(
        `/proc/${pid}/task/${task.name}/children`,
      ).catch(() => "");
      children.push(...text.split(/\s+/).filter(Boolean).map(Number));
    }
  } catch {
    children = [];
  }
  for (const child of children) {
    out.push(...await readDescendants(child), child);
  }
  return out;
}

/** What one request is: its path and, for a verify-visit, a new user's POST. */
async function describeRequest(
  fixtures: ColdFixtures,
  first: FirstRequest | "route",
): Promise<{ path: string; init: RequestInit }> {
  if (first === "healthz") return { path: "/healthz", init: {} };
  if (first === "page") return { path: "/", init: {} };
  if (first === "route") {
    return { path: `/ruta/${fixtures.routeCode}`, init: {} };
  }
  const userId = crypto.randomUUID();
  const token = await signOwnToken(fixtures.secret, userId, {
    expiresInSeconds: 600,
  });
  return {
    path: "/api/turismo/verify-visit",
    init: {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ code: fixtures.guideCode, userId }),
    },
  };
}

/**
 * Asks `url + path` every millisecond until it answers (connections are
 * refused until the server listens); the time from `spawnedAt` to the end
 * of the first answer's body, which must be a 200.
 */
async function pollFirst200(
  process: Started,
  url: string,
  spawnedAt: number,
  { path, init }: { path: string; init: RequestInit },
): Promise<{ ms: number; body: Uint8Array }> {
  let exited = false;
  process.child.status.then(() => exited = true);
  while (performance.now() - spawnedAt < START_DEADLINE_MS && !exited) {
    let res: Response;
    try {
      res = await fetch(`${url}${path}`, init);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    const body = new Uint8Array(await res.arrayBuffer());
    const ms = performance.now() - spawnedAt;
    if (res.status !== 200) {
      throw new Error(
        `${process.name}: ${path} answered ${res.status} first: ${
          new TextDecoder().decode(body).slice(0, 300)
        }\n${process.log.join("")}`,
      );
    }
    return { ms, body };
  }
  throw new Error(
    `${process.name} did not answer ${path}:\n${process.log.join("")}`,
  );
}

/** One start: the time to the first 200 of `first`; after `/healthz`, the idle RSS. */
async function timeFirstRequest(
  fixtures: ColdFixtures,
  mode: Mode,
  first: FirstRequest,
): Promise<{ ms: number; rssMiB?: number }> {
  const request = await describeRequest(fixtures, first);
  const { process, url, spawnedAt } = await launch(mode, fixtures);
  try {
    const { ms } = await pollFirst200(process, url, spawnedAt, request);
    let rssMiB: number | undefined;
    if (first === "healthz" && mode !== "task") {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      rssMiB = (await readMemory(process.child.pid)).rssMiB;
    }
    return { ms, rssMiB };
  } finally {
    await stopTree(process);
  }
}

/** A GET timed from request to the end of its body; it must be a 200. */
async function timeGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

/** The median of `values`; NaN when there are none. */
export function median(values: number[] | undefined): number {
  if (!values?.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The share card after a start as `deno task start` runs main.ts: the first
 * card right after the first `/healthz`, then warm ones; and for each
 * worker start policy, the card a route page links, at once and
 * {@linkcode CARD_DELAY_MS} after that page.
 */
async function measureCards(
  fixtures: ColdFixtures,
  phase: ColdStartPhase,
): Promise<void> {
  const codes = fixtures.cardCodes.splice(0, WARM_CARDS + 1);
  {
    const { process, url, spawnedAt } = await launch("start", fixtures);
    try {
      await pollFirst200(process, url, spawnedAt, {
        path: "/healthz",
        init: {},
      });
      const card = (code: string) => `${url}/api/turismo/og/${code}`;
      phase.cards.firstMs.push(await timeGet(card(codes[0])));
      phase.cards.afterFirstMiB.push(
        (await readMemory(process.child.pid)).rssMiB,
      );
      const warm: number[] = [];
      for (const code of codes.slice(1)) warm.push(await timeGet(card(code)));
      phase.cards.warmMs.push(median(warm));
    } finally {
      await stopTree(process);
    }
  }
  for (const policy of WORKER_STARTS) {
    for (const delayed of [false, true]) {
      const { process, url, spawnedAt } = await launch("start", fixtures, {
        RENDER_WORKER_START: policy,
      });
      try {
        const { body } = await pollFirst200(
          process,
          url,
          spawnedAt,
          await describeRequest(fixtures, "route"),
        );
        const linked = /<meta property="og:image" content="([^"]+)"/.exec(
          new TextDecoder().decode(body),
        )?.[1];
        if (!linked) throw new Error("the route page links no og:image");
        const image = new URL(linked.replaceAll("&amp;", "&"));
        if (delayed) {
          await new Promise((resolve) => setTimeout(resolve, CARD_DELAY_MS));
          phase.cards.afterPageMiB[policy].push(
            (await readMemory(process.child.pid)).rssMiB,
          );
        }
        const ms = await timeGet(`${url}${image.pathname}${image.search}`);
        (delayed ? phase.cards.afterPageDelayedMs : phase.cards.afterPageMs)[
          policy
        ].push(ms);
      } finally {
        await stopTree(process);
      }
    }
  }
}
