/**
 * Issue 40's targets in one table: each figure of this run with its
 * baseline beside it (a bare `Deno.serve` in the same run, or the same
 * service idle), the ratio or the figure, the target, met or not. The run
 * exits 1 when one is missed (bench/load.ts).
 */
import type { MemoryPhase, Stall } from "./cards.ts";
import { type ColdStartPhase, median } from "./cold_start.ts";
import type { Row } from "./phases.ts";
import type { Memory } from "./processes.ts";
import { summarize } from "./report.ts";

/** Issue 40's targets (ratios within one run, memory in MB = 10^6 B). */
export const GUARD_TARGETS = {
  readRatio: 0.8,
  verifyRatio: 0.6,
  peakRssMB: 256,
  healthzStallFactor: 2,
  idleMemoryFactor: 2,
  firstHealthzFactor: 4,
  firstPageFactor: 6,
};

/** One line of the table. */
export interface Guard {
  measure: string;
  baseline: string;
  service: string;
  /** The ratio or figure compared with the target, as printed. */
  figure: string;
  target: string;
  met: boolean;
  /** The short form in the run's failure line. */
  short: string;
}

export interface GuardInput {
  rows: Row[];
  coldStart?: ColdStartPhase;
  stall?: Stall;
  memory?: MemoryPhase;
  baselineMemory?: Memory;
}

const READ_NAMES: Record<string, string> = {
  healthz: "`/healthz` (same JSON)",
  "og-cached": "share card as pages link it (`?v=`, same PNG)",
  "og-plain": "share card at the spec's URL (no `?v=`, same PNG)",
  ruta: "route page `/ruta/<code>` (same HTML)",
  atractivo: "attraction page (same HTML)",
};

const toMB = (mib: number) => mib * 1.048576;
const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    })
    : "–";
const msText = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} ms`;

/** Every guard this run measured, in the table's order. */
export function buildGuards(input: GuardInput): Guard[] {
  const out: Guard[] = [];
  for (const row of input.rows) {
    if (!row.guard || row.target === undefined) continue;
    const s = summarize(row.service);
    const l = summarize(row.limit);
    if (!s || !l) continue;
    const ratio = s.rps / l.rps;
    const isVerify = row.name === "verify";
    out.push({
      measure: isVerify
        ? "verify-visit, fresh visits, req/s vs a bare `Deno.serve` doing the same keys in one lean `kv.atomic()`"
        : `${
          READ_NAMES[row.name] ?? row.name
        }, req/s vs a bare \`Deno.serve\` with the same bytes`,
      baseline: `${fmt(l.rps)} req/s`,
      service: `${fmt(s.rps)} req/s${s.errors ? `, ${s.errors} errors` : ""}`,
      figure: `${ratio.toFixed(2)}`,
      target: `≥ ${row.target}`,
      met: ratio >= row.target && (!isVerify || s.errors === 0),
      short: `${row.name} ${ratio.toFixed(2)} < ${row.target}${
        isVerify && s.errors ? ` or ${s.errors} errors` : ""
      }`,
    });
  }
  const cold = input.coldStart;
  if (cold) {
    const bare = median(cold.firstMs.bare.healthz);
    const first = (
      what: "healthz" | "page",
      label: string,
      factor: number,
    ) => {
      const service = median(cold.firstMs.start[what]);
      if (!Number.isFinite(service)) return;
      const ratio = service / bare;
      out.push({
        measure:
          `cold start, spawn to the first ${label}, as \`deno task start\` runs main.ts (medians of ${cold.starts})`,
        baseline: `${msText(bare)} (first answer)`,
        service: msText(service),
        figure: `${ratio.toFixed(2)} ×`,
        target: `≤ ${factor} ×`,
        met: ratio <= factor,
        short: `first ${what} ${ratio.toFixed(2)} × > ${factor} ×`,
      });
    };
    first("healthz", "`/healthz`", GUARD_TARGETS.firstHealthzFactor);
    first("page", "page (`/`)", GUARD_TARGETS.firstPageFactor);
    const bareRss = median(cold.idleMiB.bare);
    const pageRss = median(cold.idleAfterPageMiB.start);
    if (Number.isFinite(pageRss)) {
      const ratio = pageRss / bareRss;
      const factor = GUARD_TARGETS.idleMemoryFactor;
      out.push({
        measure: `idle RSS ${
          cold.settleMs / 1000
        } s after the first page (VmRSS), after its first answer for the bare server`,
        baseline: `${fmt(bareRss)} MiB`,
        service: `${fmt(pageRss)} MiB`,
        figure: `${ratio.toFixed(2)} ×`,
        target: `≤ ${factor} ×`,
        met: ratio <= factor,
        short: `idle RSS ${ratio.toFixed(2)} × > ${factor} ×`,
      });
    }
  }
  const stall = input.stall;
  if (stall) {
    const ratio = stall.during.p99Ms / stall.idle.p99Ms;
    const factor = GUARD_TARGETS.healthzStallFactor;
    out.push({
      measure:
        `\`/healthz\` p99 (one connection) while cards are drawn (${stall.draws.drawn} cards in ${
          stall.draws.seconds.toFixed(1)
        } s) vs idle, same process`,
      baseline: `${msText(stall.idle.p99Ms)} idle`,
      service: msText(stall.during.p99Ms),
      figure: `${ratio.toFixed(2)} ×`,
      target: `≤ ${factor} ×`,
      met: ratio <= factor,
      short: `healthz p99 while drawing ${ratio.toFixed(2)} × > ${factor} ×`,
    });
  }
  const memory = input.memory;
  if (memory) {
    const peakMB = toMB(memory.hwmMiB);
    const drawn = memory.draws.drawn;
    const wanted = memory.draws.tickets;
    out.push({
      measure:
        `peak RSS (VmHWM, the whole run) with ${wanted} new cards drawn, then read, under page load (${
          fmt(memory.reads.rps)
        } req/s of the route page)`,
      baseline: input.baselineMemory
        ? `${
          fmt(toMB(input.baselineMemory.hwmMiB))
        } MB (the bare server's peak)`
        : "–",
      service: `${fmt(peakMB)} MB; ${drawn} of ${wanted} drawn`,
      figure: `${fmt(peakMB)} MB`,
      target: `≤ ${GUARD_TARGETS.peakRssMB} MB`,
      met: peakMB <= GUARD_TARGETS.peakRssMB && drawn === wanted &&
        memory.cardErrors === 0,
      short: `peak RSS ${fmt(peakMB)} MB > ${GUARD_TARGETS.peakRssMB} MB` +
        (drawn < wanted ? ` or ${wanted - drawn} cards not drawn` : ""),
    });
  }
  return out;
}

/** The table, as markdown. */
export function formatGuards(guards: Guard[]): string[] {
  if (guards.length === 0) return [];
  return [
    "",
    "| target | baseline | service | ratio / figure | aimed for | met |",
    "|---|---:|---:|---:|---|:-:|",
    ...guards.map((g) =>
      `| ${g.measure} | ${g.baseline} | ${g.service} | ${g.figure} | ${g.target} | ${
        g.met ? "✅" : "❌"
      } |`
    ),
  ];
}

/** The guards missed, for the failure line. */
export function missedGuards(guards: Guard[]): string[] {
  return guards.filter((g) => !g.met).map((g) => g.short);
}
