/**
 * Writes a consistent backup of the service's KV while it runs:
 * `deno task backup <file> [--via-api]`. A KV file (`KV_PATH`) is copied
 * by SQLite (`VACUUM INTO`); a KV Connect URL is exported entry by entry
 * (`--via-api` does that for a file too). The file is owner-only (0600):
 * it holds the signing secret and personal data. Prints one line; a backup
 * that cannot be made is one line on stderr and exit 1. Reads `.env` like
 * `deno task start`. See README "Backups" and docs/DEPLOY.md.
 */
import { parseArgs } from "node:util";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/config.ts";
import { BackupError, createBackup } from "@/lib/backup/mod.ts";
import { formatBytes } from "@/scripts/_backup_cli.ts";

const USAGE = "Usage: deno task backup <file> [--via-api]";

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
      "via-api": { type: "boolean", default: false },
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
  const result = await createBackup({
    kvPath: config.kvPath,
    file: positionals[0],
    viaApi: values["via-api"],
  });
  console.log(
    `Backed up ${result.entries} entries (${
      formatBytes(result.bytes)
    }) of ${result.source} to ${positionals[0]} (${
      result.method === "sqlite"
        ? "SQLite snapshot"
        : "export through the KV API"
    })`,
  );
} catch (error) {
  if (error instanceof BackupError || error instanceof ConfigError) {
    fail(error.message);
  }
  fail(`Backup failed: ${(error as Error).message}`);
}
