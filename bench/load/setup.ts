/**
 * The first phase: a seeded KV file, the islands' bundle, the stand-in
 * model, the service on its defaults, the reads' bytes captured and the
 * baseline server answering them, and the files the Lua scripts read.
 */
import { type Options, wanted } from "./config.ts";
import { type Captured, captureReads } from "./capture.ts";
import { makeColdPools, makeMemoryCodes, RunFiles, seed } from "./fixtures.ts";
import {
  buildBundle,
  getFreePort,
  type Service,
  spawn,
  startBaseline,
  type Started,
  startModel,
  startService,
  waitForHttp,
} from "./processes.ts";
import { SERVER_CORE } from "./config.ts";

/** Everything the measuring phases use. */
export interface Bench {
  options: Options;
  dir: string;
  modelUrl: string;
  /** The service on its defaults (request log and per-IP budget on). */
  service: Service;
  baseline: Started;
  baselineUrl: string;
  /** bench/lean_verify_server.ts: verify-visit's limit over HTTP. */
  leanUrl: string;
  /** Its keys, as it counted them in the service's own verification. */
  leanShape: string;
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

  const lean = wanted(options, "verify")
    ? await startLeanVerify(`${dir}/lean.kv`)
    : { url: "", shape: "" };

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
    leanUrl: lean.url,
    leanShape: lean.shape,
    reads,
    files,
    nextSalt: () => salt++,
  };
}

/**
 * Starts bench/lean_verify_server.ts on its own KV file on the server core;
 * its URL and the shape of the transaction it does, for the report.
 */
async function startLeanVerify(
  kvPath: string,
): Promise<{ url: string; shape: string }> {
  const port = await getFreePort();
  const process = spawn("lean verify", SERVER_CORE, [
    "run",
    "-A",
    "bench/lean_verify_server.ts",
    String(port),
    kvPath,
  ]);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(process, `${url}/healthz`);
  const findLine = () =>
    process.log.join("").split("\n").find((l) => l.startsWith("LEAN_SHAPE "));
  for (let i = 0; i < 100 && !findLine(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const line = findLine();
  const s = JSON.parse(line?.slice("LEAN_SHAPE ".length) ?? "{}");
  return {
    url,
    shape:
      `getMany of ${s.readKeys} keys, ${s.lists} list, ${s.checks} checks, ${s.sets} sets, ${s.sums} sums`,
  };
}
