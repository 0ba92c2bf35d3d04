/**
 * One measured run, as a `Figure`: `wrk` with a Lua script from bench/lua/
 * against a URL (its figures read from the `WRK_JSON` line common.lua
 * prints), or bench/direct.ts running an endpoint's library call in a loop.
 */
import type { DirectResult } from "../direct.ts";
import { CLIENT_CORE, LUA_DIR, SERVER_CORE } from "./config.ts";
import { forget, has, pinned, run, spawn } from "./processes.ts";

/** One measured run: requests a second and latency, whatever produced it. */
export interface Figure {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers other than 2xx/3xx, or failed calls. */
  errors: number;
}

export interface WrkRun {
  url: string;
  script: string;
  args?: string[];
  connections: number;
  duration: number;
}

/**
 * Without wrk, GET reads (bench/lua/get.lua) and verify-visit
 * (bench/lua/verify.lua) are driven by bench/load/get_client.ts, which
 * builds the same requests and prints the same figures; `BENCH_CLIENT=deno`
 * picks it where wrk is installed too (the same client on both machines).
 */
let denoClient = Deno.env.get("BENCH_CLIENT") === "deno";

/** Which client drives the reads, for the report. */
export function readClient(): string {
  return denoClient ? "bench/load/get_client.ts (no wrk here)" : "wrk";
}

/** The scripts bench/load/get_client.ts can stand in for. */
export const CLIENT_SCRIPTS = ["get.lua", "verify.lua"];

/**
 * wrk, installed with apt-get when missing and possible; with `readsOnly`
 * (every run asked for is one of {@linkcode CLIENT_SCRIPTS}'s: the guards'
 * run), bench/load/get_client.ts instead.
 */
export async function ensureWrk(
  { readsOnly = false }: { readsOnly?: boolean } = {},
): Promise<void> {
  if (await has("wrk")) return;
  if (readsOnly) {
    denoClient = true;
    console.info(
      "wrk is not installed: the runs are driven by bench/load/get_client.ts",
    );
    return;
  }
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

/** wrk's name and version as `wrk -v` prints them (`wrk debian/4.1.0-3+b2`). */
export async function wrkVersion(): Promise<string> {
  if (denoClient) return readClient();
  return /wrk\s+(\S+)/.exec(await run("wrk", ["-v"]))?.[0] ?? "wrk";
}

/** Runs wrk on the client core, one thread, a 10 s timeout. */
export async function runWrk(
  { url, script, args = [], connections, duration }: WrkRun,
): Promise<Figure> {
  if (denoClient) {
    if (!CLIENT_SCRIPTS.includes(script)) {
      throw new Error(`${script} needs wrk`);
    }
    return await runDenoClient({
      url,
      args: script === "verify.lua"
        ? [args[0], "verify", ...args.slice(1)]
        : args,
      connections,
      duration,
    });
  }
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
  return await readClientFigure(`wrk failed for ${url}`, command, {
    args: argv,
    env: { BENCH_LUA_DIR: LUA_DIR },
  });
}

/** Runs a load client and reads the figure it prints (`WRK_JSON {...}`). */
async function readClientFigure(
  failure: string,
  command: string,
  { args, env }: { args: string[]; env?: Record<string, string> },
): Promise<Figure> {
  const output = await new Deno.Command(command, {
    args,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  const line = /WRK_JSON (\{.*\})/.exec(text)?.[1];
  if (!output.success || !line) {
    throw new Error(
      `${failure}:\n${text}\n${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return parseWrkJson(line);
}

/** bench/load/get_client.ts on the client core: get.lua's requests. */
async function runDenoClient(
  { url, args, connections, duration }: Omit<WrkRun, "script">,
): Promise<Figure> {
  const { command, args: argv } = pinned(CLIENT_CORE, Deno.execPath(), [
    "run",
    "-A",
    `${LUA_DIR}/../load/get_client.ts`,
    url,
    String(connections),
    String(duration),
    args?.[0] ?? "0",
    ...(args?.slice(1) ?? []),
  ]);
  return await readClientFigure(`get_client.ts failed for ${url}`, command, {
    args: argv,
  });
}

/** The figure in common.lua's `WRK_JSON {...}` line (microseconds in it). */
export function parseWrkJson(line: string): Figure {
  const r = JSON.parse(line);
  return {
    rps: r.requests / (r.duration_us / 1e6),
    p50Ms: r.p50_us / 1000,
    p99Ms: r.p99_us / 1000,
    requests: r.requests,
    errors: r.status + r.connect + r.read + r.write + r.timeout,
  };
}

/** Runs bench/direct.ts `op` on the server core; the JSON line it prints. */
export async function runDirect(
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
  forget(process);
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
