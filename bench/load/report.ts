/**
 * The report: issue 31's targets (the figure before, this run's, the
 * target, met or not), every other target with its figure from this run,
 * then the tables behind them (cold starts, the rounds' means of service
 * against limit, `/healthz` while cards are drawn, new users' cards, bursts,
 * the memory phase), and its place in docs/PERFORMANCE.md between the
 * `bench:load` markers.
 */
import {
  type Burst,
  BURST_IN_FLIGHT,
  type BurstPhase,
  COOLDOWN_MS,
  type MemoryPhase,
  type NewUserPhase,
  PREVIEW_DELAY_MS,
  type Stall,
} from "./cards.ts";
import {
  DOC_PATH,
  END_MARK,
  MEMORY_CARDS_IN_FLIGHT,
  type Options,
  START_MARK,
} from "./config.ts";
import {
  type ColdStartPhase,
  type FirstRequest,
  IDLE_OUT_MARGIN_MS,
  median,
  type Mode,
  WARM_REPEATS,
} from "./cold_start.ts";
import type { Figure } from "./measure.ts";
import type { Row, VerifyAlone } from "./phases.ts";
import type { Memory } from "./processes.ts";

export interface Meta {
  date: string;
  cores: number;
  cpu: string;
  deno: string;
  wrk: string;
  loadBefore: string;
  loadAfter: string;
  minutes: number;
  /** Whether processes were pinned to cores. */
  pinned: boolean;
  /** How `deno task start` runs main.ts, as the service ran here. */
  startCommand: string;
}

export interface ReportInput extends VerifyAlone {
  options: Options;
  coldStart?: ColdStartPhase;
  rows: Row[];
  stall?: Stall;
  newUser?: NewUserPhase;
  bursts?: BurstPhase;
  memory?: MemoryPhase;
  baselineMemory?: Memory;
  sizes: Record<string, number>;
  meta: Meta;
  /** Issue 40's table (bench/load/guards.ts), first when given. */
  guardLines?: string[];
}

/**
 * The targets of the service on its defaults: reads (issue 17), cold starts
 * and share cards (issue 31, which replaced issue 25's: ratios to the same
 * run's bare `Deno.serve` or warm card).
 */
export const TARGETS = {
  readP99Ms: 50,
  /** Peak RSS of the memory phase, in MB (10^6 bytes), as the issue says. */
  peakRssMB: 200,
  healthzStallFactor: 2,
  firstHealthzFactor: 4,
  firstPageFactor: 6,
  idleMemoryFactor: 2,
  firstCardFactor: 2,
  /** A new user's card on a busy machine, every try. */
  newUserCardMs: 1_000,
  /** No throughput ratio more than this fraction below {@linkcode RATIOS_BEFORE}. */
  ratioDropAllowed: 0.1,
};

/**
 * Issue 31's "before" column: measured on main before share cards were
 * drawn on write (2 cores), as the issue's table gives them.
 */
export const BEFORE_31 = {
  firstHealthz: "3.0 ×",
  firstPage: "4.1 ×",
  idleMemory: "4.1 × (137 vs 33 MB)",
  firstCard: "7.1 × (1,087 vs 153 ms)",
  newUserCard: "4.9 to 6.9 s",
  peakMemory: "333 MB",
  stall: "2.2 × (12.5 → 28.1 ms)",
};

/**
 * The throughput ratios before the cold-start work (issue 25), from the run
 * docs/PERFORMANCE.md held then (2026-11-23): what no ratio may fall more
 * than {@linkcode TARGETS.ratioDropAllowed} below.
 */
export const RATIOS_BEFORE: Record<string, number> = {
  healthz: 0.57,
  logo: 0.48,
  verify: 0.41,
  rate: 0.50,
  ticket: 0.62,
  "og-cached": 0.83,
  "og-plain": 0.68,
  chat: 0.81,
  ruta: 0.43,
  atractivo: 0.43,
};

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / (values.length || 1);
}

/** The rounds' mean (rates and latencies) and sum (requests and errors). */
export function summarize(figures: Figure[]): Figure | undefined {
  if (figures.length === 0) return undefined;
  return {
    rps: mean(figures.map((f) => f.rps)),
    p50Ms: mean(figures.map((f) => f.p50Ms)),
    p99Ms: mean(figures.map((f) => f.p99Ms)),
    requests: figures.reduce((a, f) => a + f.requests, 0),
    errors: figures.reduce((a, f) => a + f.errors, 0),
  };
}

