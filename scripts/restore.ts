/**
 * Loads a backup made by `deno task backup` into the configured KV:
 * `deno task restore <file> [--force]`. Into an empty store only, unless
 * `--force`, which replaces everything the store holds. A KV file must not
 * be in use: stop the service first (checked). A damaged backup, a store
 * that holds data, a file in use: one line on stderr, exit 1, nothing
 * changed. Reads `.env` like `deno task start`.
 */
import { restoreBackup } from "@/lib/backup/mod.ts";
import { runBackupCli } from "@/scripts/_backup_cli.ts";

await runBackupCli(Deno.args, {
  usage: "Usage: deno task restore <file> [--force]",
  flag: "force",
  failure: "Restore failed",
  async run({ file, kvPath, flag }) {
    const result = await restoreBackup({ file, kvPath, force: flag });
    return `Restored ${result.entries} entries from ${file} into ${result.target}${
      result.replaced ? ", replacing what it held" : ""
    }${result.expired ? ` (${result.expired} expired, left out)` : ""}`;
  },
});
