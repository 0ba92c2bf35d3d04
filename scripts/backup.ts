/**
 * Writes a consistent backup of the service's KV while it runs:
 * `deno task backup <file> [--via-api]`. A KV file (`KV_PATH`) is copied
 * by SQLite (`VACUUM INTO`); a KV Connect URL is exported entry by entry
 * (`--via-api` does that for a file too). The file is owner-only (0600):
 * it holds the signing secret and personal data. Prints one line; a backup
 * that cannot be made is one line on stderr and exit 1. Reads `.env` like
 * `deno task start`. See docs/OPERATIONS.md "Backups" and docs/DEPLOY.md.
 */
import { createBackup } from "@/lib/backup/mod.ts";
import { formatBytes, runBackupCli } from "@/scripts/_backup_cli.ts";

await runBackupCli(Deno.args, {
  usage: "Usage: deno task backup <file> [--via-api]",
  flag: "via-api",
  failure: "Backup failed",
  async run({ file, kvPath, flag }) {
    const result = await createBackup({ kvPath, file, viaApi: flag });
    return `Backed up ${result.entries} entries (${
      formatBytes(result.bytes)
    }) of ${result.source} to ${file} (${
      result.method === "sqlite"
        ? "SQLite snapshot"
        : "export through the KV API"
    })`;
  },
});
