/**
 * Where verify-visit's time goes in the service: starts it as `deno task
 * start` runs it (every default on, `TRUST_PROXY=1`) with `--cpu-prof`,
 * sends `rounds` runs of new visits (bench/load/get_client.ts's verify
 * requests: each a new passport and attraction pair), stops it, and prints
 * the functions with the most self time in its main thread's profile.
 *
 *   deno run -A bench/verify_profile.ts [--seconds=5] [--rounds=2]
 *                                       [--connections=16] [--top=25]
 *
 * The profile (`CPU.*.cpuprofile`, for Chrome's DevTools) stays in the temp
 * dir it prints. Server on core 0, client on core 1, as bench:load pins them.
 */
import { DATA_PATH, SERVER_CORE } from "./load/config.ts";
import { RunFiles, seed } from "./load/fixtures.ts";
import { ensureWrk, runWrk } from "./load/measure.ts";
import {
  decidePinning,
  getFreePort,
  readStartCommand,
  serviceEnv,
  spawn,
  startModel,
  stopAll,
  waitForHttp,
} from "./load/processes.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function (`name file:line`), largest first, in ms. */
export function topSelfTime(
  profile: Profile,
): { name: string; ms: number; share: number }[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byName = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    total += delta;
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url.split("/").at(-1);
    const name = `${frame.functionName || "(anonymous)"}${
      file ? ` ${file}:${frame.lineNumber + 1}` : ""
    }`;
    byName.set(name, (byName.get(name) ?? 0) + delta);
  });
  return [...byName].map(([name, us]) => ({
    name,
    ms: us / 1000,
    share: us / total,
  })).sort((a, b) => b.ms - a.ms);
}

if (import.meta.main) {
  const get = (name: string, fallback: number) =>
    Number(
      Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ??
        fallback,
    );
  const seconds = get("seconds", 5);
  const rounds = get("rounds", 2);
  const connections = get("connections", 16);
  const top = get("top", 25);
  await decidePinning();
  await ensureWrk({ readsOnly: true });
  const dir = await Deno.makeTempDir({ prefix: "turismo-verify-profile-" });
  try {
    const kvPath = `${dir}/service.kv`;
    const fixtures = await seed(kvPath, { coldCodes: [] });
    const modelUrl = await startModel();
    const port = await getFreePort();
    const start = await readStartCommand();
    const service = spawn("service (profiled)", SERVER_CORE, [
      "run",
      ...start.flags,
      "--cpu-prof",
      `--cpu-prof-dir=${dir}`,
      "main.ts",
    ], {
      ...serviceEnv({ port, kvPath, dataPath: DATA_PATH, modelUrl }),
      ...start.env,
      TRUST_PROXY: "1",
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(service, `${url}/healthz`);
    const files = new RunFiles(dir, []);
    await files.writeShared(fixtures, { name: "service" });
    let visits = 0;
    for (let round = 0; round < rounds; round++) {
      const figure = await runWrk({
        url: `${url}/api/turismo/verify-visit`,
        script: "verify.lua",
        args: [
          String(round + 3),
          await files.verifyUsersFile(fixtures.secret),
          files.codesFile,
        ],
        connections,
        duration: seconds,
      });
      visits += figure.requests;
      console.info(
        `run ${round + 1}: ${figure.rps.toFixed(0)} req/s, p99 ${
          figure.p99Ms.toFixed(1)
        } ms, ${figure.errors} errors`,
      );
    }
    // SIGINT: the service shuts down and Deno writes the profile.
    service.child.kill("SIGINT");
    await service.child.status;
    const file = [...Deno.readDirSync(dir)].find((e) =>
      e.name.endsWith(".cpuprofile")
    );
    if (!file) throw new Error(`no profile in ${dir}`);
    const profile: Profile = JSON.parse(
      await Deno.readTextFile(`${dir}/${file.name}`),
    );
    console.info(`\n${visits} new visits; ${dir}/${file.name}\n`);
    console.info("| self time | share | ms | µs per visit |");
    console.info("|---|---:|---:|---:|");
    for (const row of topSelfTime(profile).slice(0, top)) {
      console.info(
        `| ${row.name} | ${(row.share * 100).toFixed(1)} % | ${
          row.ms.toFixed(0)
        } | ${(row.ms * 1000 / visits).toFixed(0)} |`,
      );
    }
  } finally {
    await stopAll();
  }
}
