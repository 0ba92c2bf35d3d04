/**
 * The load harness (`deno task bench:load`): starts the service as its own
 * process on 127.0.0.1 (a fresh KV file, a stand-in model that answers at
 * once), drives each endpoint and compares it, in the same run, with its
 * physical limit:
 *
 * - reads (`/healthz`, pages, the share card): a plain `Deno.serve` answering
 *   the very bytes and headers the service answered (bench/baseline_server.ts);
 * - verify-visit: a plain `Deno.serve` doing, over HTTP, the same number of
 *   keys in one lean `kv.atomic()` on a KV file (bench/lean_verify_server.ts);
 * - the other writes and the chat (`--all`): the endpoint's own library call
 *   in a loop without HTTP on a fresh KV file (bench/direct.ts).
 *
 * By default it is the guards' run (about 3.5 minutes, no wrk needed: the
 * runs are driven by bench/load/get_client.ts where wrk is missing): issue
 * 40's targets alone (the guarded reads, verify-visit, cold starts, `/healthz`
 * while cards are drawn, the memory phase), each printed in one markdown
 * table with its baseline beside it (bench/load/guards.ts), and the run
 * exits 1 when one is missed. `--all` runs every phase below (about 15
 * minutes, needs wrk).
 *
 * The service runs as a city runs it: every default on (the request log,
 * the per-IP budget), behind one trusted proxy hop, every request from a
 * new client address. The server side runs on core 0 (`taskset -c 0`), wrk
 * and the stand-in model on core 1; service and limit runs alternate within
 * each round and their order flips every round. Then the share cards as
 * users meet them (drawn when a route changes, stored in KV): `/healthz`
 * latency while cards are drawn, a new user's card on a busy machine,
 * bursts of writes to one route (renders coalesced, staleness), and a
 * memory phase (500 new tickets, each card drawn, then read, while the
 * route page is under load, RSS sampled). The report starts with issue 31's
 * targets (before, this run, target, met), then every other target and its
 * figure from this run; it goes to stdout and, unless `--no-doc` (or with
 * `--only`), into docs/PERFORMANCE.md between the `bench:load` markers.
 *
 *   deno task bench:load [--all] [--duration=3] [--rounds=2]
 *                        [--connections=32] [--cold-starts=4]
 *                        [--only=cold-start,healthz,...]
 *                        [--memory-cards=500] [--no-doc]
 *
 * (Durations and cold starts default to 5 s and 10 with `--all` or
 * `--only`.) `--only=cold-start` runs the guards' cold starts alone (about
 * 40 s; with `--all`, the whole phase, about 5 minutes); `--only=cards`
 * every share-card phase (cold-start, stall, new-user-card, burst, memory),
 * without the endpoint rounds. `BENCH_SERVICE_ENV=NAME=value,...` gives the
 * service a setting beyond its defaults (the report says so);
 * `BENCH_CLIENT=deno` uses get_client.ts even where wrk is installed.
 *
 * Every process it starts is stopped by its PID, also on failure or Ctrl-C.
 *
 * The phases, in order (bench/load/):
 *
 * 0. cold_start.ts: fresh processes of the service and of a bare
 *    `Deno.serve`, each timed from spawn to its first 200 (`/healthz`, the
 *    home page, a verify-visit), idle RSS after the first `/healthz` and
 *    the first page, the card of a route written before the start asked
 *    for as soon as `/healthz` answers, the RSS after the render worker
 *    left;
 * 1. setup.ts: seeded KV files, the stand-in model, the two services, the
 *    reads captured (capture.ts) and the baseline server answering them;
 * 2. phases.ts: a warm-up, then the rounds over the targets (targets.ts),
 *    recordVisit alone;
 * 3. cards.ts: `/healthz` while cards are drawn, a new user's card on a
 *    busy machine, bursts of writes to one route, the memory phase;
 * 4. report.ts: the tables, to stdout and docs/PERFORMANCE.md.
 *
 * Processes (start, pin, stop) are in processes.ts; one wrk or direct run,
 * parsed into a figure, in measure.ts; the data files in fixtures.ts.
 */
