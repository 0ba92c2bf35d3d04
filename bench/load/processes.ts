/**
 * Every process the load harness starts: spawned (pinned to a core with
 * `taskset` when it can), its output kept, remembered, and stopped by its
 * PID. Also the service, the baseline server and the stand-in model, the
 * islands' build, and what /proc says about memory, load and the CPU.
 */
import { CLIENT_CORE, DATA_PATH, ROOT, SERVER_CORE } from "./config.ts";
import type { Fixtures } from "./fixtures.ts";

export interface Started {
  name: string;
  child: Deno.ChildProcess;
  log: string[];
}

export interface Memory {
  hwmMiB: number;
  rssMiB: number;
}

/** A running service (`deno run -A main.ts`) and what it was seeded with. */
export interface Service {
  name: string;
  url: string;
  process: Started;
  fixtures: Fixtures;
  kvPath: string;
  /** Resident memory right after start-up. */
  startMemory: Memory;
}

const started: Started[] = [];
let pinning = true;

/** Whether processes are pinned to cores (taskset found, 2 cores or more). */
export function isPinning(): boolean {
  return pinning;
}

/** Turns pinning off when taskset or a second core is missing; the cores. */
export async function decidePinning(): Promise<number> {
  if (!await has("taskset")) {
    pinning = false;
    console.warn(
      "taskset not found: running unpinned (figures vary by 10-15% on 2 cores)",
    );
  }
  const cores = navigator.hardwareConcurrency;
  if (cores < 2) pinning = false;
  return cores;
}

export function pinned(core: string, command: string, args: string[]) {
  return pinning
    ? { command: "taskset", args: ["-c", core, command, ...args] }
    : { command, args };
}

/** Starts `deno <args>` on `core`, keeping its last 200 output chunks. */
export function spawn(
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

/** Forgets a process that ended by itself (nothing left to stop). */
export function forget(process: Started): void {
  const index = started.indexOf(process);
  if (index !== -1) started.splice(index, 1);
}

export async function stop(process: Started): Promise<void> {
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

export async function stopAll(): Promise<void> {
  await Promise.all([...started].map(stop));
}

export async function getFreePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return await Promise.resolve(port);
}

export async function waitForHttp(
  process: Started,
  url: string,
): Promise<void> {
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

/** Runs a command to its end; its trimmed stdout. */
export async function run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, { args, stderr: "piped" })
    .output();
  return new TextDecoder().decode(output.stdout).trim();
}

export async function has(command: string): Promise<boolean> {
  try {
    return (await new Deno.Command("sh", {
      args: ["-c", `command -v ${command}`],
      stdout: "null",
    }).output()).success;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// The processes measured.

/** Pages link the islands' bundle: builds it if a source changed. */
export async function buildBundle(): Promise<void> {
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
}

/** Starts bench/stub_model.ts on the client core; its `/v1` URL. */
export async function startModel(): Promise<string> {
  const modelPort = await getFreePort();
  const model = spawn("stand-in model", CLIENT_CORE, [
    "run",
    "-A",
    "bench/stub_model.ts",
    String(modelPort),
  ]);
  const modelUrl = `http://127.0.0.1:${modelPort}/v1`;
  await waitForHttp(model, `http://127.0.0.1:${modelPort}/`);
  return modelUrl;
}

/**
 * How `deno task start` runs main.ts (deno.json): its environment
 * assignments (`MALLOC_ARENA_MAX=2`) and `deno run` flags (V8's heap
 * settings), so the service runs here exactly as there. Its
 * `--env-file=.env` is left out: the harness sets every variable itself.
 */
export async function readStartCommand(): Promise<
  { env: Record<string, string>; flags: string[] }
> {
  const { tasks } = JSON.parse(await Deno.readTextFile(`${ROOT}/deno.json`));
  const run = String(tasks.start).split("&&").map((part) => part.trim())
    .find((part) => /\bdeno run .* main\.ts\b/.test(part));
  if (!run) throw new Error("deno.json's start task runs no main.ts");
  const words = run.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [name, ...value] = words.shift()!.split("=");
    env[name] = value.join("=");
  }
  return { env, flags: words.slice(2, words.indexOf("main.ts")) };
}

/**
 * The service's environment on its defaults: the harness's own environment
 * without the variables that change a default, the given port, KV file,
 * data set and model, and nothing else configured (no CMS, no external
 * tokens, no sign-in, not on Deploy).
 */
export function serviceEnv(
  { port, kvPath, dataPath, modelUrl }: {
    port: number;
    kvPath: string;
    dataPath: string;
    modelUrl: string;
  },
): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([key]) =>
      !/^(LOG_REQUESTS|IP_BUDGET|REQUEST_BODY|CHAT_DAILY|RENDER_WORKER|TRUST_PROXY)/
        .test(key)
    ),
  );
  return {
    ...inherited,
    PORT: String(port),
    LISTEN_HOST: "127.0.0.1",
    KV_PATH: kvPath,
    TOURISM_DATA: dataPath,
    OPENAI_API_KEY: "x",
    OPENAI_BASE_URL: modelUrl,
    BASE_URL: "",
    WP_URL: "",
    AUTH_JWT_SECRET: "",
    AUTH_JWKS_URL: "",
    OIDC_ISSUER: "",
    DENO_DEPLOYMENT_ID: "",
  };
}

