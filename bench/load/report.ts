/**
 * The report: Markdown tables of the rounds' means (service against limit,
 * the per-IP budget's cost, `/healthz` while cards render, memory) and its
 * place in docs/PERFORMANCE.md, between the `bench:load` markers.
 */
import {
  BUDGET_POOL,
  DOC_PATH,
  END_MARK,
  type Options,
  START_MARK,
} from "./config.ts";
import type { Figure } from "./measure.ts";
import type { MemoryRow, Row, Stall, VerifyAlone } from "./phases.ts";

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
}

export interface ReportInput extends VerifyAlone {
  options: Options;
  rows: Row[];
  stall?: Stall;
  memory: Record<string, MemoryRow>;
  sizes: Record<string, number>;
  meta: Meta;
}

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
    ...formatLimitTable(input.rows),
    ...formatVerifyAlone(input),
    ...formatBudgetTable(input.rows),
    ...formatStall(input.stall),
    ...formatMemory(input.memory),
    "",
    `Response sizes: ${
      Object.entries(input.sizes).map(([k, v]) => `${k} ${v} B`).join(", ")
    }.`,
  ].join("\n");
}

function formatHeader(options: Options, meta: Meta): string[] {
  return [
    `Measured ${meta.date} on ${meta.cores} cores (${meta.cpu}), Deno ${meta.deno}, ${meta.wrk}. ` +
    `Server processes pinned to core 0, wrk and the stand-in model to core 1${
      meta.pinned ? "" : " (NOT pinned: taskset missing)"
    }. ` +
    `${options.rounds} rounds of ${options.duration} s runs, service and limit alternating; figures are the mean of the rounds. ` +
    `${options.connections} connections (writes ${options.writeConnections}, cold cards 4). ` +
    `Load average before/after: ${meta.loadBefore} / ${meta.loadAfter} (other work on the machine shows here). ` +
    `Whole run: ${meta.minutes.toFixed(1)} min.`,
  ];
}

/** Service against limit, with the ratio and the target it aims for. */
function formatLimitTable(rows: Row[]): string[] {
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

/** The per-IP budget's cost on the rows measured with it. */
function formatBudgetTable(rows: Row[]): string[] {
  const out = [
    "",
    `Per-IP budget (IP_BUDGET_PER_MINUTE=300, a different client address per request so none is refused; atractivo-pool: ${
      BUDGET_POOL.toLocaleString("en-US")
    } returning addresses): its cost.`,
    "",
    "| endpoint | budget off req/s | budget on req/s | cost | p50 off → on ms | p99 off → on ms |",
    "|---|---:|---:|---:|---|---|",
  ];
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
  return out;
}

function formatStall(stall: Stall | undefined): string[] {
  if (!stall) return [];
  return [
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
  ];
}

function formatMemory(memory: Record<string, MemoryRow>): string[] {
  return [
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
