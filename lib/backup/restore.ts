/**
 * `deno task restore <file>`: loads a backup into an empty store, or with
 * `force` in place of everything a store holds. Everything is checked
 * before the target is touched: the backup's integrity, and that every
 * entry in it can be read back. A KV file is restored into a new file
 * beside it that is renamed into place at the end, so an interrupted
 * restore changes nothing; it must not be in use (the service stopped),
 * which is checked with SQLite's own locks. A KV Connect URL is written
 * through the KV API (no other way in); there nothing can tell whether a
 * service is using it, and a `force` restore deletes, then writes.
 */
import { basename, dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import {
  describeKvPath,
  isKvConnectUrl,
  openKv,
  restrictKvFile,
} from "@/lib/db/kv.ts";
import { checkKvTarget } from "./backup.ts";
import { BackupError, type BackupInfo, inspectBackup } from "./backup_file.ts";
import {
  BATCH_SIZE,
  deleteAllEntries,
  type EntryToWrite,
  hasEntries,
  writeEntries,
} from "./copy_entries.ts";
import { encodeKvKeyHex } from "./kv_key_codec.ts";

/** What a restore did. */
export interface RestoreResult {
  /** Entries written into the target. */
  entries: number;
  /** Entries of the backup that had expired by now, left out. */
  expired: number;
  /** Entries the target held before, deleted (`force` only). */
  replaced: boolean;
  /** The target, as logs name it. */
  target: string;
}

/**
 * Restores `file` into the KV at `kvPath`. Throws {@linkcode BackupError}
 * (one line, nothing changed) for a damaged backup, a store that holds
 * data without `force`, or a KV file in use by another process. `into`,
 * an open store, is written through the KV API as a KV Connect URL is
 * (`kvPath` then only names it).
 */
export async function restoreBackup(
  { file, kvPath, force = false, now = Date.now, into }: {
    file: string;
    kvPath: string | undefined;
    force?: boolean;
    now?: () => number;
    into?: Deno.Kv;
  },
): Promise<RestoreResult> {
  const target = checkKvTarget(kvPath);
  const dir = await Deno.makeTempDir({ prefix: "turismo-restore-" });
  try {
    // A private copy: opening a database may leave side files beside it,
    // and `Deno.openKv` writes to it (WAL, expired rows dropped).
    const copy = join(dir, "backup.kv");
    try {
      await Deno.copyFile(file, copy);
    } catch (error) {
      throw new BackupError(
        error instanceof Deno.errors.NotFound
          ? `${file}: no such file`
          : `${file} cannot be read: ${(error as Error).message}`,
      );
    }
    const info = inspectBackup(copy, file);
    let source: Deno.Kv;
    try {
      source = await Deno.openKv(copy);
    } catch (error) {
      throw new BackupError(
        `${file} is not a usable backup: ${(error as Error).message}`,
      );
    }
    try {
      await checkReadable(source, info, file);
      let result;
      if (into) {
        result = await restoreThroughApi(source, info, into, {
          target,
          force,
          now,
        });
      } else if (isKvConnectUrl(target)) {
        const kv = await openKv(target);
        try {
          result = await restoreThroughApi(source, info, kv, {
            target,
            force,
            now,
          });
        } finally {
          kv.close();
        }
      } else {
        result = await restoreKvFile(source, info, { target, force, now });
      }
      return { ...result, target: describeKvPath(target) };
    } finally {
      source.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Reads every entry of the backup once before anything is written: each
 * must have its row (so its expiry is known), and every row that has not
 * expired must come back as an entry.
 */
async function checkReadable(
  source: Deno.Kv,
  info: BackupInfo,
  file: string,
): Promise<void> {
  const seen = new Set<string>();
  try {
    for await (const { key } of source.list({ prefix: [] })) {
      const hex = encodeKvKeyHex(key);
      if (!info.expirations.has(hex)) {
        throw new BackupError(
          `${file} is not a usable backup: entry ${
            JSON.stringify(key, (_, v) => typeof v === "bigint" ? `${v}n` : v)
          } has no row of its own`,
        );
      }
      seen.add(hex);
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `${file} is not a usable backup: ${(error as Error).message}`,
    );
  }
  // Deno KV hides rows that expired by its own clock.
  const at = Date.now();
  for (const [hex, expiresAt] of info.expirations) {
    if ((expiresAt < 0 || expiresAt > at) && !seen.has(hex)) {
      throw new BackupError(
        `${file} is not a usable backup: some entries cannot be read back`,
      );
    }
  }
}

/** Copies every live entry of `source` into `target` with its remaining lifetime. */
async function copyInto(
  source: Deno.Kv,
  target: Deno.Kv,
  info: BackupInfo,
  now: () => number,
): Promise<{ entries: number; expired: number }> {
  let entries = 0;
  let expired = 0;
  let batch: EntryToWrite[] = [];
  for await (const { key, value } of source.list({ prefix: [] })) {
    const expiresAt = info.expirations.get(encodeKvKeyHex(key)) ?? -1;
    let expireIn: number | undefined;
    if (expiresAt >= 0) {
      expireIn = expiresAt - now();
      if (expireIn <= 0) {
        expired++;
        continue;
      }
    }
    batch.push({ key, value, expireIn });
    entries++;
    if (batch.length >= BATCH_SIZE) {
      await writeEntries(target, batch);
      batch = [];
    }
  }
  await writeEntries(target, batch);
  // Rows the backup held that had expired: dropped when it was opened, or
  // found expired here.
  return { entries, expired: Math.max(expired, info.rows - entries) };
}

function refuseNonEmpty(target: string): never {
  throw new BackupError(
    `${
      describeKvPath(target)
    } already holds data: nothing restored (--force replaces everything in it)`,
  );
}

async function restoreThroughApi(
  source: Deno.Kv,
  info: BackupInfo,
  kv: Deno.Kv,
  { target, force, now }: { target: string; force: boolean; now: () => number },
): Promise<Omit<RestoreResult, "target">> {
  const replaced = await hasEntries(kv);
  if (replaced && !force) refuseNonEmpty(target);
  if (replaced) await deleteAllEntries(kv);
  return { ...await copyInto(source, kv, info, now), replaced };
}

/**
 * Whether another process has the SQLite database at `path` open: every
 * connection to a WAL database holds a shared lock on it, so an exclusive
 * lock is refused while the service runs.
 */
export function isKvFileInUse(path: string): boolean {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { timeout: 200 });
  } catch (error) {
    throw new BackupError(
      `${path} cannot be opened: ${(error as Error).message}`,
    );
  }
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return false;
  } catch (error) {
    if (/locked|busy/i.test((error as Error).message)) return true;
    throw new BackupError(
      `${path} is not a KV file: ${(error as Error).message}`,
    );
  } finally {
    db.close();
  }
}

function refuseInUse(target: string): never {
  throw new BackupError(
    `${target} is open in another process (the service?): stop it, then restore`,
  );
}

async function restoreKvFile(
  source: Deno.Kv,
  info: BackupInfo,
  { target, force, now }: { target: string; force: boolean; now: () => number },
): Promise<Omit<RestoreResult, "target">> {
  const size = await Deno.stat(target).then((s) => s.size, () => -1);
  let replaced = false;
  if (size > 0) {
    if (isKvFileInUse(target)) refuseInUse(target);
    // Plain `Deno.openKv`: a refused restore must not even tighten modes.
    const existing = await Deno.openKv(target);
    try {
      replaced = await hasEntries(existing);
    } finally {
      existing.close();
    }
    if (replaced && !force) refuseNonEmpty(target);
  }
  const temp = join(
    dirname(target),
    `${basename(target)}.restore-${crypto.randomUUID().slice(0, 8)}`,
  );
  const sideFiles = (path: string) => [`${path}-wal`, `${path}-shm`];
  try {
    await restrictKvFile(temp);
    const kv = await Deno.openKv(temp);
    let counts;
    try {
      counts = await copyInto(source, kv, info, now);
    } finally {
      kv.close();
    }
    if (size > 0 && isKvFileInUse(target)) refuseInUse(target);
    for (const path of sideFiles(target)) {
      await Deno.remove(path).catch(() => {});
    }
    await Deno.rename(temp, target);
    return { ...counts, replaced };
  } finally {
    for (const path of [temp, ...sideFiles(temp)]) {
      await Deno.remove(path).catch(() => {});
    }
  }
}
