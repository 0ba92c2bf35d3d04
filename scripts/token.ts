/**
 * Prints a bearer token for a user id, signed with the service's own secret
 * from the configured KV: `deno task token [userId] [--hours N]` (at most
 * 30 days). Without a user id, a new random one is used and printed to
 * stderr. Reads `.env` like `deno task start`, so it finds the same KV.
 */
import { parseArgs } from "node:util";
import {
  MAX_OWN_TOKEN_LIFETIME_SECONDS,
  signOwnToken,
} from "@/lib/auth/mod.ts";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/mod.ts";
import {
  getOrCreateSigningSecret,
  KvStartError,
  moveLegacyKvFile,
  openKv,
} from "@/lib/db/mod.ts";

const MAX_HOURS = MAX_OWN_TOKEN_LIFETIME_SECONDS / 3600;

const { positionals, values } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    hours: { type: "string", default: "24" },
    "env-file": { type: "string" },
  },
});
const userId = positionals[0] ?? crypto.randomUUID();
const hours = Number(values.hours);
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!uuid.test(userId) || !(hours > 0 && hours <= MAX_HOURS)) {
  console.error(
    `Usage: deno task token [userId (a UUID)] [--hours N, at most ${MAX_HOURS} (30 days)]`,
  );
  Deno.exit(2);
}

let config;
try {
  if (values["env-file"]) await applyEnvFile(values["env-file"]);
  config = parseConfig(Deno.env.toObject());
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  Deno.exit(2);
}
if (config.kvPath === ":memory:") {
  console.error(
    "KV_PATH is :memory:, so no running service would accept this token.",
  );
  Deno.exit(2);
}
try {
  if (config.legacyKvPath && config.kvPath) {
    await moveLegacyKvFile(config.legacyKvPath, config.kvPath);
  }
} catch (error) {
  if (!(error instanceof KvStartError)) throw error;
  console.error(error.message);
  Deno.exit(2);
}
const kv = await openKv(config.kvPath);
const { secret } = await getOrCreateSigningSecret(kv);
kv.close();
if (!positionals[0]) console.error(`userId: ${userId}`);
console.log(
  await signOwnToken(secret, userId, { expiresInSeconds: hours * 3600 }),
);
