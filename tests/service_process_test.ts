import assert from "node:assert/strict";
import { ENV_NAMES } from "@/lib/config/config.ts";
import { serviceEnv } from "./service_process.ts";

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
    PORT: "8123",
  });
});
