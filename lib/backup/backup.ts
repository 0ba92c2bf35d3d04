/**
 * `deno task backup <file>`: a consistent snapshot of the service's KV
 * while it runs. A KV file is copied by SQLite itself (`VACUUM INTO`, one
 * read transaction: a point in time, every acknowledged write before it,
 * exact expiries), never as a file in use. A KV Connect URL is exported
 * through the KV API into a file of the same format (see
 * {@linkcode exportEntries} for what that can and cannot promise).
 */
import { dirname, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describeKvPath, isKvConnectUrl, openKv } from "@/lib/db/kv.ts";
import {
  BackupError,
  type BackupMeta,
  inspectBackup,
  writeBackupMeta,
} from "./backup_file.ts";
import { BATCH_SIZE, type EntryToWrite, writeEntries } from "./copy_entries.ts";
import { getExportLifetimeMs } from "./expiry.ts";

/** What a backup wrote. */
export interface BackupResult extends BackupMeta {
  /** The backup file's size in bytes. */
  bytes: number;
}

/**
 * Checks that `kvPath` is a store one can back up or restore: a file or a
 * KV Connect URL (the platform's own KV on Deploy has no address from
 * outside; `:memory:` ends with its process).
 */
export function checkKvTarget(kvPath: string | undefined): string {
  if (kvPath === undefined) {
    throw new BackupError(
      "KV_PATH is not set (Deno Deploy's own KV): set KV_PATH to the database's KV Connect URL and DENO_KV_ACCESS_TOKEN to a token (docs/DEPLOY.md)",
    );
  }
  if (kvPath === ":memory:") {
    throw new BackupError(
      "KV_PATH is :memory:, which lives only inside its process: nothing to back up or restore",
    );
  }
  return kvPath;
}

/**
 * Writes a backup of the KV at `kvPath` to `file`: to a temporary name
 * beside it (created 0600: the backup holds the signing secret and
 * personal data), checked, then renamed into place. `viaApi` exports a
 * local file through the KV API, as a KV Connect URL always is.
 */
export async function createBackup(
  { kvPath, file, viaApi = false, now = () => new Date() }: {
    kvPath: string | undefined;
    file: string;
    viaApi?: boolean;
    now?: () => Date;
  },
): Promise<BackupResult> {
  const source = checkKvTarget(kvPath);
  const isUrl = isKvConnectUrl(source);
  if (!isUrl) {
    try {
      await Deno.stat(source);
    } catch {
      throw new BackupError(`${source}: no KV file there, nothing to back up`);
    }
    const target = resolve(file);
    if (
      [source, `${source}-wal`, `${source}-shm`].some((path) =>
        resolve(path) === target
      )
    ) {
      throw new BackupError(
        `${file} is the KV file itself: write the backup somewhere else`,
      );
    }
  }
  await Deno.mkdir(dirname(resolve(file)), { recursive: true, mode: 0o700 });
  const temp = `${file}.partial-${crypto.randomUUID().slice(0, 8)}`;
  const created = await Deno.open(temp, {
    createNew: true,
    write: true,
    mode: 0o600,
  });
  created.close();
  try {
    const createdAt = now().toISOString();
    let method: BackupMeta["method"];
    if (isUrl || viaApi) {
      method = "kv-api";
      const kv = await openKv(source);
      try {
        await exportEntries(kv, temp);
      } finally {
        kv.close();
      }
    } else {
      method = "sqlite";
      snapshotKvFile(source, temp);
    }
    const meta = writeBackupMeta(temp, {
      createdAt,
      source: describeKvPath(source),
      method,
    });
    inspectBackup(temp, file);
    await Deno.chmod(temp, 0o600);
    await Deno.rename(temp, file);
    return { ...meta, bytes: (await Deno.stat(file)).size };
  } catch (error) {
    for (
      const path of [temp, `${temp}-journal`, `${temp}-wal`, `${temp}-shm`]
    ) {
      await Deno.remove(path).catch(() => {});
    }
    throw error;
  }
}

/**
 * SQLite's `VACUUM INTO` from a read-only connection (so closing it never
 * checkpoints or removes the service's WAL): one read transaction, a
 * consistent snapshot that waits for no writer and holds none up.
 */
function snapshotKvFile(source: string, into: string): void {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(source, { readOnly: true, timeout: 10_000 });
  } catch (error) {
    throw new BackupError(
      `${source} cannot be opened: ${(error as Error).message}`,
    );
  }
  try {
    const kvTable = db.prepare(
      "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kv'",
    ).get();
    if (!kvTable) {
      throw new BackupError(`${source} is not a Deno KV file (no kv table)`);
    }
    db.prepare("VACUUM INTO ?").run(into);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `${source} could not be copied: ${(error as Error).message}`,
    );
  } finally {
    db.close();
  }
}

/**
 * Copies every entry of `source` into a new KV file at `into`. The KV API
 * lists in pages, each its own consistent read, so this is not one point
 * in time: an entry written during the export may or may not be in it,
 * and the keys of one atomic write may straddle two pages. Every write
 * acknowledged before the export began is in it. Expiries are not visible
 * through the API; see `expiry.ts` for the bound put on them instead.
 */
export async function exportEntries(
  source: Deno.Kv,
  into: string,
): Promise<number> {
  const target = await Deno.openKv(into);
  let count = 0;
  try {
    let batch: EntryToWrite[] = [];
    for await (
      const { key, value } of source.list({ prefix: [] }, {
        batchSize: 500,
        consistency: "strong",
      })
    ) {
      batch.push({ key, value, expireIn: getExportLifetimeMs(key) });
      count++;
      if (batch.length >= BATCH_SIZE) {
        await writeEntries(target, batch);
        batch = [];
      }
    }
    await writeEntries(target, batch);
  } finally {
    target.close();
  }
  return count;
}