const f0 = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(0);
const f1 = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(1);
const f2 = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? "–" : n.toFixed(2);
const ms = (n: number | undefined) =>
  n === undefined || Number.isNaN(n)
    ? "–"
    : n < 10
    ? n.toFixed(2)
    : n.toFixed(1);

export function formatReport(input: ReportInput): string {
  return [
    ...formatHeader(input.options, input.meta),
    ...(input.guardLines ?? []),
    ...(input.options.guards ? [] : formatIssue31(input)),
    ...(input.options.guards ? [] : formatTargets(input)),
    ...formatColdStart(input.coldStart),
    ...formatLimitTable(input.rows),
    ...formatVerifyAlone(input),
    ...formatStall(input.stall),
    ...formatNewUser(input.newUser, input.options),
    ...formatBursts(input.bursts),
    ...formatMemory(input.memory, input.baselineMemory),
    ...(Object.keys(input.sizes).length === 0 ? [] : [
      "",
      `Response sizes: ${
        Object.entries(input.sizes).map(([k, v]) => `${k} ${v} B`).join(", ")
      }.`,
    ]),
  ].join("\n");
}

function formatHeader(options: Options, meta: Meta): string[] {
  if (options.only && [...options.only].every((n) => n === "cold-start")) {
    return [
      `Measured ${meta.date} on ${meta.cores} cores (${meta.cpu}), Deno ${meta.deno}: the cold-start phase alone. ` +
      `Server processes pinned to core 0, the harness on the other${
        meta.pinned ? "" : " (NOT pinned: taskset missing)"
      }. ` +
      `Load average before/after: ${meta.loadBefore} / ${meta.loadAfter} (other work on the machine shows here). ` +
      `Whole run: ${meta.minutes.toFixed(1)} min.`,
    ];
  }
  return [
    `Measured ${meta.date} on ${meta.cores} cores (${meta.cpu}), Deno ${meta.deno}, ${meta.wrk}. ` +
    `Server processes pinned to core 0, wrk and the stand-in model to core 1${
      meta.pinned ? "" : " (NOT pinned: taskset missing)"
    }. ` +
    `${options.rounds} rounds of ${options.duration} s runs, service and limit alternating; figures are the mean of the rounds. ` +
    `The service runs as \`deno task start\` runs it (\`${meta.startCommand}\`), on its defaults: request log on (to a pipe), per-IP budget on (300 a minute), one render worker; \`TRUST_PROXY=1\` and a new client address (\`X-Forwarded-For\`) for every request. ` +
    `${options.connections} connections (writes ${options.writeConnections}, cold cards and tourists waiting for their card ${MEMORY_CARDS_IN_FLIGHT}). ` +
    (Deno.env.get("BENCH_SERVICE_ENV")
      ? `NOT the defaults: the service also got \`${
        Deno.env.get("BENCH_SERVICE_ENV")
      }\` (BENCH_SERVICE_ENV). `
      : "") +
    (options.guards
      ? "The guards' run (`deno task bench:load`: issue 40's targets; `--all` for every phase). "
      : options.only
      ? `Only: ${[...options.only].join(", ")}. `
      : "") +
    `Load average before/after: ${meta.loadBefore} / ${meta.loadAfter} (other work on the machine shows here). ` +
    `Whole run: ${meta.minutes.toFixed(1)} min.`,
  ];
}

/** Service against limit, with the ratio and the target it aims for. */
function formatLimitTable(rows: Row[]): string[] {
  if (rows.length === 0) return [];
  const out = [
    "",
    "| endpoint | req/s | p50 ms | p99 ms | non-2xx | limit: what | limit req/s | limit p50 ms | limit p99 ms | ratio | target |",
    "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|",
  ];
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
  return out;
}

function formatVerifyAlone(
  { options, verifySequential, verifyMemory }: ReportInput,
): string[] {
  if (!verifySequential && !verifyMemory) return [];
  return [
    "",
    `recordVisit alone: ${
      f0(verifySequential?.rps)
    }/s on a KV file with one call in flight (p50 ${
      ms(verifySequential?.p50Ms)
    } ms); ${
      f0(verifyMemory?.rps)
    }/s in memory with ${options.writeConnections} in flight.`,
  ];
}