import { measureColdStarts } from "./load/cold_start.ts";
import {
  CLIENT_PHASES,
  DOC_PATH,
  type Options,
  parseOptions,
  wanted,
} from "./load/config.ts";
import { buildGuards, formatGuards, missedGuards } from "./load/guards.ts";
import { ensureWrk, wrkVersion } from "./load/measure.ts";
import {
  measureBurst,
  measureMemory,
  measureNewUserCard,
  measureStall,
} from "./load/cards.ts";
import {
  measureRounds,
  measureVerifyAlone,
  readBaselineMemory,
  warmUp,
} from "./load/phases.ts";
import {
  buildBundle,
  decidePinning,
  isPinning,
  readCpuModel,
  readLoadAverage,
  readStartCommand,
  stopAll,
} from "./load/processes.ts";
import { formatReport, writeDoc } from "./load/report.ts";
import { setUp } from "./load/setup.ts";
import { buildTargets } from "./load/targets.ts";

async function main(): Promise<number> {
  const options = parseOptions(Deno.args);
  await ensureWrk({
    readsOnly: options.only !== undefined &&
      [...options.only].every((name) => CLIENT_PHASES.includes(name)),
  });
  const cores = await decidePinning();
  const loadBefore = await readLoadAverage();
  const startedAt = new Date();
  const dir = await Deno.makeTempDir({ prefix: "turismo-bench-" });
  const { duration, rounds, connections, writeConnections } = options;
  console.info(
    `Load harness: ${duration}s runs, ${rounds} rounds, ${connections} connections (writes ${writeConnections}), ${cores} cores, temp ${dir}`,
  );
  try {
    const { report, failed } = await measureAll(options, dir, {
      cores,
      loadBefore,
      startedAt,
    });
    console.info(`\n${report}`);
    if (options.writeDoc && (options.guards || !options.only)) {
      await writeDoc(report);
      console.info(`Written to ${DOC_PATH}`);
    }
    if (failed.length > 0) {
      console.error(
        `\nFAILED: below the guarded targets: ${failed.join("; ")}`,
      );
      return 1;
    }
    return 0;
  } finally {
    await stopAll();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Every phase, in order; the report. */
async function measureAll(
  options: Options,
  dir: string,
  { cores, loadBefore, startedAt }: {
    cores: number;
    loadBefore: string;
    startedAt: Date;
  },
): Promise<{ report: string; failed: string[] }> {
  // First, while nothing else of the harness runs: fresh starts.
  await buildBundle();
  const coldStart = wanted(options, "cold-start")
    ? await measureColdStarts({
      dir,
      starts: options.coldStarts,
      guards: !options.all,
    })
    : undefined;
  const meta = async () => ({
    date: startedAt.toISOString().slice(0, 16).replace("T", " ") + " UTC",
    cores,
    cpu: await readCpuModel(),
    deno: Deno.version.deno,
    wrk: await wrkVersion(),
    loadBefore,
    loadAfter: await readLoadAverage(),
    minutes: (Date.now() - startedAt.getTime()) / 60_000,
    pinned: isPinning(),
    startCommand: await describeStartCommand(),
  });
  if (options.only && [...options.only].every((n) => n === "cold-start")) {
    return {
      report: formatReport({
        options,
        coldStart,
        rows: [],
        sizes: {},
        meta: await meta(),
      }),
      failed: missedGuards(buildGuards({ rows: [], coldStart })),
    };
  }
  const bench = await setUp(options, dir);
  const targets = buildTargets(bench).filter((t) => wanted(options, t.name));
  await warmUp(bench, targets);
  const rows = await measureRounds(bench, targets);
  const stall = await measureStall(bench);
  const verifyAlone = options.guards ? {} : await measureVerifyAlone(bench);
  const newUser = await measureNewUserCard(bench);
  const bursts = await measureBurst(bench);
  const memory = await measureMemory(bench);
  const baselineMemory = await readBaselineMemory(bench);
  const guards = buildGuards({
    rows,
    coldStart,
    stall,
    memory,
    baselineMemory,
  });
  const report = formatReport({
    guardLines: formatGuards(guards),
    options,
    coldStart,
    rows,
    stall,
    ...verifyAlone,
    newUser,
    bursts,
    memory,
    baselineMemory,
    sizes: bench.reads.sizes,
    meta: await meta(),
  });
  return { report, failed: missedGuards(guards) };
}

/** `MALLOC_ARENA_MAX=2 deno run -A ... main.ts`, as the report shows it. */
async function describeStartCommand(): Promise<string> {
  const { env, flags } = await readStartCommand();
  return [
    ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
    "deno run",
    ...flags,
    "main.ts",
  ].join(" ");
}

if (import.meta.main) {
  const onSignal = () => {
    stopAll().finally(() => Deno.exit(130));
  };
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  try {
    const code = await main();
    if (code !== 0) Deno.exit(code);
  } catch (error) {
    console.error(error);
    await stopAll();
    Deno.exit(1);
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
}
