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
 * round. After the first `/healthz`, and after the first page, the process
 * idles for {@linkcode SETTLE_MS} and its RSS is read.
 *
 * Share cards are drawn when a route changes and stored in KV, so the card a
 * link preview asks for after a cold start was written before it. Before
 * the rounds, a service process makes one route as a tourist does (a new
 * user checks in at {@linkcode ROUTE_VISITS} attractions and makes a ticket:
 * the card is drawn on that write and stored), then stops. Each round then
 * starts the service (the start task's way, every default) and, as soon as
 * `/healthz` answers, asks for that card as a link preview would: the time
 * from spawn to its PNG (against the bare server's first answer), the first
 * request's own time against {@linkcode WARM_REPEATS} repeats in the same
 * process, and the RSS after it; and a start whose first request is that
 * route's page, followed at once by the card the page links.
 *
 * Last, {@linkcode IDLE_OUT_RUNS} starts on every default: the first page,
 * the RSS {@linkcode SETTLE_MS} later; then a new tourist makes a ticket and
 * its card is asked for (the render worker starts to draw it); the RSS
 * then, and again {@linkcode IDLE_OUT_MARGIN_MS} after the worker's default
 * idle time (`RENDER_WORKER_IDLE_SECONDS` unset: {@linkcode DEFAULT_IDLE_MS}),
 * when it has left.
 */
import { DEFAULT_IDLE_MS } from "@/lib/og/pool.ts";
import { DATA_PATH, SERVER_CORE } from "./config.ts";
import { seed } from "./fixtures.ts";
import {
  getFreePort,
  readMemory,
  readStartCommand,
  readThreads,
  serviceEnv,
  spawn,
  type Started,
  stop,
} from "./processes.ts";
import {
  checkIn,
  createTicket,
  etagOfKey,
  fetchCard,
  newTourist,
  sleep,
  type Tourist,
  waitForStoredCard,
} from "./tourists.ts";

/** How long a started process idles before its RSS is read. */
export const SETTLE_MS = 3_000;
/** Requests for the same stored card after the first one, in the same process. */
export const WARM_REPEATS = 5;
/** Check-ins of the route whose card is written before the starts. */
export const ROUTE_VISITS = 5;
/** Starts that wait for the render worker to leave (each about half a minute). */
export const IDLE_OUT_RUNS = 2;
/** Waited past the worker's idle time before the RSS is read. */
export const IDLE_OUT_MARGIN_MS = 5_000;
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
  /** RSS after the first page (`/`) and {@linkcode SETTLE_MS} idle (the bare server: after its first answer). */
  idleAfterPageMiB: Partial<Record<Mode, number[]>>;
  cards: {
    /** The route whose card was written before the starts. */
    written: { visits: number; drawMs: number; bytes: number };
    /** Spawn to the end of that card's PNG, asked for as soon as `/healthz` answered. */
    spawnToPngMs: number[];
    /** That first request's own time. */
    firstMs: number[];
    /** The median of {@linkcode WARM_REPEATS} repeats in the same process. */
    warmMs: number[];
    /** RSS right after the first card. */
    afterFirstMiB: number[];
    /** The route page as the first request, then the card it links, at once. */
    afterPageMs: number[];
    /** First answers that were not a 200 with the stored card's ETag. */
    mismatches: number;
  };
  /** RSS after the first page, with the worker drawing, and after it left. */
  idleOut: {
    idleMs: number;
    afterPageMiB: number[];
    withWorkerMiB: number[];
    afterWorkerMiB: number[];
    /** Threads of the process after the page, with the worker, after it left. */
    threads: [number, number, number][];
    /** The new route's card, asked for right after its ticket. */
    cardMs: number[];
  };
}

interface ColdFixtures {
  kvPath: string;
  secret: Uint8Array;
  guideCodes: string[];
  /** The share code of the route whose card is written before the starts. */
  routeCode: string;
  /** Its stored card's ETag. */
  routeEtag: string;
}

/** Measures `starts` rounds of fresh starts; every process is stopped by its PID. */
export async function measureColdStarts(
  { dir, starts, guards = false }: {
    dir: string;
    starts: number;
    /**
     * The guards' run: the bare server and the start task only, first
     * `/healthz` and first page (with idle RSS after each); no Deploy or
     * whole-task starts, no first verify-visit, no card written before.
     */
    guards?: boolean;
  },
): Promise<ColdStartPhase> {
  console.info(`Cold starts: ${starts} rounds...`);
  const kvPath = `${dir}/cold-start.kv`;
  const seeded = await seed(kvPath, { coldCodes: [] });
  const base = {
    kvPath,
    secret: seeded.secret,
    guideCodes: seeded.codes,
    routeCode: `escrita-${crypto.randomUUID().slice(0, 6)}`,
  };
  const written = guards
    ? { etag: "", drawMs: NaN, bytes: 0 }
    : await writeRoute(base);
  const fixtures: ColdFixtures = { ...base, routeEtag: written.etag };
  if (!guards) {
    console.info(
      `  route ${fixtures.routeCode} written before the starts: ${ROUTE_VISITS} check-ins and a ticket, its card drawn and stored ${
        written.drawMs.toFixed(0)
      } ms after the ticket`,
    );
  }
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
    idleAfterPageMiB: {},
    cards: {
      written: {
        visits: ROUTE_VISITS,
        drawMs: written.drawMs,
        bytes: written.bytes,
      },
      spawnToPngMs: [],
      firstMs: [],
      warmMs: [],
      afterFirstMiB: [],
      afterPageMs: [],
      mismatches: 0,
    },
    idleOut: {
      idleMs: DEFAULT_IDLE_MS,
      afterPageMiB: [],
      withWorkerMiB: [],
      afterWorkerMiB: [],
      threads: [],
      cardMs: [],
    },
  };
  const runs: [Mode, FirstRequest][] = guards
    ? [["bare", "healthz"], ["start", "healthz"], ["start", "page"]]
    : [
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
      if (rssMiB !== undefined) {
        const into = first === "page" ? phase.idleAfterPageMiB : phase.idleMiB;
        (into[mode] ??= []).push(rssMiB);
      }
    }
    if (!guards) await measureCards(fixtures, phase);
    console.info(
      `  round ${round + 1}: healthz bare ${
        last(phase.firstMs.bare.healthz)
      } / start ${last(phase.firstMs.start.healthz)} / deploy ${
        last(phase.firstMs.deploy.healthz)
      } ms; page start ${
        last(phase.firstMs.start.page)
      } ms; written card: spawn to PNG ${
        last(phase.cards.spawnToPngMs)
      } ms, first ${last(phase.cards.firstMs)} / warm ${
        last(phase.cards.warmMs)
      } ms; idle RSS bare ${last(phase.idleMiB.bare)} / start ${
        last(phase.idleMiB.start)
      } MiB, after the first page ${last(phase.idleAfterPageMiB.start)} MiB`,
    );
  }
  for (
    let run = 0;
    run < (guards ? 0 : Math.min(IDLE_OUT_RUNS, starts));
    run++
  ) {
    await measureIdleOut(fixtures, phase);
    console.info(
      `  worker idle-out ${run + 1}: RSS after the first page ${
        last(phase.idleOut.afterPageMiB)
      }, drawing ${last(phase.idleOut.withWorkerMiB)}, ${
        (DEFAULT_IDLE_MS + IDLE_OUT_MARGIN_MS) / 1000
      } s later ${last(phase.idleOut.afterWorkerMiB)} MiB (threads ${
        phase.idleOut.threads.at(-1)?.join(" → ")
      })`,
    );
  }
  return phase;
}