/** The endpoints' targets (throughput, reads' latency) with this run's figures. */
function formatTargets(input: ReportInput): string[] {
  if (input.rows.length === 0) return [];
  const out = [
    "",
    "| target | aimed for | this run | met |",
    "|---|---|---|:-:|",
  ];
  for (const row of input.rows.filter((r) => r.target !== undefined)) {
    const s = summarize(row.service)!;
    const l = summarize(row.limit);
    const ratio = l ? s.rps / l.rps : undefined;
    const fiveXx = row.name === "verify" ? `, ${s.errors} non-2xx` : "";
    out.push(
      `| ${row.name}: ratio to ${row.limitName} | ≥ ${row.target} | ${
        f2(ratio)
      } (${f0(s.rps)} vs ${f0(l?.rps)} req/s${fiveXx}) | ${
        mark(
          ratio === undefined
            ? undefined
            : ratio >= row.target! && (row.name !== "verify" || s.errors === 0),
        )
      } |`,
    );
  }
  const reads = input.rows.filter((r) => r.read && r.service.length > 0);
  if (reads.length > 0) {
    const worst = reads.map((r) =>
      [r.name, summarize(r.service)!.p99Ms] as const
    )
      .sort((a, b) => b[1] - a[1])[0];
    out.push(
      `| reads' p99 at ${input.options.connections} connections (worst: ${
        worst[0]
      }) | ≤ ${TARGETS.readP99Ms} ms | ${ms(worst[1])} ms | ${
        mark(worst[1] <= TARGETS.readP99Ms)
      } |`,
    );
  }
  const dropped = formatRatioDrop(input.rows);
  if (dropped) out.push(dropped);
  return out;
}

/** "median (min-max)" of a set of figures. */
function spread(values: number[] | undefined, unit: string): string {
  if (!values?.length) return "–";
  const f = (n: number) => n < 10 ? n.toFixed(1) : n.toFixed(0);
  return `${f(median(values))} ${unit} (${f(Math.min(...values))}-${
    f(Math.max(...values))
  })`;
}

const MODE_NAMES: Record<Exclude<Mode, "bare">, string> = {
  start: "as `deno task start` runs main.ts",
  deploy: "as Deno Deploy runs main.ts",
  task: "the whole `deno task start` (with its build check)",
};

const mark = (ok: boolean | undefined) =>
  ok === undefined ? "–" : ok ? "✅" : "❌";

/** MiB to MB (10^6 bytes), as the issue's memory targets are given. */
const toMB = (mib: number) => mib * 1.048576;

/**
 * Issue 31's targets, one row each (and the new burst row): the figure
 * before, this run's with its configuration, the target, met or not.
 */
