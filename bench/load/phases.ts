/**
 * The measuring phases, in the order bench/load.ts runs them: a warm-up, the
 * rounds (service and limit runs of every target, alternating), `/healthz`
 * while cards render, recordVisit alone, and the memory phase: 500 new
 * share cards rendered while the route page is under load, the service's
 * RSS sampled throughout.
 */
import { MEMORY_CARDS_IN_FLIGHT, ROUTE_CODE, wanted } from "./config.ts";
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
  service: Figure[];
  limit: Figure[];
}

/** `/healthz` idle and while share cards render. */
export interface Stall {
  idle: Figure;
  during: Figure;
  renders: Figure;
}

/** recordVisit alone: on a file with one call in flight, and in memory. */
export interface VerifyAlone {
  verifySequential?: Figure;
  verifyMemory?: Figure;
}

/** The memory phase: renders while the route page is read, RSS sampled. */
export interface MemoryPhase {
  /** The service's RSS right after start-up, and at the phase's start. */
  startMiB: number;
  beforeMiB: number;
  /** The highest RSS sampled (every 100 ms) and the kernel's peak (VmHWM). */
  peakSampledMiB: number;
  hwmMiB: number;
  endMiB: number;
  cards: number;
  cardErrors: number;
  renderSeconds: number;
  /** The route page's figures while the cards render. */
  reads: Figure;
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

/**
 * /healthz (one connection) idle, then while share cards render
 * ({@linkcode MEMORY_CARDS_IN_FLIGHT} at a time, every card new): does
 * rendering block the event loop?
 */
export async function measureStall(bench: Bench): Promise<Stall | undefined> {
  if (!wanted(bench.options, "og-cold") || !bench.files.hasColdPool) {
    return undefined;
  }
  console.info("Measuring /healthz while cards render...");
  const { url } = bench.service;
  const { duration } = bench.options;
  const healthz = (salt: string) =>
    runWrk({
      url: `${url}/healthz`,
      script: "get.lua",
      args: [salt],
      connections: 1,
      duration,
    });
  // Renders still queued from the runs before would count as "idle".
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const idle = await healthz("250");
  const [renders, during] = await Promise.all([
    runWrk({
      url: `${url}/api/turismo/og/x`,
      script: "og_cold.lua",
      args: ["251", await bench.files.coldCodesFile()],
      connections: MEMORY_CARDS_IN_FLIGHT,
      duration,
    }),
    healthz("252"),
  ]);
  console.info(
    `  healthz idle p50 ${idle.p50Ms.toFixed(2)} p99 ${
      idle.p99Ms.toFixed(2)
    } ms; during renders p50 ${during.p50Ms.toFixed(2)} p99 ${
      during.p99Ms.toFixed(2)
    } ms (${renders.rps.toFixed(1)} cards/s)`,
  );
  return { idle, during, renders };
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

/**
 * The memory phase: every card of `bench.memoryCodes` rendered,
 * {@linkcode MEMORY_CARDS_IN_FLIGHT} at a time, while wrk reads the route
 * page at full load; the service's RSS sampled every 100 ms.
 */
export async function measureMemory(bench: Bench): Promise<MemoryPhase> {
  const { service, memoryCodes, options } = bench;
  const pid = service.process.child.pid;
  console.info(
    `Memory: ${memoryCodes.length} new cards, ${MEMORY_CARDS_IN_FLIGHT} at a time, while the route page is read...`,
  );
  const before = await readMemory(pid);
  let peakSampled = before.rssMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakSampled = Math.max(peakSampled, (await readMemory(pid)).rssMiB);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const started = performance.now();
  let next = 0;
  let cardErrors = 0;
  const renderAll = Promise.all(
    Array.from({ length: MEMORY_CARDS_IN_FLIGHT }, async () => {
      while (next < memoryCodes.length) {
        const code = memoryCodes[next++];
        try {
          const res = await fetch(`${service.url}/api/turismo/og/${code}`, {
            headers: { "x-forwarded-for": `10.250.${next >> 8}.${next & 255}` },
          });
          await res.arrayBuffer();
          if (res.status !== 200) cardErrors++;
        } catch {
          cardErrors++;
        }
      }
    }),
  ).then(() => (performance.now() - started) / 1000);
  // The route page under load for as long as the renders take (at least
  // one run's duration): wrk runs in slices until the cards are done.
  const reads: Figure[] = [];
  let renderSeconds: number | undefined;
  renderAll.then((seconds) => renderSeconds = seconds);
  do {
    reads.push(
      await runWrk({
        url: `${service.url}/ruta/${ROUTE_CODE}`,
        script: "get.lua",
        args: [String(100 + bench.nextSalt())],
        connections: options.connections,
        duration: options.duration,
      }),
    );
  } while (renderSeconds === undefined);
  sampling = false;
  await sampler;
  const end = await readMemory(pid);
  const total = reads.reduce((sum, f) => sum + f.requests, 0);
  const phase: MemoryPhase = {
    startMiB: service.startMemory.rssMiB,
    beforeMiB: before.rssMiB,
    peakSampledMiB: peakSampled,
    hwmMiB: end.hwmMiB,
    endMiB: end.rssMiB,
    cards: memoryCodes.length,
    cardErrors,
    renderSeconds,
    reads: {
      rps: reads.reduce((sum, f) => sum + f.rps * f.requests, 0) / total,
      p50Ms: Math.max(...reads.map((f) => f.p50Ms)),
      p99Ms: Math.max(...reads.map((f) => f.p99Ms)),
      requests: total,
      errors: reads.reduce((sum, f) => sum + f.errors, 0),
    },
  };
  console.info(
    `  ${phase.cards} cards in ${
      renderSeconds.toFixed(1)
    } s (${cardErrors} errors); RSS ${before.rssMiB.toFixed(0)} → peak ${
      peakSampled.toFixed(0)
    } MiB (VmHWM ${end.hwmMiB.toFixed(0)}), ${
      end.rssMiB.toFixed(0)
    } at the end; route page meanwhile ${
      phase.reads.rps.toFixed(0)
    } req/s, p99 ${phase.reads.p99Ms.toFixed(1)} ms`,
  );
  return phase;
}

/** The baseline server's memory, for comparison. */
export async function readBaselineMemory(bench: Bench): Promise<Memory> {
  return await readMemory(bench.baseline.child.pid);
}