/**
 * Starts the service on the server core as a city runs it: with the start
 * task's flags and every default on (the request log, written to a pipe
 * this harness reads, and the per-IP budget), behind one trusted proxy hop
 * so each request can come from its own client address (`X-Forwarded-For`).
 */
export async function startService(
  { name, kvPath, fixtures, modelUrl }: {
    name: string;
    kvPath: string;
    fixtures: Fixtures;
    modelUrl: string;
  },
): Promise<Service> {
  const port = await getFreePort();
  const start = await readStartCommand();
  const process = spawn(name, SERVER_CORE, ["run", ...start.flags, "main.ts"], {
    ...serviceEnv({ port, kvPath, dataPath: DATA_PATH, modelUrl }),
    ...start.env,
    TRUST_PROXY: "1",
    ...extraServiceEnv(),
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
}

/**
 * `BENCH_SERVICE_ENV="RENDER_WORKERS=2,IP_BUDGET_PER_MINUTE=0"`: settings
 * the measured service gets on top of its defaults, to try one (the report
 * is then not of the defaults: it says so).
 */
export function extraServiceEnv(): Record<string, string> {
  const text = Deno.env.get("BENCH_SERVICE_ENV") ?? "";
  return Object.fromEntries(
    text.split(",").filter(Boolean).map((pair) => {
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** Starts bench/baseline_server.ts serving the captured `manifestPath`. */
export async function startBaseline(
  manifestPath: string,
): Promise<{ baseline: Started; baselineUrl: string }> {
  const baselinePort = await getFreePort();
  const baseline = spawn("baseline", SERVER_CORE, [
    "run",
    "-A",
    "bench/baseline_server.ts",
    String(baselinePort),
    manifestPath,
  ]);
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  await waitForHttp(baseline, `${baselineUrl}/healthz`);
  return { baseline, baselineUrl };
}

// ---------------------------------------------------------------------------
// What /proc says.

/** Peak and current resident memory of a process, in MiB. */
export async function readMemory(pid: number): Promise<Memory> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return { hwmMiB: kib("VmHWM") / 1024, rssMiB: kib("VmRSS") / 1024 };
}

/** The threads of a process (a render worker is one more). */
export async function readThreads(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}

/**
 * The CPU time (user and system, ms) of each render worker thread of a
 * process, by thread id: `node:worker_threads` threads are named
 * `worker-<n>` (/proc/<pid>/task/<tid>/comm), the render pool's only ones.
 */
export async function readWorkerCpuMs(
  pid: number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const tickMs = 1000 / CLOCK_TICKS;
  try {
    for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
      const dir = `/proc/${pid}/task/${task.name}`;
      try {
        const comm = (await Deno.readTextFile(`${dir}/comm`)).trim();
        if (!comm.startsWith("worker-")) continue;
        const stat = await Deno.readTextFile(`${dir}/stat`);
        // Fields after the name: state is 3rd, utime 14th, stime 15th.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        out.set(
          Number(task.name),
          (Number(fields[11]) + Number(fields[12])) * tickMs,
        );
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process ended
  }
  return out;
}

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every common build). */
const CLOCK_TICKS = 100;

/** The 1, 5 and 15 minute load averages, as /proc/loadavg writes them. */
export async function readLoadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ")
    .slice(0, 3).join(" ");
}

export async function readCpuModel(): Promise<string> {
  return (await Deno.readTextFile("/proc/cpuinfo")).match(
    /^model name\s*:\s*(.+)$/m,
  )?.[1] ?? "unknown CPU";
}
