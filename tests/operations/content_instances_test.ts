/**
 * The content published in KV, across instances: two service processes on
 * one KV file (two instances behind a load balancer), a third process
 * publishing with `deno task content:import`. Deno's local KV does not
 * tell one process of another's writes, so this is what each instance's
 * bounded polling of `content_published` keeps (lib/content/content_store.ts):
 * the new content on both within a second, still there after a restart,
 * and an export that gives back the imported file byte for byte.
 */
import assert from "node:assert/strict";
import {
  getFreePort,
  runScript,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { DATA_PATH } from "../test_utils.ts";

/** The promise: a published change shows on every instance within this. */
const WITHIN_MS = 1_000;

/** Runs `scripts/content.ts <args>` as the content tasks do. */
function runContentTask(env: Record<string, string>, args: string[]) {
  return runScript("content", args, { env });
}

async function pageShows(
  service: ServiceProcess,
  text: string,
): Promise<boolean> {
  const res = await fetch(`${service.url}/turismo/atractivos/plaza-principal`);
  return (await res.text()).includes(text);
}

Deno.test("content imported on one KV file shows on both instances within 1 s, and survives a restart", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-content-" });
  const env = { KV_PATH: `${dir}/turismo.kv`, TOURISM_DATA: DATA_PATH };
  const shipped = JSON.parse(await Deno.readTextFile(DATA_PATH));
  const oldName = shipped.attractions[0].name;
  const edited = structuredClone(shipped);
  edited.attractions[0].name = "Plaza de Armas (nombre nuevo)";
  const editedPath = `${dir}/editado.json`;
  const editedText = JSON.stringify(edited, null, 2) + "\n";
  await Deno.writeTextFile(editedPath, editedText);
  const services = [
    startService({ env, port: await getFreePort() }),
    startService({ env, port: await getFreePort() }),
  ];
  try {
    await Promise.all(services.map(waitUntilHealthy));
    const [a, b] = services;
    // Of the two first starts, one seeded KV and the other took its version.
    assert.ok(await pageShows(a, oldName));
    assert.ok(await pageShows(b, oldName));

    await t.step("an import: A and B show it within 1 s", async () => {
      const started = performance.now();
      const task = await runContentTask(env, ["import", editedPath]);
      const publishedAt = performance.now();
      assert.equal(task.code, 0, task.stderr);
      assert.match(task.stdout, /attractions\[plaza-principal\]: name/);
      const seen: number[] = [];
      for (const service of [a, b]) {
        for (;;) {
          if (await pageShows(service, "Plaza de Armas (nombre nuevo)")) {
            seen.push(performance.now() - publishedAt);
            break;
          }
          assert.ok(
            performance.now() - publishedAt <= WITHIN_MS,
            `${service.url} still shows the old name`,
          );
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      console.log(
        `import task ${
          Math.round(publishedAt - started)
        } ms; shown on A after ${Math.round(seen[0])} ms, on B after ${
          Math.round(seen[1])
        } ms`,
      );
    });

    await t.step(
      "B restarted: the imported content, not the file",
      async () => {
        await stopServices([b]);
        services[1] = startService({ env, port: b.port });
        await waitUntilHealthy(services[1]);
        assert.ok(
          await pageShows(services[1], "Plaza de Armas (nombre nuevo)"),
        );
        assert.match(services[1].output(), /differs and is not used/);
      },
    );

    await t.step(
      "the export gives the imported file back, byte for byte",
      async () => {
        const task = await runContentTask(env, ["export"]);
        assert.equal(task.code, 0, task.stderr);
        assert.equal(task.stdout, editedText);
      },
    );

    await t.step("a broken file: refused, nothing published", async () => {
      const broken = `${dir}/roto.json`;
      edited.attractions[0].location.lat = 200;
      await Deno.writeTextFile(broken, JSON.stringify(edited));
      const task = await runContentTask(env, ["import", broken]);
      assert.equal(task.code, 1);
      assert.match(task.stderr, /attractions\[0\]\.location\.lat/);
      assert.ok(await pageShows(a, "Plaza de Armas (nombre nuevo)"));
    });
  } finally {
    const statuses = await stopServices(services);
    assert.deepEqual(
      statuses.map((status) => status.code),
      [0, 0],
      // What a service that did not stop cleanly said last.
      services.map((service, i) =>
        `instance ${"AB"[i]}: …${service.output().slice(-1500)}`
      ).join("\n"),
    );
    await Deno.remove(dir, { recursive: true });
  }
});