function formatIssue31(input: ReportInput): string[] {
  const { coldStart: cold, newUser, stall, memory, bursts } = input;
  const rows: string[][] = [];
  const row = (
    measure: string,
    before: string,
    now: string,
    target: string,
    met: boolean | undefined,
  ) => rows.push([measure, before, now, target, mark(met)]);
  if (cold) {
    for (
      const [first, what, factor, before] of [
        [
          "healthz",
          "first `/healthz` after start",
          TARGETS.firstHealthzFactor,
          BEFORE_31.firstHealthz,
        ],
        [
          "page",
          "first page (`/`) after start",
          TARGETS.firstPageFactor,
          BEFORE_31.firstPage,
        ],
      ] as const
    ) {
      for (const mode of ["start", "deploy"] as const) {
        const service = median(cold.firstMs[mode][first]);
        const base = median(cold.firstMs.bare[first]);
        const ratio = service / base;
        row(
          `${what} vs a bare \`Deno.serve\`, ${
            MODE_NAMES[mode]
          } (medians of ${cold.starts} starts)`,
          mode === "start" ? before : "–",
          `${f2(ratio)} × (${ms(service)} vs ${ms(base)} ms)`,
          `≤ ${factor} ×`,
          ratio <= factor,
        );
      }
    }
    const bareIdle = median(cold.idleMiB.bare);
    const afterPage = median(cold.idleAfterPageMiB.start);
    row(
      `idle RSS ${
        cold.settleMs / 1000
      } s after the first page vs a bare \`Deno.serve\` after its first answer, as \`deno task start\` runs main.ts`,
      BEFORE_31.idleMemory,
      `${f2(afterPage / bareIdle)} × (${f0(afterPage)} vs ${f0(bareIdle)} MiB)`,
      `≤ ${TARGETS.idleMemoryFactor} ×`,
      afterPage / bareIdle <= TARGETS.idleMemoryFactor,
    );
    const { idleOut } = cold;
    if (idleOut.afterWorkerMiB.length > 0) {
      const after = median(idleOut.afterWorkerMiB);
      row(
        `idle RSS after a card was drawn (a new ticket) and the render worker left: ${
          (idleOut.idleMs + IDLE_OUT_MARGIN_MS) / 1000
        } s after it, \`RENDER_WORKER_IDLE_SECONDS\` on its default (${
          idleOut.idleMs / 1000
        } s); median of ${idleOut.afterWorkerMiB.length}`,
        "–",
        `${f2(after / bareIdle)} × (${f0(after)} vs ${f0(bareIdle)} MiB; ${
          f0(median(idleOut.withWorkerMiB))
        } MiB while drawing)`,
        `≤ ${TARGETS.idleMemoryFactor} ×`,
        after / bareIdle <= TARGETS.idleMemoryFactor,
      );
    }
    const first = median(cold.cards.firstMs);
    const warm = median(cold.cards.warmMs);
    row(
      `first request for a route's card written before the start (right after the first \`/healthz\`) vs a warm repeat in the same process${
        cold.cards.mismatches
          ? ` (${cold.cards.mismatches} first answers not the stored card!)`
          : ""
      }`,
      BEFORE_31.firstCard,
      `${f2(first / warm)} × (${ms(first)} vs ${ms(warm)} ms)`,
      `≤ ${TARGETS.firstCardFactor} ×`,
      first / warm <= TARGETS.firstCardFactor && cold.cards.mismatches === 0,
    );
    const spawnToPng = median(cold.cards.spawnToPngMs);
    const bareFirst = median(cold.firstMs.bare.healthz);
    row(
      "a link preview right after a cold start: spawn to the PNG of a route's card written before it (asked for as soon as `/healthz` answers) vs a bare `Deno.serve`'s spawn to its first answer",
      "–",
      `${f2(spawnToPng / bareFirst)} × (${ms(spawnToPng)} vs ${
        ms(bareFirst)
      } ms)`,
      "– (reported)",
      undefined,
    );
  }
  if (newUser) {
    const times = newUser.tries.map((t) => t.cardMs);
    const failed = newUser.tries.filter((t) => t.status !== 200).length;
    const stored = newUser.tries.filter((t) => t.storedBefore).length;
    row(
      `a new user's route card on a busy machine: ticket, then a link preview's request ${
        PREVIEW_DELAY_MS / 1000
      } s later, to the PNG (route page read meanwhile at ${
        f0(newUser.reads.rps)
      } req/s by ${input.options.connections} connections; the first try after the render worker ${
        newUser.workerGone ? "left" : "should have left (it had not)"
      }); ${times.length} tries`,
      BEFORE_31.newUserCard,
      `${seconds(Math.min(...times))} to ${
        seconds(Math.max(...times))
      } s (median ${
        seconds(median(times))
      }; stored before the preview asked in ${stored} of ${times.length}${
        failed ? `; ${failed} not a 200` : ""
      })`,
      `≤ ${TARGETS.newUserCardMs / 1000} s`,
      failed === 0 && Math.max(...times) <= TARGETS.newUserCardMs,
    );
  }
  if (memory) {
    const peak = Math.max(memory.peakSampledMiB, memory.hwmMiB);
    row(
      `peak RSS, ${memory.draws.tickets} new tickets (cards drawn on the write, ${MEMORY_CARDS_IN_FLIGHT} tourists at a time) then ${memory.cardReads} card requests, while the route page is read at ${
        f0(memory.reads.rps)
      } req/s (VmHWM of the whole run included)`,
      BEFORE_31.peakMemory,
      `${f0(toMB(peak))} MB (${
        f0(peak)
      } MiB); ${memory.draws.drawn} of ${memory.draws.tickets} drawn`,
      `≤ ${TARGETS.peakRssMB} MB`,
      toMB(peak) <= TARGETS.peakRssMB &&
        memory.draws.drawn === memory.draws.tickets,
    );
  }
  if (stall) {
    const { idle, during, draws } = stall;
    row(
      `\`/healthz\` p99 (one connection) while cards are drawn for new tickets (${MEMORY_CARDS_IN_FLIGHT} tourists at a time, ${
        f2(draws.drawn / draws.seconds)
      } cards/s) vs idle`,
      BEFORE_31.stall,
      `${f2(during.p99Ms / idle.p99Ms)} × (${ms(idle.p99Ms)} → ${
        ms(during.p99Ms)
      } ms)`,
      `≤ ${TARGETS.healthzStallFactor} ×`,
      during.p99Ms <= TARGETS.healthzStallFactor * idle.p99Ms,
    );
  }
  if (bursts?.bursts.length) {
    const { renderCpuMs } = bursts;
    const list = bursts.bursts;
    const renders = list.map((b) => b.workerCpuMs / renderCpuMs);
    const stale = list.map((b) => b.staleMs);
    const current = list.filter((b) => b.current).length;
    const coalesced = list.every((b, i) =>
      b.stored <= maxRenders(b) && Math.round(renders[i]) <= maxRenders(b)
    );
    row(
      `a burst of ${
        list[0].writes
      } renames of one route (${BURST_IN_FLIGHT} in flight, ${
        spread(list.map((b) => b.burstMs), "ms")
      } each): renders per burst (the worker's CPU time over one render's, ${
        ms(renderCpuMs)
      } ms; and cards stored, from KV), and the stored card's staleness (last write's answer to the final card stored); ${list.length} bursts`,
      "– (new)",
      `${f1(Math.min(...renders))}-${f1(Math.max(...renders))} renders, ${
        Math.min(...list.map((b) => b.stored))
      }-${Math.max(...list.map((b) => b.stored))} stored; stale ${
        seconds(Math.min(...stale))
      }-${
        seconds(Math.max(...stale))
      } s; final card current in ${current} of ${list.length}`,
      `coalesced: ≤ 2 + ⌊burst / ${
        COOLDOWN_MS / 1000
      } s⌋ renders, the final card stored`,
      coalesced && current === list.length,
    );
  }
  if (rows.length === 0) return [];
  return [
    "",
    "Issue 31's targets (before: `main` before share cards were drawn on write, 2 cores):",
    "",
    "| measure | before | this run | target | met |",
    "|---|---|---|---|:-:|",
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ];
}

