import assert from "node:assert/strict";
import type { MemoryPhase, Stall } from "./cards.ts";
import type { ColdStartPhase } from "./cold_start.ts";
import { buildGuards, formatGuards, missedGuards } from "./guards.ts";
import type { Figure } from "./measure.ts";
import type { Row } from "./phases.ts";

const figure = (rps: number, p99Ms = 1, errors = 0): Figure => ({
  rps,
  p50Ms: 0.5,
  p99Ms,
  requests: rps * 3,
  errors,
});

const row = (name: string, target: number, service: number, limit: number) =>
  ({
    name,
    limitName: "baseline",
    target,
    guard: true,
    service: [figure(service)],
    limit: [figure(limit)],
  }) satisfies Row;

function coldStart(
  { healthz, page, bareMiB, pageMiB }: {
    healthz: number;
    page: number;
    bareMiB: number;
    pageMiB: number;
  },
): ColdStartPhase {
  return {
    starts: 4,
    settleMs: 3000,
    startCommand: "deno run main.ts",
    firstMs: {
      bare: { healthz: [25, 26, 27] },
      start: { healthz: [healthz], page: [page] },
      deploy: {},
      task: {},
    },
    idleMiB: { bare: [bareMiB], start: [60] },
    idleAfterPageMiB: { start: [pageMiB] },
  } as unknown as ColdStartPhase;
}

const stall = (idle: number, during: number) =>
  ({
    idle: figure(9000, idle),
    during: figure(8000, during),
    draws: { tickets: 30, drawn: 30, errors: 0, seconds: 3, drawMs: [] },
  }) as Stall;

const memory = (hwmMiB: number, drawn = 500) =>
  ({
    hwmMiB,
    reads: figure(8000),
    draws: { tickets: 500, drawn, errors: 0, seconds: 60, drawMs: [] },
    cardErrors: 0,
  }) as unknown as MemoryPhase;

Deno.test("bench:load's guards", async (t) => {
  await t.step("every target met: nothing missed, one row each", () => {
    const guards = buildGuards({
      rows: [row("ruta", 0.8, 900, 1000), row("verify", 0.6, 700, 1000)],
      coldStart: coldStart({
        healthz: 90,
        page: 150,
        bareMiB: 37,
        pageMiB: 70,
      }),
      stall: stall(1, 1.5),
      memory: memory(200),
      baselineMemory: { hwmMiB: 80, rssMiB: 40 },
    });
    assert.equal(guards.length, 7);
    assert.deepEqual(missedGuards(guards), []);
  });

  await t.step("each target missed is named, so the run exits 1", () => {
    const guards = buildGuards({
      rows: [row("ruta", 0.8, 700, 1000), row("verify", 0.6, 500, 1000)],
      coldStart: coldStart({
        healthz: 110,
        page: 170,
        bareMiB: 37,
        pageMiB: 80,
      }),
      stall: stall(1, 2.5),
      memory: memory(250),
      baselineMemory: { hwmMiB: 80, rssMiB: 40 },
    });
    assert.deepEqual(missedGuards(guards), [
      "ruta 0.70 < 0.8",
      "verify 0.50 < 0.6",
      "first healthz 4.23 × > 4 ×",
      "first page 6.54 × > 6 ×",
      "idle RSS 2.16 × > 2 ×",
      "healthz p99 while drawing 2.50 × > 2 ×",
      "peak RSS 262 MB > 256 MB",
    ]);
  });

  await t.step(
    "a verify-visit run with errors or a card not drawn fails",
    () => {
      const verify = row("verify", 0.6, 900, 1000);
      verify.service = [figure(900, 1, 3)];
      const guards = buildGuards({
        rows: [verify],
        memory: memory(200, 499),
        baselineMemory: { hwmMiB: 80, rssMiB: 40 },
      });
      assert.equal(missedGuards(guards).length, 2);
    },
  );

  await t.step("the table puts the baseline beside each figure", () => {
    const lines = formatGuards(buildGuards({
      rows: [row("verify", 0.6, 500, 1000)],
    }));
    assert.match(
      lines.at(-1)!,
      /\| 1,000 req\/s \| 500 req\/s \| 0\.50 \| ≥ 0\.6 \| ❌ \|$/,
    );
  });
});
