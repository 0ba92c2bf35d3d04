import assert from "node:assert/strict";
import { ENV_NAMES } from "@/lib/config/config.ts";
import {
  createStaffLinkFor,
  getFreePort,
  serviceEnv,
  startService,
} from "../service_process.ts";
import { TEST_MAP_TILE_URL } from "../map_tiles.ts";
import { DATA_PATH } from "../test_utils.ts";

Deno.test("serviceEnv: a service process started by a test inherits none of the settings of the shell that runs it", () => {
  // A developer's shell that loaded `.env` (direnv, say) exports them all.
  const shell: Record<string, string> = {
    PATH: "/usr/bin",
    HOME: "/home/ana",
    DENO_DIR: "/home/ana/.cache/deno",
    DENO_DEPLOYMENT_ID: "prod",
    DENO_KV_ACCESS_TOKEN: "token",
  };
  for (const name of ENV_NAMES) shell[name] = "from the shell";
  assert.ok(ENV_NAMES.includes("STAFF"));
  assert.ok(ENV_NAMES.includes("CHAT_DAILY_LIMIT"));

  assert.deepEqual(serviceEnv({ PORT: "8123" }, shell), {
    PATH: "/usr/bin",
    HOME: "/home/ana",
    DENO_DIR: "/home/ana/.cache/deno",
    LOG_REQUESTS: "false",
    // The maps' tiles from a loopback address (tests/map_tiles.ts).
    MAP_TILE_URL: TEST_MAP_TILE_URL,
    PORT: "8123",
  });
});

Deno.test("startService: a service in the working copy without a KV_PATH of its own is refused, before it starts", async () => {
  const port = await getFreePort();
  assert.throws(() => startService({ port }), /KV_PATH of its own/);
  assert.throws(
    () => startService({ port, env: { TOURISM_DATA: DATA_PATH } }),
    /KV_PATH of its own/,
  );
  await assert.rejects(
    createStaffLinkFor({ port, email: "ana@ejemplo.mx", role: "admin" }),
    /KV_PATH of its own/,
  );
  // Nothing listens: no process was started.
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
});
