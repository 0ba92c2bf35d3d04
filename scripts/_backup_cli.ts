/** Shared by scripts/backup.ts and scripts/restore.ts. */
import { parseArgs } from "node:util";
import { BackupError } from "@/lib/backup/mod.ts";
import { applyEnvFile, ConfigError, parseConfig } from "@/lib/config/mod.ts";

/** `1.2 MB`, `34 KB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(0)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function fail(message: string, code = 1): never {
  console.error(message);
  Deno.exit(code);
}

/**
 * The command line both scripts share: `<file>`, one boolean `flag`
 * (`via-api`, `force`) and `--env-file` (the tasks pass `.env`), then the
 * configured KV as `deno task start` reads it. Prints the one line `run`
 * returns. Wrong arguments: the usage on stderr, exit 2; a refusal
 * (`BackupError`, `ConfigError`): its message, exit 1; anything else:
 * `<failure>: <message>`, exit 1.
 */
export async function runBackupCli(
  args: string[],
  { usage, flag, failure, run }: {
    usage: string;
    flag: string;
    failure: string;
    run(options: {
      file: string;
      kvPath: string | undefined;
      flag: boolean;
    }): Promise<string>;
  },
): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        [flag]: { type: "boolean", default: false },
        "env-file": { type: "string" },
      },
    });
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`, 2);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) fail(usage, 2);

  try {
    const envFile = values["env-file"];
    if (typeof envFile === "string") await applyEnvFile(envFile);
    const config = parseConfig(Deno.env.toObject());
    console.log(
      await run({
        file: positionals[0],
        kvPath: config.kvPath,
        flag: values[flag] === true,
      }),
    );
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      fail(error.message);
    }
    fail(`${failure}: ${(error as Error).message}`);
  }
}
