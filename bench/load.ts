/**
 * The load harness (`deno task bench:load`): starts the service as its own
 * process on 127.0.0.1 (a fresh KV file, a stand-in model that answers at
 * once), drives each endpoint with `wrk` and compares it, in the same run,
 * with its physical limit:
 *
 * - reads (`/healthz`, pages, the share card): a plain `Deno.serve` answering
 *   the very bytes and headers the service answered (bench/baseline_server.ts);
 * - writes (verify-visit, rate-visit, ticket) and chat: the endpoint's own
 *   library call in a loop without HTTP on a fresh KV file (bench/direct.ts).
 *
 * The server side runs on core 0 (`taskset -c 0`), wrk and the stand-in
 * model on core 1; service and limit runs alternate within each round and
 * their order flips every round. It also measures the per-IP budget's cost
 * (a second service with IP_BUDGET_PER_MINUTE=300), `/healthz` latency
 * while share cards render, and each server's peak memory (VmHWM). The
 * figures go to stdout and, unless `--no-doc`, into docs/PERFORMANCE.md
 * between the `bench:load` markers.
 *
 *   deno task bench:load [--duration=5] [--rounds=2] [--connections=32]
 *                        [--only=healthz,verify,...] [--no-doc]
 *
 * Every process it starts is stopped by its PID, also on failure or Ctrl-C.
 */
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import type { DirectResult } from "./direct.ts";
import { seedRouteUser } from "./seed.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LUA_DIR = `${ROOT}/bench/lua`;
const DATA_PATH = `${ROOT}/data/turismo.json`;
const DOC_PATH = `${ROOT}/docs/PERFORMANCE.md`;
const START_MARK = "<!-- bench:load:start -->";
const END_MARK = "<!-- bench:load:end -->";
const SERVER_CORE = "0";
const CLIENT_CORE = "1";
/** The share code of the page and card measured warm. */
const ROUTE_CODE = "bench-ruta";
const COLD_CODES_PER_RUN = 400;
const VERIFY_USERS_PER_RUN = 2_000;
const RATE_USERS = 60;
/** Client addresses of the budget row with returning clients. */
const BUDGET_POOL = 8_000;

// ---------------------------------------------------------------------------
// Options.

interface Options {
  duration: number;
  rounds: number;
  connections: number;
  writeConnections: number;
  only?: Set<string>;
  writeDoc: boolean;
}

function parseOptions(args: string[]): Options {
  const get = (name: string) =>
    args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const only = get("only");
  return {
    duration: Number(get("duration") ?? 5),
    rounds: Number(get("rounds") ?? 2),
    connections: Number(get("connections") ?? 32),
    writeConnections: Number(get("write-connections") ?? 16),
    only: only ? new Set(only.split(",")) : undefined,
    writeDoc: !args.includes("--no-doc"),
  };
}

// ---------------------------------------------------------------------------
// Processes: every one started is remembered and stopped by its PID.

interface Started {
  name: string;
  child: Deno.ChildProcess;
  log: string[];
}

const started: Started[] = [];
let pinning = true;

function pinned(core: string, command: string, args: string[]) {
  return pinning
    ? { command: "taskset", args: ["-c", core, command, ...args] }
    : { command, args };
}

function spawn(
  name: string,
  core: string,
  args: string[],
  env: Record<string, string> = {},
): Started {
  const { command, args: argv } = pinned(core, Deno.execPath(), args);
  const child = new Deno.Command(command, {
    args: argv,
    cwd: ROOT,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const process: Started = { name, child, log: [] };
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipeTo(
      new WritableStream({
        write(chunk) {
          process.log.push(decoder.decode(chunk));
          if (process.log.length > 200) process.log.shift();
        },
      }),
    ).catch(() => {});
  }
  started.push(process);
  return process;
}

async function stop(process: Started): Promise<void> {
  const index = started.indexOf(process);
  if (index === -1) return;
  started.splice(index, 1);
  try {
    process.child.kill("SIGTERM");
  } catch {
    return; // already ended
  }
  const ended = await Promise.race([
    process.child.status.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000)),
  ]);
  if (!ended) {
    try {
      process.child.kill("SIGKILL");
    } catch {
      // ended meanwhile
    }
    await process.child.status;
  }
}

async function stopAll(): Promise<void> {
  await Promise.all([...started].map(stop));
}

