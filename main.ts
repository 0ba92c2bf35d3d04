import { createApp } from "./app.ts";
import {
  applyEnvFile,
  parseConfig,
  readEnvFileOption,
} from "./lib/config/config.ts";
import { openDeps } from "./deps.ts";
import {
  checkStartConditions,
  describeService,
  describeStartError,
  getStartWarnings,
  serveUntilStopped,
} from "./lib/server/lifecycle.ts";

if (import.meta.main) {
  try {
    const envFile = readEnvFileOption(Deno.args);
    if (envFile) await applyEnvFile(envFile);
    const config = parseConfig(Deno.env.toObject());
    checkStartConditions(config);
    const deps = await openDeps(config);
    console.info(describeService(deps));
    for (const warning of getStartWarnings(deps)) console.warn(warning);
    serveUntilStopped(createApp(deps), deps);
  } catch (error) {
    const message = describeStartError(error);
    if (message === undefined) throw error;
    console.error(message);
    Deno.exit(1);
  }
}
