/**
 * The first phase: seeded KV files, the islands' bundle, the stand-in model,
 * the two services (per-IP budget off and on), the reads' bytes captured and
 * the baseline server answering them, and the files the Lua scripts read.
 */
import type { Options } from "./config.ts";
import { type Captured, captureReads } from "./capture.ts";
import { makeColdPools, RunFiles, seed } from "./fixtures.ts";
import {
  buildBundle,
  type Service,
  startBaseline,
  type Started,
  startModel,
  startService,
} from "./processes.ts";

/** Everything the measuring phases use. */
export interface Bench {
  options: Options;
  dir: string;
  modelUrl: string;
  /** The service with the per-IP budget off: every row. */
  service: Service;
  /** The service with IP_BUDGET_PER_MINUTE=300: the budget rows. */
  budgeted: Service;
  baseline: Started;
  baselineUrl: string;
  reads: Captured;
  files: RunFiles;
  /** The next salt for a wrk run (1, 2, ...): other client addresses. */
  nextSalt: () => number;
}

export async function setUp(options: Options, dir: string): Promise<Bench> {
  // Cold share codes: one pool per cold run.
  const coldPools = makeColdPools(options.rounds + 2);
  const mainKv = `${dir}/service.kv`;
  const budgetKv = `${dir}/service-budget.kv`;
  console.info("Seeding the KV files...");
  const [mainFixtures, budgetFixtures] = await Promise.all([
    seed(mainKv, { coldCodes: coldPools.flat() }),
    seed(budgetKv, { coldCodes: [] }),
  ]);

  await buildBundle();
  const modelUrl = await startModel();
  const service = await startService({
    name: "service",
    kvPath: mainKv,
    fixtures: mainFixtures,
    budget: 0,
    modelUrl,
  });
  const budgeted = await startService({
    name: "service (IP budget 300/min)",
    kvPath: budgetKv,
    fixtures: budgetFixtures,
    budget: 300,
    modelUrl,
  });

  // The reads' bytes, captured once and served by the baseline server.
  const reads = await captureReads(service.url, mainFixtures.slugs[0], dir);
  const { baseline, baselineUrl } = await startBaseline(reads.manifestPath);
  // Warm the budgeted service's card cache too.
  await (await fetch(`${budgeted.url}${reads.paths.og}`)).body?.cancel();

  const files = new RunFiles(dir, coldPools);
  await files.writeShared(mainFixtures, service);
  let salt = 1;
  return {
    options,
    dir,
    modelUrl,
    service,
    budgeted,
    baseline,
    baselineUrl,
    reads,
    files,
    nextSalt: () => salt++,
  };
}
