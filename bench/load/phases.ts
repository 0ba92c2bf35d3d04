/**
 * The measuring phases of the endpoints, in the order bench/load.ts runs
 * them: a warm-up, the rounds (service and limit runs of every target,
 * alternating) and recordVisit alone. The share-card phases are in
 * cards.ts.
 */
import { wanted } from "./config.ts";
import { type Figure, runDirect, runWrk } from "./measure.ts";
import { type Memory, readMemory } from "./processes.ts";
import type { Bench } from "./setup.ts";
import type { Target } from "./targets.ts";

/** A target's figures over the rounds. */
export interface Row {
  name: string;
  limitName: string;
  target?: number;
  read?: boolean;
  guard?: boolean;
  service: Figure[];
  limit: Figure[];
}

/** recordVisit alone: on a file with one call in flight, and in memory. */
export interface VerifyAlone {
  verifySequential?: Figure;
  verifyMemory?: Figure;
}

/** JIT and caches: one second of each target's service, not measured. */
export async function warmUp(bench: Bench, targets: Target[]): Promise<void> {
  console.info("Warming up...");
  const { paths } = bench.reads;
  const warmPaths: Record<string, string> = {
    ...paths,
    "og-cached": paths.og,
    "og-plain": paths.ogPlain,
    chat: "/api/chat",
  };
  for (const t of targets) {
    const path = warmPaths[t.name];
    if (!path) continue;
    await runWrk({
      url: `${bench.service.url}${path}`,
      script: t.name === "chat" ? "chat.lua" : "get.lua",
      args: [String(200 + bench.nextSalt())],
      connections: bench.options.connections,
      duration: 1,
    });
  }
}

/** Every round: each target's service, limit and budget runs. */
export async function measureRounds(
  bench: Bench,
  targets: Target[],
): Promise<Row[]> {
  const rows: Row[] = targets.map((t) => ({
    name: t.name,
    limitName: t.limitName,
    target: t.target,
    read: t.read,
    guard: t.guard,
    service: [],
    limit: [],
  }));
  const { rounds } = bench.options;
  for (let round = 0; round < rounds; round++) {
    console.info(`Round ${round + 1} of ${rounds}`);
    for (const [i, t] of targets.entries()) {
      await measureTarget(bench, t, rows[i], round);
    }
  }
  return rows;
}

type Step = [
  what: "service" | "limit",
  measure: () => Promise<Figure>,
  into: Figure[],
];

/** One round of a target; its runs in reverse order on odd rounds. */
async function measureTarget(
  bench: Bench,
  t: Target,
  row: Row,
  round: number,
): Promise<void> {
  const steps: Step[] = [
    ["service", () => t.service(bench.service, round), row.service],
  ];
  if (t.limit) {
    const limit = t.limit;
    steps.push(["limit", () => limit(round), row.limit]);
  }
  if (round % 2 === 1) steps.reverse();
  for (const [what, measure, into] of steps) {
    into.push(await measure());
    logFigure(t.name, what, into.at(-1)!);
  }
}

function logFigure(name: string, what: string, last: Figure): void {
  console.info(
    `  ${name.padEnd(10)} ${what.padEnd(8)} ${
      last.rps.toFixed(0).padStart(7)
    } req/s  p50 ${last.p50Ms.toFixed(2)} ms  p99 ${
      last.p99Ms.toFixed(2)
    } ms  errors ${last.errors}`,
  );
}

/** Sequential KV limit of verify-visit, for reference. */
export async function measureVerifyAlone(bench: Bench): Promise<VerifyAlone> {
  if (!wanted(bench.options, "verify")) return {};
  const { duration, writeConnections } = bench.options;
  const verifySequential = await runDirect(
    "verify",
    bench.files.freshKv(),
    duration,
    1,
    bench.modelUrl,
  );
  const verifyMemory = await runDirect(
    "verify",
    ":memory:",
    duration,
    writeConnections,
    bench.modelUrl,
  );
  console.info(
    `  recordVisit on a file, 1 in flight: ${
      verifySequential.rps.toFixed(0)
    }/s; in memory, ${writeConnections} in flight: ${
      verifyMemory.rps.toFixed(0)
    }/s`,
  );
  return { verifySequential, verifyMemory };
}

/** The baseline server's memory, for comparison. */
export async function readBaselineMemory(bench: Bench): Promise<Memory> {
  return await readMemory(bench.baseline.child.pid);
}
