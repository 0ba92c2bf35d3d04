/**
 * The service as a real process (`deno run main.ts`), for tests where the
 * process itself matters: several instances on one KV file, restarts and
 * kills, signals, start-up failures, a deployment's permissions.
 */

import assert from "node:assert/strict";
import { ENV_NAMES } from "@/lib/config/config.ts";
import type { StaffRole } from "@/lib/types/staff.ts";
import { TEST_MAP_TILE_URL } from "./map_tiles.ts";
import { DATA_PATH } from "./test_utils.ts";

/** The repository's root, where `main.ts` is. */
export const ROOT = new URL("..", import.meta.url).pathname;
const STARTUP_TIMEOUT_MS = 30_000;

/** A running service process. */
export interface ServiceProcess {
  url: string;
  port: number;
  process: Deno.ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
}

/** A port nothing listens on right now. */
export async function getFreePort(): Promise<number> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return await Promise.resolve(port);
}

/** What a service reads besides its config: Deploy's marker, KV Connect's token. */
const PLATFORM_ENV_NAMES = ["DENO_DEPLOYMENT_ID", "DENO_KV_ACCESS_TOKEN"];

/**
 * The environment of a service process: this one's (`inherited`: PATH,
 * DENO_DIR) with every variable the service reads cleared, so a developer's
 * settings (a shell that loads `.env`, say) never leak in, then `env`.
 */
export function serviceEnv(
  env: Record<string, string>,
  inherited: Record<string, string> = Deno.env.toObject(),
): Record<string, string> {
  const cleared = new Set<string>([...ENV_NAMES, ...PLATFORM_ENV_NAMES]);
  const kept = Object.fromEntries(
    Object.entries(inherited).filter(([name]) => !cleared.has(name)),
  );
  // The maps' tiles from a loopback address, never the internet.
  return {
    ...kept,
    LOG_REQUESTS: "false",
    MAP_TILE_URL: TEST_MAP_TILE_URL,
    ...env,
  };
}

/**
 * Refuses a process in the working copy without a `KV_PATH` of its own: it
 * would open the developer's `./state/turismo.kv` (or move a
 * `./data/turismo.kv` there), and no test touches the working copy's state.
 */
function assertOwnKv(cwd: string, env: Record<string, string>): void {
  const trim = (path: string) => path.replace(/\/+$/, "");
  if (trim(cwd) === trim(ROOT) && !env.KV_PATH) {
    throw new Error(
      "A process started in the working copy needs a KV_PATH of its own (see startServiceOnKvFile), or a temporary cwd (createWorkdir)",
    );
  }
}

/**
 * Starts `deno <denoArgs> <args>` (by default `deno run --quiet -A main.ts`,
 * so no download line of Deno's mixes into the service's output) in `cwd`
 * with `serviceEnv(env)` and `PORT`; in the working copy only with a
 * `KV_PATH` of its own.
 */
export function startService(
  {
    env = {},
    port,
    cwd = ROOT,
    denoArgs = ["run", "--quiet", "-A", "main.ts"],
    args = [],
  }: {
    env?: Record<string, string>;
    port: number;
    cwd?: string;
    denoArgs?: string[];
    args?: string[];
  },
): ServiceProcess {
  assertOwnKv(cwd, env);
  const process = new Deno.Command(Deno.execPath(), {
    args: [...denoArgs, ...args],
    cwd,
    env: serviceEnv({ PORT: String(port), ...env }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const chunks: string[] = [];
  for (const stream of [process.stdout, process.stderr]) {
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void chunks.push(chunk) }),
    ).catch(() => {});
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process,
    output: () => chunks.join(""),
  };
}

/**
 * Runs `deno task staff-link` (`scripts/staff_link.ts <email> --role <role>`)
 * as its own process, with `serviceEnv(env)` (a `KV_PATH` of its own) and
 * `PORT`, for the service on `port`; asserts it succeeds and returns the
 * sign-in link it prints.
 */