/** The most renders a burst may cause: one at once, one per cool-down it spans, one after it. */
function maxRenders(burst: Burst): number {
  return 2 + Math.floor(burst.burstMs / COOLDOWN_MS);
}

function seconds(msValue: number): string {
  return Number.isFinite(msValue) ? (msValue / 1000).toFixed(2) : "–";
}

/** The largest fall of a throughput ratio against {@linkcode RATIOS_BEFORE}. */
function formatRatioDrop(rows: Row[]): string | undefined {
  const changes = rows.flatMap((row) => {
    const before = RATIOS_BEFORE[row.name];
    const s = summarize(row.service);
    const l = summarize(row.limit);
    if (before === undefined || !s || !l) return [];
    return [{ name: row.name, before, now: s.rps / l.rps }];
  });
  if (changes.length === 0) return undefined;
  const worst = changes.sort((a, b) => a.now / a.before - b.now / b.before)[0];
  const fall = 1 - worst.now / worst.before;
  return `| throughput ratios against before issue 25 (worst: ${worst.name}) | at most ${
    TARGETS.ratioDropAllowed * 100
  } % lower | ${f2(worst.now)} vs ${f2(worst.before)} (${
    fall > 0 ? `${(fall * 100).toFixed(0)} % lower` : "not lower"
  }) | ${mark(fall <= TARGETS.ratioDropAllowed)} |`;
}

