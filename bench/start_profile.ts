/**
 * Where a cold start's time goes, step by step, in one fresh process: the
 * imports, the configuration, the data set, the dependencies (KV, caches,
 * workers), the app, then a first `/healthz` and a first page, each with
 * the time since the process started. The numbers behind
 * docs/PERFORMANCE.md's "Cold start" section:
 *
 *   deno run -A bench/start_profile.ts
 *   MALLOC_ARENA_MAX=2 deno run -A --v8-flags=--max-semi-space-size=1 \
 *     --cpu-prof --cpu-prof-interval=100 --cpu-prof-dir=prof \
 *     bench/start_profile.ts
 *
 * The second writes a CPU profile of the whole start (open it in Chrome's
 * DevTools, Performance tab) with the start task's flags. A temp KV file,
 * the configured data set (`TOURISM_DATA`) and a model that is never
 * called; requests go through `app.request()`, so the time a bare
 * `Deno.serve` needs to answer (bench/bare_server.ts) is not in it.
 */
const steps: [string, number][] = [];
let seeding = 0; // the seeding start's time, taken off every figure
const mark = (step: string) => steps.push([step, performance.now() - seeding]);
mark("runtime ready");

// As a restarted instance meets it: a KV file that an earlier start seeded
// from the data set, so the content comes from KV (the seeding start runs in
// a process of its own first, its time not counted here).
if (Deno.args[0] === "--seed") {
  const { parseConfig } = await import("@/lib/config/config.ts");
  const { openDeps } = await import("@/deps.ts");
  const config = parseConfig({ ...Deno.env.toObject(), KV_PATH: Deno.args[1] });
  await (await openDeps(config)).close();
  Deno.exit(0);
}
const dir = await Deno.makeTempDir({ prefix: "turismo-start-profile-" });
const kvPath = `${dir}/turismo.kv`;
const seedingFrom = performance.now();
const seeded = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL(import.meta.url).pathname, "--seed", kvPath],
  stdout: "null",
}).output();
if (!seeded.success) throw new Error("the seeding start failed");
seeding = performance.now() - seedingFrom;

const { createApp } = await import("@/app.ts");
mark("app.ts imported (Hono, the middleware)");
const { parseConfig } = await import("@/lib/config/config.ts");
mark("config imported");
const { openDeps } = await import("@/deps.ts");
const { checkStartConditions } = await import("@/lib/server/lifecycle.ts");
mark("everything else main.ts imports");

const config = parseConfig({
  ...Deno.env.toObject(),
  KV_PATH: kvPath,
  OPENAI_API_KEY: "not-called",
  OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
  LOG_REQUESTS: "false",
});
mark("configuration parsed");
checkStartConditions(config);
const deps = await openDeps(config);
// openDeps marks its own steps (performance.mark, "start: ...").
for (const entry of performance.getEntriesByType("mark")) {
  if (entry.name.startsWith("start: ")) {
    steps.push([`openDeps: ${entry.name.slice(7)}`, entry.startTime - seeding]);
  }
}
mark("dependencies open (KV, content, caches, render pool)");
const app = createApp(deps);
mark("app built");
const health = await app.request("/healthz");
await health.body?.cancel();
mark(`first /healthz (${health.status})`);
const home = await app.request("/", {
  headers: { "Accept-Encoding": "br, gzip" },
});
await home.arrayBuffer();
mark(`first page / (${home.status})`);
const attraction = await app.request("/turismo/atractivos", {
  headers: { "Accept-Encoding": "br, gzip" },
});
await attraction.arrayBuffer();
mark(`next page /turismo/atractivos (${attraction.status})`);

await deps.close();
await Deno.remove(dir, { recursive: true });

let previous = 0;
console.log("| step | ms since start | ms for the step |");
console.log("|---|---:|---:|");
for (const [step, at] of steps) {
  console.log(`| ${step} | ${at.toFixed(1)} | ${(at - previous).toFixed(1)} |`);
  previous = at;
}