async function getFreePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return await Promise.resolve(port);
}

async function waitForHttp(process: Started, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let exited = false;
  process.child.status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await res.body?.cancel();
      if (res.status < 500) return;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${process.name} did not answer ${url}:\n${process.log.join("")}`,
  );
}

/** Peak and current resident memory of a process, in MiB. */
async function readMemory(
  pid: number,
): Promise<{ hwmMiB: number; rssMiB: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { hwmMiB: kib("VmHWM") / 1024, rssMiB: kib("VmRSS") / 1024 };
}

async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stderr: "piped" })
    .output();
  return new TextDecoder().decode(output.stdout).trim();
}

async function has(command: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", {
      args: ["-c", `command -v ${command}`],
      stdout: "null",
    }).output()).success;
  } catch {
    return false;
  }
}

/** wrk, installed with apt-get when missing and possible. */
async function ensureWrk(): Promise<void> {
  if (await has("wrk")) return;
  const isRoot = Deno.uid?.() === 0;
  if (isRoot && await has("apt-get")) {
    console.info("Installing wrk (apt-get install -y wrk)...");
    const result = await new Deno.Command("apt-get", {
      args: ["install", "-y", "wrk"],
      stdout: "null",
    }).output();
    if (result.success && await has("wrk")) return;
  }
  throw new Error(
    "wrk is not installed: run `sudo apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`, then again `deno task bench:load`",
  );
}

// ---------------------------------------------------------------------------
// Measurements.

/** One measured run: requests a second and latency, whatever produced it. */
interface Figure {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx/3xx, or failed calls. */
  errors: number;
}

interface WrkRun {
  url: string;
  script: string;
  args?: string[];
  connections: number;
  duration: number;
}

async function runWrk(
  { url, script, args = [], connections, duration }: WrkRun,
): Promise<Figure> {
  const { command, args: argv } = pinned(CLIENT_CORE, "wrk", [
    "-t1",
    `-c${connections}`,
    `-d${duration}s`,
    "--timeout",
    "10s",
    "-s",
    `${LUA_DIR}/${script}`,
    url,
    "--",
    ...args,
  ]);
  const output = await new Deno.Command(command, {
    args: argv,
    env: { BENCH_LUA_DIR: LUA_DIR },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const line = /WRK_JSON (\{.*\})/.exec(text)?.[1];
  if (!output.success || !line) {
    throw new Error(
      `wrk failed for ${url}:\n${text}\n${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  const r = JSON.parse(line);
  return {
    rps: r.requests / (r.duration_us / 1e6),
    p50Ms: r.p50_us / 1000,
    p99Ms: r.p99_us / 1000,
    requests: r.requests,
    errors: r.status + r.connect + r.read + r.write + r.timeout,
  };
}

async function runDirect(
  op: string,
  kvPath: string,
  seconds: number,
  concurrency: number,
  modelUrl: string,
): Promise<Figure> {
  const process = spawn(`direct ${op}`, SERVER_CORE, [
    "run",
    "-A",
    "bench/direct.ts",
    op,
    kvPath,
    String(seconds),
    String(concurrency),
    modelUrl,
  ]);
  const status = await process.child.status;
  started.splice(started.indexOf(process), 1);
  const line = process.log.join("").split("\n").find((l) =>
    l.startsWith('{"op"')
  );
  if (!status.success || !line) {
    throw new Error(`bench/direct.ts ${op} failed:\n${process.log.join("")}`);
  }
  const r: DirectResult = JSON.parse(line);
  return {
    rps: r.rps,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    requests: r.ops,
    errors: r.errors,
  };
}

// ---------------------------------------------------------------------------
// Fixtures.

interface Fixtures {
  secret: Uint8Array;
  slugs: string[];
  codes: string[];
  rateUsers: string[];
  routeUser: string;
}

/** Seeds a fresh KV file: the route page's ticket and visits, users to rate, cold share codes. */
async function seed(
  kvPath: string,
  { coldCodes }: { coldCodes: string[] },
): Promise<Fixtures> {
  const loaded = await loadTourismData(DATA_PATH);
  const slugs = loaded.data.attractions.map((a) => a.slug);
  const codeBySlug = new Map(
    [...loaded.slugByGuideCode].map(([code, slug]) => [slug, code]),
  );
  const kv = await openKv(kvPath);
  try {
    const { secret } = await getOrCreateSigningSecret(kv);
    const now = new Date();
    const routeUser = await seedRouteUser(kv, slugs, {
      now,
      totalAttractions: loaded.totalAttractions,
    });
    const ticket = (shareCode: string, name: string, wpId: number) =>
      saveTicket(kv, {
        shareCode,
        name,
        email: `${shareCode}@ejemplo.mx`,
        phone: null,
        wpId,
        userId: routeUser,
        createdAt: now.toISOString(),
      });
    await ticket(ROUTE_CODE, "María José Ñúñez", 1);
    for (const [i, code] of coldCodes.entries()) {
      await ticket(code, `Viajera ${i}`, 100 + i);
    }
    const rateUsers = Array.from(
      { length: RATE_USERS },
      () => crypto.randomUUID(),
    );
    await Promise.all(rateUsers.map(async (userId) => {
      for (const slug of slugs) {
        await recordVisit(kv, {
          userId,
          slug,
          now,
          totalAttractions: loaded.totalAttractions,
        });
      }
    }));
    return {
      secret,
      slugs,
      codes: slugs.map((slug) => codeBySlug.get(slug)!),
      rateUsers,
      routeUser,
    };
  } finally {
    kv.close();
  }
}

async function writeUsersFile(
  path: string,
  secret: Uint8Array,
  users: string[],
): Promise<void> {
  const lines = await Promise.all(
    users.map(async (id) =>
      `${id} ${await signOwnToken(secret, id, { expiresInSeconds: 7200 })}`
    ),
  );
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
}

// ---------------------------------------------------------------------------
// The plan.

interface Service {
  name: string;
  url: string;
  process: Started;
  fixtures: Fixtures;
  kvPath: string;
  /** Resident memory right after start-up. */
  startMemory: { hwmMiB: number; rssMiB: number };
}

interface Target {
  /** Row name in the tables. */
  name: string;
  /** What the limit is. */
  limitName: string;
  /** Measures the service once (a fresh data pool each call). */
  service: (service: Service, round: number) => Promise<Figure>;
  /** Measures the limit once; undefined: no limit run. */
  limit?: (round: number) => Promise<Figure>;
  /** Minimum service/limit ratio aimed for. */
  target?: number;
  /** Also measured on the service with the per-IP budget on. */
  budget?: boolean;
}

interface Row {
  name: string;
  limitName: string;
  target?: number;
  service: Figure[];
  limit: Figure[];
  budgetOn: Figure[];
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / (values.length || 1);
}

function summarize(figures: Figure[]): Figure | undefined {
  if (figures.length === 0) return undefined;
  return {
    rps: mean(figures.map((f) => f.rps)),
    p50Ms: mean(figures.map((f) => f.p50Ms)),
    p99Ms: mean(figures.map((f) => f.p99Ms)),
    requests: figures.reduce((a, f) => a + f.requests, 0),
    errors: figures.reduce((a, f) => a + f.errors, 0),
  };
}

// ---------------------------------------------------------------------------
// Main.

async function main(): Promise<void> {
  const options = parseOptions(Deno.args);
  await ensureWrk();
  if (!await has("taskset")) {
    pinning = false;
    console.warn(
      "taskset not found: running unpinned (figures vary by 10-15% on 2 cores)",
    );
  }
  const cores = navigator.hardwareConcurrency;
  if (cores < 2) pinning = false;
  const loadBefore = (await Deno.readTextFile("/proc/loadavg")).split(" ")
    .slice(0, 3).join(" ");
  const startedAt = new Date();
  const dir = await Deno.makeTempDir({ prefix: "turismo-bench-" });
  const { duration, rounds, connections, writeConnections } = options;
  const wanted = (name: string) => !options.only || options.only.has(name);
  console.info(
    `Load harness: ${duration}s runs, ${rounds} rounds, ${connections} connections (writes ${writeConnections}), ${cores} cores, temp ${dir}`,
  );

  try {
    // Cold share codes: one pool per cold run.
    const coldRuns = rounds + 2;
    const coldPools = Array.from(
      { length: coldRuns },
      (_, r) =>
        Array.from(
          { length: COLD_CODES_PER_RUN },
          (_, i) => `cold${r}-${i}-${crypto.randomUUID().slice(0, 6)}`,
        ),
    );
    const mainKv = `${dir}/service.kv`;
    const budgetKv = `${dir}/service-budget.kv`;
    console.info("Seeding the KV files...");
    const [mainFixtures, budgetFixtures] = await Promise.all([
      seed(mainKv, { coldCodes: coldPools.flat() }),
      seed(budgetKv, { coldCodes: [] }),
    ]);

    // Pages link the islands' bundle: build it if a source changed.
    const build = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/build.ts", "--if-stale"],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!build.success) {
      console.warn(
        `deno task build failed; pages are measured without their bundle:\n${
          new TextDecoder().decode(build.stderr)
        }`,
      );
    }

    const modelPort = await getFreePort();
    const model = spawn("stand-in model", CLIENT_CORE, [
      "run",
      "-A",
      "bench/stub_model.ts",
      String(modelPort),
    ]);
    const modelUrl = `http://127.0.0.1:${modelPort}/v1`;
    await waitForHttp(model, `http://127.0.0.1:${modelPort}/`);

    const startService = async (
      name: string,
      kvPath: string,
      fixtures: Fixtures,
      budget: number,
    ): Promise<Service> => {
      const port = await getFreePort();
      const process = spawn(name, SERVER_CORE, ["run", "-A", "main.ts"], {
        ...Deno.env.toObject(),
        PORT: String(port),
        LISTEN_HOST: "127.0.0.1",
        KV_PATH: kvPath,
        TOURISM_DATA: DATA_PATH,
        LOG_REQUESTS: "false",
        OPENAI_API_KEY: "x",
        OPENAI_BASE_URL: modelUrl,
        TRUST_PROXY: "true",
        IP_BUDGET_PER_MINUTE: String(budget),
        BASE_URL: "",
        WP_URL: "",
        AUTH_JWT_SECRET: "",
        AUTH_JWKS_URL: "",
        OIDC_ISSUER: "",
        DENO_DEPLOYMENT_ID: "",
      });
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(process, `${url}/healthz`);
      return {
        name,
        url,
        process,
        fixtures,
        kvPath,
        startMemory: await readMemory(process.child.pid),
      };
    };
    const service = await startService(
      "service",
      mainKv,
      mainFixtures,
      0,
    );
    const budgeted = await startService(
      "service (IP budget 300/min)",
      budgetKv,
      budgetFixtures,
      300,
    );

    // The reads' bytes, captured once and served by the baseline server.
    const attractionPath = `/turismo/atractivos/${mainFixtures.slugs[0]}`;
    // The card as the route page links it (`?v=<visits>-<badges>`), and the
    // same card without the version (which reads KV every time).
    const routePage = await (await fetch(`${service.url}/ruta/${ROUTE_CODE}`))
      .text();
    const linkedCard = /<meta property="og:image" content="([^"]+)"/.exec(
      routePage,
    )?.[1];
    if (!linkedCard) throw new Error("the route page links no og:image");
    const linkedCardUrl = new URL(linkedCard.replaceAll("&amp;", "&"));
    const readPaths = {
      healthz: "/healthz",
      ruta: `/ruta/${ROUTE_CODE}`,
      atractivo: attractionPath,
      og: `${linkedCardUrl.pathname}${linkedCardUrl.search}`,
      ogPlain: `/api/turismo/og/${ROUTE_CODE}`,
      logo: "/logo.svg",
    };
    const manifest: Record<
      string,
      { file: string; headers: Record<string, string> }
    > = {};
    const sizes: Record<string, number> = {};
    for (const [key, path] of Object.entries(readPaths)) {
      const res = await fetch(`${service.url}${path}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200) {
        throw new Error(`${path} answered ${res.status}: cannot capture it`);
      }
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        if (!["date", "content-length", "transfer-encoding"].includes(name)) {
          headers[name] = value;
        }
      });
      const file = `${dir}/capture-${key}`;
      await Deno.writeFile(file, bytes);
      manifest[path] = { file, headers };
      sizes[key] = bytes.length;
    }
    await Deno.writeTextFile(
      `${dir}/manifest.json`,
      JSON.stringify(manifest),
    );
    const baselinePort = await getFreePort();
    const baseline = spawn("baseline", SERVER_CORE, [
      "run",
      "-A",
      "bench/baseline_server.ts",
      String(baselinePort),
      `${dir}/manifest.json`,
    ]);
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    await waitForHttp(baseline, `${baselineUrl}/healthz`);
    // Warm the budgeted service's card cache too.
    await (await fetch(`${budgeted.url}${readPaths.og}`)).body?.cancel();

    let salt = 1;
    const wrk = (
      url: string,
      script: string,
      args: string[] = [],
      c = connections,
    ) =>
      runWrk({
        url,
        script,
        args: [String(salt++ % 256), ...args],
        connections: c,
        duration,
      });
    const read = (key: keyof typeof readPaths) => ({
      service: (s: Service) => wrk(`${s.url}${readPaths[key]}`, "get.lua"),
      limit: () => wrk(`${baselineUrl}${readPaths[key]}`, "get.lua"),
    });
    let usersFileCount = 0;
    const verifyUsers = async (s: Service) => {
      const file = `${dir}/users-${usersFileCount++}.txt`;
      const ids = Array.from(
        { length: VERIFY_USERS_PER_RUN },
        () => crypto.randomUUID(),
      );
      await writeUsersFile(file, s.fixtures.secret, ids);
      return file;
    };
    const codesFile = `${dir}/codes.txt`;
    await Deno.writeTextFile(codesFile, mainFixtures.codes.join("\n") + "\n");
    const slugsFile = `${dir}/slugs.txt`;
    await Deno.writeTextFile(slugsFile, mainFixtures.slugs.join("\n") + "\n");
    const rateUsersFile = (s: Service) => `${dir}/rate-users-${s.name}.txt`;
    await writeUsersFile(
      rateUsersFile(service),
      mainFixtures.secret,
      mainFixtures.rateUsers,
    );
    let coldRun = 0;
    const coldCodesFile = async () => {
      const file = `${dir}/cold-${coldRun}.txt`;
      await Deno.writeTextFile(file, coldPools[coldRun++].join("\n") + "\n");
      return file;
    };
    let directKv = 0;
    const freshKv = () => `${dir}/direct-${directKv++}.kv`;

    const allTargets: Target[] = [
      {
        name: "healthz",
        limitName: "same bytes, plain Deno.serve",
        target: undefined,
        ...read("healthz"),
      },
      {
        name: "logo",
        limitName:
          "same bytes, plain Deno.serve (framework floor: no KV, no render)",
        ...read("logo"),
      },
      {
        name: "verify",
        limitName: `recordVisit on a KV file, ${writeConnections} in flight`,
        target: 0.8,
        budget: true,
        service: async (s) =>
          wrk(
            `${s.url}/api/turismo/verify-visit`,
            "verify.lua",
            [await verifyUsers(s), codesFile],
            writeConnections,
          ),
        limit: () =>
          runDirect(
            "verify",
            freshKv(),
            duration,
            writeConnections,
            modelUrl,
          ),
      },
      {
        name: "rate",
        limitName: `rateVisit on a KV file, ${writeConnections} in flight`,
        service: (s) =>
          wrk(
            `${s.url}/api/turismo/rate-visit`,
            "rate.lua",
            [rateUsersFile(s), slugsFile],
            writeConnections,
          ),
        limit: () =>
          runDirect("rate", freshKv(), duration, writeConnections, modelUrl),
      },
      {
        name: "ticket",
        limitName: `createTicket (KV CMS), ${writeConnections} in flight`,
        service: (s) =>
          wrk(
            `${s.url}/api/turismo/ticket`,
            "ticket.lua",
            [`t${crypto.randomUUID().slice(0, 8)}`],
            writeConnections,
          ),
        limit: () =>
          runDirect("ticket", freshKv(), duration, writeConnections, modelUrl),
      },
      {
        name: "og-cold",
        limitName: "(none: every card rendered)",
        service: async (s) =>
          wrk(
            `${s.url}/api/turismo/og/x`,
            "og_cold.lua",
            [await coldCodesFile()],
            4,
          ),
      },
      {
        name: "og-cached",
        limitName: "same PNG, plain Deno.serve",
        target: 0.8,
        budget: true,
        ...read("og"),
      },
      {
        name: "og-plain",
        limitName: "same PNG, plain Deno.serve (card URL without `?v=`)",
        ...read("ogPlain"),
      },
      {
        name: "chat",
        limitName:
          `limiter + prompt + model call, no HTTP, ${connections} in flight`,
        service: (s) => wrk(`${s.url}/api/chat`, "chat.lua"),
        limit: () =>
          runDirect("chat", freshKv(), duration, connections, modelUrl),
      },
      {
        name: "ruta",
        limitName: "same HTML, plain Deno.serve",
        target: 0.5,
        budget: true,
        ...read("ruta"),
      },
      {
        name: "atractivo",
        limitName: "same HTML, plain Deno.serve",
        target: 0.5,
        budget: true,
        ...read("atractivo"),
      },
      {
        // The budget's cost when clients come back: every address makes a
        // few requests a second (under the budget), so each one is written
        // to KV every flush interval and read back.
        name: "atractivo-pool",
        limitName:
          `(budget cost only: the page for ${BUDGET_POOL} returning addresses)`,
        budget: true,
        service: (s) =>
          wrk(`${s.url}${readPaths.atractivo}`, "get.lua", [
            String(BUDGET_POOL),
          ]),
      },
    ];
    const targets = allTargets.filter((t) => wanted(t.name));

    // Warm-up: JIT and caches, not measured.
    console.info("Warming up...");
    const warmPaths: Record<string, string> = {
      ...readPaths,
      "og-cached": readPaths.og,
      "og-plain": readPaths.ogPlain,
      chat: "/api/chat",
    };
    for (const t of targets) {
      const path = warmPaths[t.name];
      if (!path) continue;
      await runWrk({
        url: `${service.url}${path}`,
        script: t.name === "chat" ? "chat.lua" : "get.lua",
        args: [String(200 + salt++)],
        connections,
        duration: 1,
      });
    }

    const rows: Row[] = targets.map((t) => ({
      name: t.name,
      limitName: t.limitName,
      target: t.target,
      service: [],
      limit: [],
      budgetOn: [],
    }));
    for (let round = 0; round < rounds; round++) {
      console.info(`Round ${round + 1} of ${rounds}`);
      for (const [i, t] of targets.entries()) {
        const row = rows[i];
        const steps: [string, () => Promise<void>][] = [
          ["service", async () => {
            row.service.push(await t.service(service, round));
          }],
        ];
        if (t.limit) {
          const limit = t.limit;
          steps.push(["limit", async () => {
            row.limit.push(await limit(round));
          }]);
        }
        if (t.budget) {
          steps.push(["budget", async () => {
            row.budgetOn.push(await t.service(budgeted, round));
          }]);
        }
        if (round % 2 === 1) steps.reverse();
        for (const [what, step] of steps) {
          await step();
          const last = (what === "service"
            ? row.service
            : what === "limit"
            ? row.limit
            : row.budgetOn).at(-1)!;
          console.info(
            `  ${t.name.padEnd(10)} ${what.padEnd(8)} ${
              last.rps.toFixed(0).padStart(7)
            } req/s  p50 ${last.p50Ms.toFixed(2)} ms  p99 ${
              last.p99Ms.toFixed(2)
            } ms  errors ${last.errors}`,
          );
        }
      }
    }

    // /healthz while share cards render: does rendering block the loop?
    let stall: { idle: Figure; during: Figure; renders: Figure } | undefined;
    if (wanted("og-cold") && coldRun < coldPools.length) {
      console.info("Measuring /healthz while cards render...");
      const idle = await runWrk({
        url: `${service.url}/healthz`,
        script: "get.lua",
        args: ["250"],
        connections: 1,
        duration,
      });
      const [renders, during] = await Promise.all([
        runWrk({
          url: `${service.url}/api/turismo/og/x`,
          script: "og_cold.lua",
          args: ["251", await coldCodesFile()],
          connections: 4,
          duration,
        }),
        runWrk({
          url: `${service.url}/healthz`,
          script: "get.lua",
          args: ["252"],
          connections: 1,
          duration,
        }),
      ]);
      stall = { idle, during, renders };
      console.info(
        `  healthz idle p50 ${idle.p50Ms.toFixed(2)} p99 ${
          idle.p99Ms.toFixed(2)
        } ms; during renders p50 ${during.p50Ms.toFixed(2)} p99 ${
          during.p99Ms.toFixed(2)
        } ms (${renders.rps.toFixed(1)} cards/s)`,
      );
    }

    // Sequential KV limit of verify-visit, for reference.
    let verifySequential: Figure | undefined;
    let verifyMemory: Figure | undefined;
    if (wanted("verify")) {
      verifySequential = await runDirect(
        "verify",
        freshKv(),
        duration,
        1,
        modelUrl,
      );
      verifyMemory = await runDirect(
        "verify",
        ":memory:",
        duration,
        writeConnections,
        modelUrl,
      );
      console.info(
        `  recordVisit on a file, 1 in flight: ${
          verifySequential.rps.toFixed(0)
        }/s; in memory, ${writeConnections} in flight: ${
          verifyMemory.rps.toFixed(0)
        }/s`,
      );
    }

    const memory = {
      service: {
        ...await readMemory(service.process.child.pid),
        startMiB: service.startMemory.rssMiB,
      },
      budgeted: {
        ...await readMemory(budgeted.process.child.pid),
        startMiB: budgeted.startMemory.rssMiB,
      },
      baseline: { ...await readMemory(baseline.child.pid), startMiB: NaN },
    };
    const loadAfter = (await Deno.readTextFile("/proc/loadavg")).split(" ")
      .slice(0, 3).join(" ");
    const cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(
      /^model name\s*:\s*(.+)$/m,
    )?.[1] ?? "unknown CPU";

    const report = formatReport({
      options,
      rows,
      stall,
      verifySequential,
      verifyMemory,
      memory,
      sizes,
      meta: {
        date: startedAt.toISOString().slice(0, 16).replace("T", " ") + " UTC",
        cores,
        cpu,
        deno: Deno.version.deno,
        wrk: /wrk\s+(\S+)/.exec(await run("wrk", ["-v"]))?.[0] ?? "wrk",
        loadBefore,
        loadAfter,
        minutes: (Date.now() - startedAt.getTime()) / 60_000,
      },
    });
    console.info(`\n${report}`);
    if (options.writeDoc && !options.only) {
      await writeDoc(report);
      console.info(`Written to ${DOC_PATH}`);
    }
  } finally {
    await stopAll();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------
// Report.

const f0 = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(0);
const f2 = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(2);
const ms = (n: number | undefined) =>
  n === undefined || Number.isNaN(n)
    ? "–"
    : n < 10
    ? n.toFixed(2)
    : n.toFixed(1);

function formatReport({
  options,
  rows,
  stall,
  verifySequential,
  verifyMemory,
  memory,
  sizes,
  meta,
}: {
  options: Options;
  rows: Row[];
  stall?: { idle: Figure; during: Figure; renders: Figure };
  verifySequential?: Figure;
  verifyMemory?: Figure;
  memory: Record<string, { hwmMiB: number; rssMiB: number; startMiB: number }>;
  sizes: Record<string, number>;
  meta: {
    date: string;
    cores: number;
    cpu: string;
    deno: string;
    wrk: string;
    loadBefore: string;
    loadAfter: string;
    minutes: number;
  };
}): string {
  const out: string[] = [];
  out.push(
    `Measured ${meta.date} on ${meta.cores} cores (${meta.cpu}), Deno ${meta.deno}, ${meta.wrk}. ` +
      `Server processes pinned to core 0, wrk and the stand-in model to core 1${
        pinning ? "" : " (NOT pinned: taskset missing)"
      }. ` +
      `${options.rounds} rounds of ${options.duration} s runs, service and limit alternating; figures are the mean of the rounds. ` +
      `${options.connections} connections (writes ${options.writeConnections}, cold cards 4). ` +
      `Load average before/after: ${meta.loadBefore} / ${meta.loadAfter} (other work on the machine shows here). ` +
      `Whole run: ${meta.minutes.toFixed(1)} min.`,
    "",
    "| endpoint | req/s | p50 ms | p99 ms | non-2xx | limit: what | limit req/s | limit p50 ms | limit p99 ms | ratio | target |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
  );
  for (const row of rows) {
    const s = summarize(row.service)!;
    const l = summarize(row.limit);
    const ratio = l ? s.rps / l.rps : undefined;
    const met = row.target === undefined || ratio === undefined
      ? ""
      : ratio >= row.target
      ? `≥ ${row.target} ✅`
      : `≥ ${row.target} ❌`;
    out.push(
      `| ${row.name} | ${f0(s.rps)} | ${ms(s.p50Ms)} | ${
        ms(s.p99Ms)
      } | ${s.errors} | ${row.limitName} | ${f0(l?.rps)} | ${ms(l?.p50Ms)} | ${
        ms(l?.p99Ms)
      } | ${f2(ratio)} | ${met} |`,
    );
  }
  if (verifySequential || verifyMemory) {
    out.push(
      "",
      `recordVisit alone: ${
        f0(verifySequential?.rps)
      }/s on a KV file with one call in flight (p50 ${
        ms(verifySequential?.p50Ms)
      } ms); ${
        f0(verifyMemory?.rps)
      }/s in memory with ${options.writeConnections} in flight.`,
    );
  }
  out.push(
    "",
    `Per-IP budget (IP_BUDGET_PER_MINUTE=300, a different client address per request so none is refused; atractivo-pool: ${
      BUDGET_POOL.toLocaleString("en-US")
    } returning addresses): its cost.`,
    "",
    "| endpoint | budget off req/s | budget on req/s | cost | p50 off → on ms | p99 off → on ms |",
    "|---|---:|---:|---:|---|---|",
  );
  for (const row of rows.filter((r) => r.budgetOn.length > 0)) {
    const off = summarize(row.service)!;
    const on = summarize(row.budgetOn)!;
    out.push(
      `| ${row.name} | ${f0(off.rps)} | ${f0(on.rps)} | ${
        ((1 - on.rps / off.rps) * 100).toFixed(0)
      } % | ${ms(off.p50Ms)} → ${ms(on.p50Ms)} | ${ms(off.p99Ms)} → ${
        ms(on.p99Ms)
      } |`,
    );
  }
  if (stall) {
    out.push(
      "",
      "`/healthz` (one connection) while share cards render (4 connections, every card new):",
      "",
      "| /healthz | p50 ms | p99 ms | req/s |",
      "|---|---:|---:|---:|",
      `| idle | ${ms(stall.idle.p50Ms)} | ${ms(stall.idle.p99Ms)} | ${
        f0(stall.idle.rps)
      } |`,
      `| during renders (${stall.renders.rps.toFixed(1)} cards/s, card p50 ${
        ms(stall.renders.p50Ms)
      } ms) | ${ms(stall.during.p50Ms)} | ${ms(stall.during.p99Ms)} | ${
        f0(stall.during.rps)
      } |`,
    );
  }
  out.push(
    "",
    "Peak memory (VmHWM) at the end of the run:",
    "",
    "| process | RSS after start MiB | peak RSS (VmHWM) MiB | RSS at end MiB |",
    "|---|---:|---:|---:|",
    ...([
      ["service (budget off, every endpoint above)", memory.service],
      ["service (budget on, the budget rows)", memory.budgeted],
      ["baseline Deno.serve", memory.baseline],
    ] as const).map(([name, m]) =>
      `| ${name} | ${f0(m.startMiB)} | ${f0(m.hwmMiB)} | ${f0(m.rssMiB)} |`
    ),
    "",
    `Response sizes: ${
      Object.entries(sizes).map(([k, v]) => `${k} ${v} B`).join(", ")
    }.`,
  );
  return out.join("\n");
}

async function writeDoc(report: string): Promise<void> {
  let doc = "";
  try {
    doc = await Deno.readTextFile(DOC_PATH);
  } catch {
    doc = `# Performance\n\n${START_MARK}\n${END_MARK}\n`;
  }
  const start = doc.indexOf(START_MARK);
  const end = doc.indexOf(END_MARK);
  if (start === -1 || end === -1) {
    doc += `\n${START_MARK}\n${END_MARK}\n`;
    return await writeDoc(report);
  }
  await Deno.writeTextFile(
    DOC_PATH,
    `${doc.slice(0, start + START_MARK.length)}\n${report}\n${doc.slice(end)}`,
  );
  // Keep `deno fmt --check` (deno task check) green.
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", DOC_PATH],
    stdout: "null",
    stderr: "null",
  }).output();
}

if (import.meta.main) {
  const onSignal = () => {
    stopAll().finally(() => Deno.exit(130));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    await main();
  } catch (error) {
    console.error(error);
    await stopAll();
    Deno.exit(1);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
}
