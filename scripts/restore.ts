/**
 * Loads a backup made by `deno task backup` into the configured KV:
 * `deno task restore <file> [--force]`. Into an empty store only, unless
 * `--force`, which replaces everything the store holds. A KV file must not
 * be in use: stop the service first (checked). A damaged backup, a store
 * that holds data, a file in use: one line on stderr, exit 1, nothing
 * changed. Reads `.env` like `deno task start`.
 */
import { parseArgs } from "node:util";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/config.ts";
import { BackupError, restoreBackup } from "@/lib/backup/mod.ts";

const USAGE = "Usage: deno task restore <file> [--force]";

function fail(message: string, code = 1): never {
  console.error(message);
  Deno.exit(code);
}

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      force: { type: "boolean", default: false },
      "env-file": { type: "string" },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`, 2);
}
const { positionals, values } = parsed;
if (positionals.length !== 1) fail(USAGE, 2);

try {
  if (values["env-file"]) applyEnvFile(values["env-file"]);
  const config = parseConfig(Deno.env.toObject());
  const result = await restoreBackup({
    file: positionals[0],
    kvPath: config.kvPath,
    force: values.force,
  });
  console.log(
    `Restored ${result.entries} entries from ${
      positionals[0]
    } into ${result.target}${
      result.replaced ? ", replacing what it held" : ""
    }${result.expired ? ` (${result.expired} expired, left out)` : ""}`,
  );
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) {
    fail(error.message);
  }
  fail(`Restore failed: ${(error as Error).message}`);
}