function last(values: number[] | undefined): string {
  const value = values?.at(-1);
  return value === undefined ? "–" : value.toFixed(0);
}

/**
 * Makes `routeCode`'s route on a service process as a tourist does (check-ins,
 * then the ticket, whose write draws the card), waits for the card in KV and
 * checks the service serves it as stored (a 304 to its ETag); stops the
 * process. The time from the ticket's answer to the stored card.
 */
async function writeRoute(
  fixtures: Omit<ColdFixtures, "routeEtag">,
): Promise<{ etag: string; drawMs: number; bytes: number }> {
  const { process, url, spawnedAt } = await launch("start", fixtures);
  const kv = await Deno.openKv(fixtures.kvPath);
  try {
    await pollFirst200(process, url, spawnedAt, {
      path: "/healthz",
      init: {},
    });
    const tourist = await newTourist(fixtures.secret);
    for (const code of fixtures.guideCodes.slice(0, ROUTE_VISITS)) {
      await checkIn(url, tourist, code);
    }
    await createTicket(url, tourist, fixtures.routeCode);
    const stored = await waitForStoredCard(kv, fixtures.routeCode);
    if (!stored) {
      throw new Error(
        `the card of ${fixtures.routeCode} was not stored within a minute of its ticket:
${process.log.join("")}`,
      );
    }
    const etag = etagOfKey(stored.key);
    const check = await fetchCard(url, fixtures.routeCode, {
      ifNoneMatch: etag,
    });
    if (check.status !== 304) {
      throw new Error(
        `the stored card of ${fixtures.routeCode} is not the current one (${check.status} to its ETag)`,
      );
    }
    const { bytes } = await fetchCard(url, fixtures.routeCode);
    return { etag, drawMs: stored.ms, bytes };
  } finally {
    kv.close();
    await stopTree(process);
  }
}

