/**
 * The first phase: a seeded KV file, the islands' bundle, the stand-in
 * model, the service on its defaults, the reads' bytes captured and the
 * baseline server answering them, and the files the Lua scripts read.
 */
import type { Options } from "./config.ts";
import { type Captured, captureReads } from "./capture.ts";
import { makeColdPools, makeMemoryCodes, RunFiles, seed } from "./fixtures.ts";
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
  /** The service on its defaults (request log and per-IP budget on). */
  service: Service;
  baseline: Started;
  baselineUrl: string;
  reads: Captured;
  files: RunFiles;
  /** Share codes of the tickets the memory phase makes (none exists before). */
  memoryCodes: string[];
  /** The next salt for a wrk run (1, 2, ...): other client addresses. */
  nextSalt: () => number;
}

export async function setUp(options: Options, dir: string): Promise<Bench> {
  // Cold share codes (tickets saved without a card, which the og-cold runs
  // ask for): one pool per run; the memory phase's tickets are made then.
  const coldPools = makeColdPools(options.rounds);
  const memoryCodes = makeMemoryCodes(options.memoryCards);
  const mainKv = `${dir}/service.kv`;
  console.info("Seeding the KV file...");
  const mainFixtures = await seed(mainKv, { coldCodes: coldPools.flat() });

  await buildBundle();
  const modelUrl = await startModel();
  const service = await startService({
    name: "service",
    kvPath: mainKv,
    fixtures: mainFixtures,
    modelUrl,
  });

  // The reads' bytes, captured once and served by the baseline server.
  const reads = await captureReads(service.url, mainFixtures.slugs[0], dir);
  const { baseline, baselineUrl } = await startBaseline(reads.manifestPath);

  const files = new RunFiles(dir, coldPools);
  await files.writeShared(mainFixtures, service);
  let salt = 1;
  return {
    options,
    dir,
    modelUrl,
    service,
    memoryCodes,
    baseline,
    baselineUrl,
    reads,
    files,
    nextSalt: () => salt++,
  };
}