export async function createStaffLinkFor(
  { env = {}, port, email, role }: {
    env?: Record<string, string>;
    port: number;
    email: string;
    role: StaffRole;
  },
): Promise<string> {
  assertOwnKv(ROOT, env);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "-A",
      "scripts/staff_link.ts",
      email,
      "--role",
      role,
    ],
    cwd: ROOT,
    env: serviceEnv({ ...env, PORT: String(port) }),
    clearEnv: true,
    stdin: "null",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const link = new TextDecoder().decode(stdout).match(
    /valid 15 minutes: (\S+)/,
  )?.[1];
  assert.ok(link, "the link is printed");
  return link;
}

/**
 * A temporary folder laid out like a checkout, for a service started in it
 * (`cwd`): `data/turismo.json`, the shipped data set.
 */
export async function createWorkdir(prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  await Deno.mkdir(`${dir}/data`);
  await Deno.copyFile(DATA_PATH, `${dir}/data/turismo.json`);
  return dir;
}

/** A service process on its own KV file, in a temporary folder. */
export interface ServiceOnKvFile extends AsyncDisposable {
  service: ServiceProcess;
  /** What it runs with (`KV_PATH` and the `env` asked for), for its scripts. */
  env: Record<string, string>;
  kvPath: string;
}

/**
 * Starts the service as `deno task start` runs it, on `turismo.kv` in a new
 * temporary folder (named with `prefix`), with `env`, and waits until it is
 * healthy. Use with `await using`: it stops the process, then removes the
 * folder.
 */
export async function startServiceOnKvFile(
  { prefix, env = {} }: { prefix?: string; env?: Record<string, string> } = {},
): Promise<ServiceOnKvFile> {
  const dir = await Deno.makeTempDir({ prefix });
  const kvPath = `${dir}/turismo.kv`;
  const withKv = { KV_PATH: kvPath, ...env };
  const service = startService({ port: await getFreePort(), env: withKv });
  const stop = async () => {
    await stopServices([service]);
    await Deno.remove(dir, { recursive: true });
  };
  try {
    await waitUntilHealthy(service);
  } catch (error) {
    await stop();
    throw error;
  }
  return { service, env: withKv, kvPath, [Symbol.asyncDispose]: stop };
}

/** Polls `/healthz` until it answers 200, for a bounded time. */
export async function waitUntilHealthy(service: ServiceProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let exited = false;
  service.process.status.then(() => exited = true);
  while (Date.now() < deadline && !exited) {
    try {
      const res = await fetch(`${service.url}/healthz`, {
        signal: AbortSignal.timeout(1_000),
      });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${service.url} did not become healthy:\n${service.output()}`,
  );
}

/**
 * Waits for a process that should end by itself; one still running after
 * `timeoutMs` is killed and the test fails.
 */
export async function waitForExit(
  service: ServiceProcess,
  timeoutMs = STARTUP_TIMEOUT_MS,
): Promise<Deno.CommandStatus> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const result = await Promise.race([service.process.status, timedOut]);
  clearTimeout(timer);
  if (result === "timeout") {
    service.process.kill("SIGKILL");
    await service.process.status;
    throw new Error(
      `still running after ${timeoutMs} ms:\n${service.output()}`,
    );
  }
  // Let the last output chunks arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return result;
}

/** Sends `signal` (SIGTERM: a graceful stop) to each process by its PID and waits for it to end. */
export async function stopServices(
  services: ServiceProcess[],
  signal: Deno.Signal = "SIGTERM",
): Promise<Deno.CommandStatus[]> {
  return await Promise.all(services.map(async ({ process }) => {
    try {
      process.kill(signal);
    } catch {
      // Already ended.
    }
    return await process.status;
  }));
}

/** A JSON POST to a service process. */
export function postJsonTo(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** What a task's process printed and how it ended. */
export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/<name>.ts <args>` as its `deno task` would, as its own
 * process in `cwd` with `serviceEnv(env)` (a `KV_PATH` of its own).
 */
export async function runScript(
  name: string,
  args: string[],
  { cwd = ROOT, env }: { cwd?: string; env: Record<string, string> },
): Promise<ScriptRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", `${ROOT}scripts/${name}.ts`, ...args],
    cwd,
    env: serviceEnv(env),
    clearEnv: true,
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return {
    code: output.code,
    stdout: decode(output.stdout),
    stderr: decode(output.stderr),
  };
}