/** Every cold-start figure: median (min-max) of the starts, by mode. */
function formatColdStart(cold: ColdStartPhase | undefined): string[] {
  if (!cold) return [];
  if (cold.cards.spawnToPngMs.length === 0) return formatGuardColdStart(cold);
  const modes = ["start", "deploy", "task"] as const;
  const row = (what: string, cells: string[]) =>
    `| ${what} | ${cells.join(" | ")} |`;
  const ratio = (service: number[] | undefined, bare: number[] | undefined) =>
    service?.length && bare?.length
      ? ` = ${f2(median(service) / median(bare))} ×`
      : "";
  const firstRow = (what: string, first: FirstRequest) =>
    row(what, [
      spread(cold.firstMs.bare[first], "ms"),
      ...modes.map((mode) =>
        `${spread(cold.firstMs[mode][first], "ms")}${
          ratio(cold.firstMs[mode][first], cold.firstMs.bare[first])
        }`
      ),
    ]);
  return [
    "",
    `Cold starts: ${cold.starts} rounds of fresh processes on the server core, each timed from its spawn to the end of its first 200 (polled every millisecond until it listens); median (min-max), ratio of medians to the bare server. The service's start task: \`${cold.startCommand}\`; Deploy's way: \`DENO_DEPLOYMENT_ID=… deno run -A main.ts\`. A model is configured (never called), KV is a seeded file. Idle RSS: ${
      cold.settleMs / 1000
    } s after the first \`/healthz\`, or after the first page (the bare server's: after its first answer, whatever the request).`,
    "",
    `| first 200 of | bare \`Deno.serve\` | ${
      modes.map((mode) => MODE_NAMES[mode]).join(" | ")
    } |`,
    "|---|---:|---:|---:|---:|",
    firstRow("`/healthz`", "healthz"),
    firstRow("the home page", "page"),
    firstRow("a verify-visit (new user)", "verify"),
    row("idle RSS after start", [
      spread(cold.idleMiB.bare, "MiB"),
      ...modes.map((mode) =>
        `${spread(cold.idleMiB[mode], "MiB")}${
          ratio(cold.idleMiB[mode], cold.idleMiB.bare)
        }`
      ),
    ]),
    row("idle RSS after the first page", [
      "(as above)",
      ...modes.map((mode) =>
        `${spread(cold.idleAfterPageMiB[mode], "MiB")}${
          ratio(cold.idleAfterPageMiB[mode], cold.idleMiB.bare)
        }`
      ),
    ]),
    "",
    `Share cards after a cold start, as \`deno task start\` runs main.ts (every default: \`RENDER_WORKER_START=first-card\`). One route was made before the starts as a tourist makes it, on a service process stopped afterwards: ${cold.cards.written.visits} check-ins, then its ticket, whose write drew the card (stored ${
      ms(cold.cards.written.drawMs)
    } ms after the ticket's answer, ${cold.cards.written.bytes} B). Each start then asks for that card as a link preview would, as soon as \`/healthz\` answers:`,
    "",
    "| route card written before the start | time | RSS |",
    "|---|---:|---:|",
    `| spawn to the end of its PNG (bare \`Deno.serve\`'s spawn to its first answer: ${
      spread(cold.firstMs.bare.healthz, "ms")
    }) | ${spread(cold.cards.spawnToPngMs, "ms")} | |`,
    `| the first request for it, right after the first \`/healthz\` (RSS after it) | ${
      spread(cold.cards.firstMs, "ms")
    } | ${spread(cold.cards.afterFirstMiB, "MiB")} |`,
    `| a warm repeat (median of ${WARM_REPEATS} in the same process) | ${
      spread(cold.cards.warmMs, "ms")
    } | |`,
    `| the route's page as the first request, then the card it links at once | ${
      spread(cold.cards.afterPageMs, "ms")
    } | |`,
    ...formatIdleOut(cold),
  ];
}

