/**
 * The report: every target with its figure from this run, then the tables
 * behind them (the rounds' means of service against limit, `/healthz` while
 * cards render, the memory phase), and its place in docs/PERFORMANCE.md
 * between the `bench:load` markers.
 */
import {
  DOC_PATH,
  END_MARK,
  MEMORY_CARDS_IN_FLIGHT,
  type Options,
  START_MARK,
} from "./config.ts";
import {
  CARD_DELAY_MS,
  type ColdStartPhase,
  type FirstRequest,
  median,
  type Mode,
  WORKER_STARTS,
} from "./cold_start.ts";
import type { Figure } from "./measure.ts";
import type { MemoryPhase, Row, Stall, VerifyAlone } from "./phases.ts";
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
  memory?: MemoryPhase;
  baselineMemory?: Memory;
  sizes: Record<string, number>;
  meta: Meta;
}

/** The targets of the service on its defaults (issue 17). */
export const TARGETS = {
  readP99Ms: 50,
  peakRssMiB: 256,
  healthzStallFactor: 2,
  // Cold starts (issue 25), as ratios to the same run's bare Deno.serve or
  // warm card.
  firstHealthzFactor: 4,
  firstPageFactor: 6,
  idleMemoryFactor: 2,
  firstCardFactor: 5,
  /** No throughput ratio more than this fraction below {@linkcode RATIOS_BEFORE}. */
  ratioDropAllowed: 0.1,
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
    ...formatTargets(input),
    ...formatColdStart(input.coldStart),
    ...formatLimitTable(input.rows),
    ...formatVerifyAlone(input),
    ...formatStall(input.stall),
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
  if (options.only?.size === 1 && options.only.has("cold-start")) {
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
    `${options.connections} connections (writes ${options.writeConnections}, cold cards ${MEMORY_CARDS_IN_FLIGHT}). ` +
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

/** Every target with its figure from this run, met or not. */
function formatTargets(input: ReportInput): string[] {
  const out = [
    "",
    "| target | aimed for | this run | met |",
    "|---|---|---|:-:|",
  ];
  const mark = (ok: boolean | undefined) =>
    ok === undefined ? "–" : ok ? "✅" : "❌";
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
  if (input.memory) {
    const peak = Math.max(input.memory.peakSampledMiB, input.memory.hwmMiB);
    out.push(
      `| peak RSS, route page under load + ${input.memory.cards} new cards | ≤ ${TARGETS.peakRssMiB} MiB | ${
        f0(peak)
      } MiB | ${mark(peak <= TARGETS.peakRssMiB)} |`,
    );
  }
  out.push(...formatColdTargets(input.coldStart, mark));
  const dropped = formatRatioDrop(input.rows, mark);
  if (dropped) out.push(dropped);
  if (input.stall) {
    const { idle, during } = input.stall;
    out.push(
      `| \`/healthz\` p99 while cards render | ≤ ${TARGETS.healthzStallFactor} × idle (${
        ms(idle.p99Ms)
      } ms) | ${ms(during.p99Ms)} ms (${f2(during.p99Ms / idle.p99Ms)} ×) | ${
        mark(during.p99Ms <= TARGETS.healthzStallFactor * idle.p99Ms)
      } |`,
    );
  }
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

/** The cold-start targets: each mode's medians against the bare server's. */
function formatColdTargets(
  cold: ColdStartPhase | undefined,
  mark: (ok: boolean | undefined) => string,
): string[] {
  if (!cold) return [];
  const out: string[] = [];
  const ratioLine = (
    what: string,
    first: FirstRequest,
    mode: "start" | "deploy",
    factor: number,
  ) => {
    const service = median(cold.firstMs[mode][first]);
    const bare = median(cold.firstMs.bare[first]);
    const ratio = service / bare;
    out.push(
      `| ${what}, ${MODE_NAMES[mode]} | ≤ ${factor} × bare | ${f2(ratio)} × (${
        ms(service)
      } vs ${ms(bare)} ms) | ${mark(ratio <= factor)} |`,
    );
  };
  for (const mode of ["start", "deploy"] as const) {
    ratioLine(
      "first `/healthz` after start",
      "healthz",
      mode,
      TARGETS.firstHealthzFactor,
    );
    ratioLine(
      "first page (`/`) after start",
      "page",
      mode,
      TARGETS.firstPageFactor,
    );
  }
  for (const mode of ["start", "deploy"] as const) {
    const service = median(cold.idleMiB[mode]);
    const bare = median(cold.idleMiB.bare);
    const ratio = service / bare;
    out.push(
      `| idle RSS after start, ${
        MODE_NAMES[mode]
      } | ≤ ${TARGETS.idleMemoryFactor} × bare | ${f2(ratio)} × (${
        f0(service)
      } vs ${f0(bare)} MiB) | ${mark(ratio <= TARGETS.idleMemoryFactor)} |`,
    );
  }
  const warm = median(cold.cards.warmMs);
  const policy = WORKER_STARTS[0];
  const cases: [string, number[]][] = [
    [
      "first share card after start, right after the first `/healthz`",
      cold.cards.firstMs,
    ],
    [
      "first share card after start, right after the route page that links it",
      cold.cards.afterPageMs[policy],
    ],
    [
      `first share card after start, ${
        CARD_DELAY_MS / 1000
      } s after the route page that links it`,
      cold.cards.afterPageDelayedMs[policy],
    ],
  ];
  for (const [what, values] of cases) {
    const first = median(values);
    const ratio = first / warm;
    out.push(
      `| ${what} | ≤ ${TARGETS.firstCardFactor} × a warm card | ${
        f2(ratio)
      } × (${ms(first)} vs ${ms(warm)} ms) | ${
        mark(ratio <= TARGETS.firstCardFactor)
      } |`,
    );
  }
  return out;
}

/** The largest fall of a throughput ratio against {@linkcode RATIOS_BEFORE}. */
function formatRatioDrop(
  rows: Row[],
  mark: (ok: boolean | undefined) => string,
): string | undefined {
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
    } s after the first \`/healthz\`.`,
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
    "",
    `Share cards, as \`deno task start\` runs main.ts (default \`RENDER_WORKER_START=${
      WORKER_STARTS[0]
    }\`):`,
    "",
    "| share card | time | RSS |",
    "|---|---:|---:|",
    `| first card, right after the first \`/healthz\` (RSS after it) | ${
      spread(cold.cards.firstMs, "ms")
    } | ${spread(cold.cards.afterFirstMiB, "MiB")} |`,
    `| a warm card (the median of the next 5 new cards) | ${
      spread(cold.cards.warmMs, "ms")
    } | |`,
    "",
    `The first request a route page, then the card it links, at once or ${
      CARD_DELAY_MS / 1000
    } s later (RSS read just before that card: what a worker started ahead holds while idle), by \`RENDER_WORKER_START\`:`,
    "",
    `| \`RENDER_WORKER_START\` | card at once | card ${
      CARD_DELAY_MS / 1000
    } s later | RSS ${CARD_DELAY_MS / 1000} s after the page |`,
    "|---|---:|---:|---:|",
    ...WORKER_STARTS.map((policy) =>
      `| \`${policy}\` | ${spread(cold.cards.afterPageMs[policy], "ms")} | ${
        spread(cold.cards.afterPageDelayedMs[policy], "ms")
      } | ${spread(cold.cards.afterPageMiB[policy], "MiB")} |`
    ),
  ];
}

function formatStall(stall: Stall | undefined): string[] {
  if (!stall) return [];
  return [
    "",
    `\`/healthz\` (one connection) while share cards render (${MEMORY_CARDS_IN_FLIGHT} connections, every card new):`,
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
  ];
}

function formatMemory(
  memory: MemoryPhase | undefined,
  baseline: Memory | undefined,
): string[] {
  if (!memory || !baseline) return [];
  return [
    "",
    `Memory phase: ${memory.cards} share cards never asked for before, ${MEMORY_CARDS_IN_FLIGHT} at a time (${
      memory.renderSeconds.toFixed(1)
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