/** Spawns `mode` on the server core; the process and its URL. */
async function launch(
  mode: Mode,
  fixtures: { kvPath: string },
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
  const { userId, authorization } = await newTourist(fixtures.secret);
  return {
    path: "/api/turismo/verify-visit",
    init: {
      method: "POST",
      headers: { "content-type": "application/json", authorization },
      body: JSON.stringify({ code: fixtures.guideCodes[0], userId }),
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

/**
 * One start: the time to the first 200 of `first`; after `/healthz` or the
 * first page, the RSS {@linkcode SETTLE_MS} later (the bare server answers
 * both alike, so its page start is not read again).
 */
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
    const settles = mode !== "task" &&
      (first === "healthz" || (first === "page" && mode !== "bare"));
    if (settles) {
      await sleep(SETTLE_MS);
      rssMiB = (await readMemory(process.child.pid)).rssMiB;
    }
    return { ms, rssMiB };
  } finally {
    await stopTree(process);
  }
}

/** The median of `values`; NaN when there are none. */
export function median(values: number[] | undefined): number {
  if (!values?.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The card written before the start, as `deno task start` runs main.ts: a
 * link preview's request as soon as `/healthz` answers (spawn to PNG, the
 * request's own time, {@linkcode WARM_REPEATS} repeats); then a start whose
 * first request is the route's page, followed at once by the card it links.
 */
async function measureCards(
  fixtures: ColdFixtures,
  phase: ColdStartPhase,
): Promise<void> {
  const { cards } = phase;
  {
    const { process, url, spawnedAt } = await launch("start", fixtures);
    try {
      await pollFirst200(process, url, spawnedAt, {
        path: "/healthz",
        init: {},
      });
      const first = await fetchCard(url, fixtures.routeCode);
      cards.spawnToPngMs.push(performance.now() - spawnedAt);
      cards.firstMs.push(first.ms);
      if (first.status !== 200 || first.etag !== fixtures.routeEtag) {
        cards.mismatches++;
      }
      cards.afterFirstMiB.push((await readMemory(process.child.pid)).rssMiB);
      const warm: number[] = [];
      for (let i = 0; i < WARM_REPEATS; i++) {
        const again = await fetchCard(url, fixtures.routeCode);
        if (again.status !== 200) {
          throw new Error(`the written card answered ${again.status}`);
        }
        warm.push(again.ms);
      }
      cards.warmMs.push(median(warm));
    } finally {
      await stopTree(process);
    }
  }
  {
    const { process, url, spawnedAt } = await launch("start", fixtures);
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
      cards.afterPageMs.push(
        await timeGet(`${url}${image.pathname}${image.search}`),
      );
    } finally {
      await stopTree(process);
    }
  }
}

/**
 * A start on every default: its first page and the RSS {@linkcode SETTLE_MS}
 * later; a new tourist's ticket (its card drawn on the write, the worker
 * started for it) and that card asked for at once; the RSS then, and
 * {@linkcode IDLE_OUT_MARGIN_MS} after the worker's idle time.
 */
async function measureIdleOut(
  fixtures: ColdFixtures,
  phase: ColdStartPhase,
): Promise<void> {
  const { idleOut } = phase;
  const { process, url, spawnedAt } = await launch("start", fixtures);
  const pid = process.child.pid;
  try {
    await pollFirst200(process, url, spawnedAt, { path: "/", init: {} });
    await sleep(SETTLE_MS);
    idleOut.afterPageMiB.push((await readMemory(pid)).rssMiB);
    const threadsAfterPage = await readThreads(pid);
    const tourist: Tourist = await newTourist(fixtures.secret);
    const code = `nueva-${crypto.randomUUID().slice(0, 8)}`;
    await createTicket(url, tourist, code);
    const card = await fetchCard(url, code);
    if (card.status !== 200) {
      throw new Error(`a new route's card answered ${card.status}`);
    }
    idleOut.cardMs.push(card.ms);
    idleOut.withWorkerMiB.push((await readMemory(pid)).rssMiB);
    const threadsWithWorker = await readThreads(pid);
    await sleep(DEFAULT_IDLE_MS + IDLE_OUT_MARGIN_MS);
    idleOut.afterWorkerMiB.push((await readMemory(pid)).rssMiB);
    idleOut.threads.push([
      threadsAfterPage,
      threadsWithWorker,
      await readThreads(pid),
    ]);
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