/** The guards' run's cold starts: the bare server and the start task. */
function formatGuardColdStart(cold: ColdStartPhase): string[] {
  const bare = cold.firstMs.bare.healthz;
  const start = (values: number[] | undefined, base: number[] | undefined) =>
    `${
      spread(
        values,
        values === cold.idleMiB.start ||
          values === cold.idleAfterPageMiB.start
          ? "MiB"
          : "ms",
      )
    }${
      values?.length && base?.length
        ? ` = ${f2(median(values) / median(base))} ×`
        : ""
    }`;
  return [
    "",
    `Cold starts: ${cold.starts} rounds of fresh processes on the server core (\`${cold.startCommand}\`, every default on, a seeded KV file, a model configured and never called), against a bare \`Deno.serve\` answering "ok" (bench/bare_server.ts) in the same rounds; each timed from its spawn to the end of its first 200, polled every millisecond; median (min-max). Idle RSS ${
      cold.settleMs / 1000
    } s after the first answer.`,
    "",
    "| | bare `Deno.serve` | as `deno task start` runs main.ts |",
    "|---|---:|---:|",
    `| first \`/healthz\` | ${spread(bare, "ms")} | ${
      start(cold.firstMs.start.healthz, bare)
    } |`,
    `| first page (\`/\`) | (its first answer, as above) | ${
      start(cold.firstMs.start.page, bare)
    } |`,
    `| idle RSS after the first \`/healthz\` | ${
      spread(cold.idleMiB.bare, "MiB")
    } | ${start(cold.idleMiB.start, cold.idleMiB.bare)} |`,
    `| idle RSS after the first page | (as above) | ${
      start(cold.idleAfterPageMiB.start, cold.idleMiB.bare)
    } |`,
  ];
}

/** RSS of starts whose render worker drew a card, then left. */
function formatIdleOut(cold: ColdStartPhase): string[] {
  const { idleOut } = cold;
  if (idleOut.afterWorkerMiB.length === 0) return [];
  return [
    "",
    `The render worker leaving: ${idleOut.afterWorkerMiB.length} starts on every default (\`RENDER_WORKER_IDLE_SECONDS\` unset: ${
      idleOut.idleMs / 1000
    } s); the first page, then a new tourist's ticket (its card drawn on the write, the worker started for it) and that card asked for at once (${
      spread(idleOut.cardMs, "ms")
    }); threads of the process ${
      idleOut.threads.map((t) => t.join(" → ")).join(", ")
    }.`,
    "",
    "| service RSS | MiB |",
    "|---|---:|",
    `| ${cold.settleMs / 1000} s after the first page | ${
      spread(idleOut.afterPageMiB, "MiB")
    } |`,
    `| right after the card (worker running) | ${
      spread(idleOut.withWorkerMiB, "MiB")
    } |`,
    `| ${
      (idleOut.idleMs + IDLE_OUT_MARGIN_MS) / 1000
    } s later (worker gone) | ${spread(idleOut.afterWorkerMiB, "MiB")} |`,
  ];
}

function formatStall(stall: Stall | undefined): string[] {
  if (!stall) return [];
  const { draws } = stall;
  return [
    "",
    `\`/healthz\` (one connection) idle, then while cards are drawn for new tickets (${MEMORY_CARDS_IN_FLIGHT} tourists at a time, each making a ticket and waiting until its card is stored; ${draws.drawn} cards in ${
      draws.seconds.toFixed(1)
    } s, ticket to stored card ${spread(draws.drawMs, "ms")}, ${
      draws.tickets - draws.drawn
    } not drawn, ${draws.errors} ticket errors):`,
    "",
    "| /healthz | p50 ms | p99 ms | req/s |",
    "|---|---:|---:|---:|",
    `| idle | ${ms(stall.idle.p50Ms)} | ${ms(stall.idle.p99Ms)} | ${
      f0(stall.idle.rps)
    } |`,
    `| while cards are drawn | ${ms(stall.during.p50Ms)} | ${
      ms(stall.during.p99Ms)
    } | ${f0(stall.during.rps)} |`,
  ];
}

function formatNewUser(
  newUser: NewUserPhase | undefined,
  options: Options,
): string[] {
  if (!newUser) return [];
  return [
    "",
    `A new user's card on a busy machine: wrk reads the route page at full load (${options.connections} connections, ${
      f0(newUser.reads.rps)
    } req/s, p99 ${
      ms(newUser.reads.p99Ms)
    } ms) while, one after another, a new user makes a ticket (with their token, from a new address) and a link preview asks for its card ${
      PREVIEW_DELAY_MS / 1000
    } s after the ticket's answer. The first try comes after the service idled past the worker's default idle time (${
      newUser.workerGone
        ? "the worker had left"
        : "yet a render worker was still running"
    }).`,
    "",
    "| try | ticket ms | card stored when asked | card: status | card ms |",
    "|---:|---:|---|---:|---:|",
    ...newUser.tries.map((t, i) =>
      `| ${i + 1} | ${ms(t.ticketMs)} | ${
        t.storedBefore ? "yes" : "no"
      } | ${t.status} | ${ms(t.cardMs)} |`
    ),
  ];
}

function formatBursts(phase: BurstPhase | undefined): string[] {
  if (!phase?.bursts.length) return [];
  const { bursts, renderCpuMs } = phase;
  return [
    "",
    `Bursts of writes to one route: ${
      bursts[0].writes
    } renames (\`POST /api/turismo/users/<id>/name\`, each changes what the card shows), ${BURST_IN_FLIGHT} in flight, the route idle for ${
      (COOLDOWN_MS + 1_500) / 1000
    } s before each. Cards stored are the changes of the stored card in KV (read every 20 ms, the service's file opened beside it); renders, the render worker's CPU time meanwhile (/proc, threads \`worker-<n>\`) over one render's (${
      ms(renderCpuMs)
    } ms: the median of single renames, one render each), since a render whose ticket changed before it ended is drawn but not stored. "Stale" is from the last write's answer to the last change; "current", a 304 to the stored card's ETag afterwards.`,
    "",
    "| burst | ms | write errors | cards stored (at ms) | worker CPU ms | ≈ renders | most allowed | stale ms | final card current |",
    "|---:|---:|---:|---|---:|---:|---:|---:|---|",
    ...bursts.map((b, i) =>
      `| ${i + 1} | ${f0(b.burstMs)} | ${b.writeErrors} | ${b.stored} (${
        b.changesAtMs.map((t) => t.toFixed(0)).join(", ")
      }) | ${f0(b.workerCpuMs)} | ${f1(b.workerCpuMs / renderCpuMs)} | ${
        maxRenders(b)
      } | ${f0(b.staleMs)} | ${b.current ? "yes" : "no"} |`
    ),
  ];
}

function formatMemory(
  memory: MemoryPhase | undefined,
  baseline: Memory | undefined,
): string[] {
  if (!memory || !baseline) return [];
  const { draws } = memory;
  return [
    "",
    `Memory phase: ${draws.tickets} new tickets, ${MEMORY_CARDS_IN_FLIGHT} tourists at a time each waiting until the card its ticket drew is stored (${draws.drawn} drawn in ${
      draws.seconds.toFixed(1)
    } s, ticket to stored card ${
      spread(draws.drawMs, "ms")
    }, ${draws.errors} ticket errors), then those ${memory.cardReads} cards asked for (${
      memory.cardSeconds.toFixed(1)
    } s, ${memory.cardErrors} errors), while wrk reads the route page (${
      f0(memory.reads.rps)
    } req/s, p99 ${
      ms(memory.reads.p99Ms)
    } ms meanwhile); the service's RSS sampled every 100 ms.`,
    "",
    "| service RSS | MiB |",
    "|---|---:|",
    `| after start-up | ${f0(memory.startMiB)} |`,
    `| before the phase (after every run above) | ${f0(memory.beforeMiB)} |`,
    `| highest sample during the phase | ${f0(memory.peakSampledMiB)} |`,
    `| peak of the whole run (VmHWM) | ${f0(memory.hwmMiB)} |`,
    `| at the end | ${f0(memory.endMiB)} |`,
    `| (baseline \`Deno.serve\`, for comparison: peak) | ${
      f0(baseline.hwmMiB)
    } |`,
  ];
}

/** Puts the report between the markers in docs/PERFORMANCE.md, formatted. */
export async function writeDoc(report: string): Promise<void> {
  let doc = "";
  try {
    doc = await Deno.readTextFile(DOC_PATH);
  } catch {
    doc = `# Performance\n\n${START_MARK}\n${END_MARK}\n`;
  }
  if (!doc.includes(START_MARK) || !doc.includes(END_MARK)) {
    doc += `\n${START_MARK}\n${END_MARK}\n`;
  }
  const start = doc.indexOf(START_MARK);
  const end = doc.indexOf(END_MARK);
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
