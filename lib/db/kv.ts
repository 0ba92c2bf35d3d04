import { keys } from "./keys.ts";

/** Whether `path` names a KV Connect server (self-hosted `denokv`, or a Deploy database from elsewhere). */
export function isKvConnectUrl(path: string): boolean {
  return /^https?:\/\//i.test(path);
}

/** How logs name a KV location (never a URL's path or query, which may carry secrets). */
export function describeKvPath(path: string | undefined): string {
  if (path === undefined) return "the platform's KV database";
  if (isKvConnectUrl(path)) return `KV Connect ${new URL(path).origin}`;
  return `KV ${path}`;
}

/**
 * Opens Deno KV: a file, `:memory:`, a KV Connect URL (the access token
 * comes from `DENO_KV_ACCESS_TOKEN`), or the platform's own KV when `path`
 * is undefined. A file is created owner-only, in a folder created
 * owner-only, because it holds the service's signing secret; an existing
 * one readable by others is tightened (see {@linkcode restrictKvFile}).
 */
export async function openKv(path?: string): Promise<Deno.Kv> {
  if (path && path !== ":memory:" && !isKvConnectUrl(path)) {
    await restrictKvFile(path);
  }
  return await Deno.openKv(path);
}

/** The files SQLite keeps for a KV file: the database, its WAL and shared memory. */
function sqliteFiles(path: string): string[] {
  return [path, `${path}-wal`, `${path}-shm`];
}

/**
 * Creates the KV file's folder (0700) and an empty file (0600; SQLite takes
 * an empty file as a new database and gives its WAL the same mode) unless
 * they exist, and takes group and other permissions off existing files.
 * Returns the files it tightened, each logged once.
 */
export async function restrictKvFile(path: string): Promise<string[]> {
  const createFile = async () =>
    (await Deno.open(path, { createNew: true, write: true, mode: 0o600 }))
      .close();
  try {
    await createFile();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      // No folder yet (a first start): made owner-only, then the file.
      await makeFolderOf(path);
      await createFile();
    } else if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
  const tightened: string[] = [];
  for (const file of sqliteFiles(path)) {
    let mode: number | null;
    try {
      mode = (await Deno.stat(file)).mode;
    } catch {
      continue; // No WAL yet, or a platform without modes.
    }
    if (mode === null || (mode & 0o077) === 0) continue;
    try {
      await Deno.chmod(file, mode & 0o700);
      console.warn(
        `${file} was readable by other users (mode ${
          (mode & 0o777).toString(8)
        }); now ${(mode & 0o700).toString(8)}: it holds the signing secret`,
      );
      tightened.push(file);
    } catch (error) {
      console.warn(
        `${file} is readable by other users and could not be restricted (${
          (error as Error).message
        }): it holds the service's signing secret; run chmod 600 on it`,
      );
    }
  }
  return tightened;
}

/**
 * The service refuses to start: one line that says what to do. Thrown
 * before anything is written.
 */
export class KvStartError extends Error {
  override name = "KvStartError";
}

/**
 * Moves the KV file of earlier versions (`./data/turismo.kv`, beside the
 * data set) to the new default place, once. The old file is opened and
 * closed first, which folds its WAL into it; if its WAL is still there
 * afterwards, another process has it open (an older version still running)
 * and nothing is moved: the start stops with what to do.
 */
export async function moveLegacyKvFile(
  from: string,
  to: string,
): Promise<boolean> {
  const exists = (file: string) =>
    Deno.stat(file).then(() => true, () => false);
  if (!(await exists(from)) || (await exists(to))) return false;
  (await Deno.openKv(from)).close();
  if (await exists(`${from}-wal`)) {
    throw new KvStartError(
      `${from} is still open in another process (an older version of the service?): stop it and start again, or set KV_PATH=${from} to keep the file where it is`,
    );
  }
  await makeFolderOf(to);
  await Deno.rename(from, to);
  await Deno.remove(`${from}-shm`).catch(() => {});
  console.info(
    `Moved the KV file ${from} to ${to}: a KV file beside the data set could lose writes (see docs/OPERATIONS.md)`,
  );
  return true;
}

/**
 * Creates the folder of a file, owner-only. node:path is imported here
 * only: a start whose KV file exists does not load Deno's Node layer for it.
 */
async function makeFolderOf(path: string): Promise<void> {
  const { dirname } = await import("node:path");
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
}

/** The most keys one `kv.getMany` takes (Deno KV refuses more). */
export const MAX_GET_MANY_KEYS = 10;

/** Returned by a transaction attempt whose commit lost a race. */
export const CONFLICT: unique symbol = Symbol("conflict");

/** Thrown when a transaction kept losing races past its bound. */
export class TransactionConflictError extends Error {
  override name = "TransactionConflictError";
}

/**
 * Commits `operation`, turning a thrown "database is locked" (several
 * processes on one KV file) into a lost race: a commit that threw was not
 * applied, so it is retried like a failed check.
 */
export async function commit(
  operation: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  try {
    return await operation.commit();
  } catch (error) {
    if (
      error instanceof TypeError && /database is locked/i.test(error.message)
    ) {
      return { ok: false };
    }
    throw error;
  }
}

/**
 * Runs `attempt` (read, check, write in one `kv.atomic()`) until it returns
 * anything but {@linkcode CONFLICT}, with jittered back-off, at most
 * `maxAttempts` times.
 */
export async function runTransaction<T>(
  attempt: () => Promise<T | typeof CONFLICT>,
  { maxAttempts = 100 }: { maxAttempts?: number } = {},
): Promise<T> {
  for (let i = 0; i < maxAttempts; i++) {
    const result = await attempt();
    if (result !== CONFLICT) return result;
    const ceiling = Math.min(50, 2 ** Math.min(i, 6));
    await new Promise((resolve) =>
      setTimeout(resolve, Math.random() * ceiling)
    );
  }
  throw new TransactionConflictError(
    `Transaction still conflicting after ${maxAttempts} attempts`,
  );
}

/**
 * One page of `kv.list` from a cursor a visitor may have written (a staff
 * page's `?antes=`): a cursor KV refuses (not base64url, too long for a
 * key, not of this listing) lists from the start, as no cursor does,
 * instead of throwing. Returns the entries and KV's cursor after them.
 */
export async function listFromCursor<T>(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  options: Deno.KvListOptions,
): Promise<{ entries: Deno.KvEntry<T>[]; cursor: string }> {
  const read = async (cursor: string | undefined) => {
    const iterator = kv.list<T>(selector, { ...options, cursor });
    const entries = await Array.fromAsync(iterator);
    return { entries, cursor: iterator.cursor };
  };
  if (!options.cursor) return await read(undefined);
  try {
    return await read(options.cursor);
  } catch (error) {
    // What KV says of a bad cursor ("invalid cursor", "Key too large for
    // read"): a TypeError before any entry is read.
    if (!(error instanceof TypeError)) throw error;
    return await read(undefined);
  }
}

/** Throws when KV does not answer a read. */
export async function pingKv(kv: Deno.Kv): Promise<void> {
  await kv.get(keys.health());
}

/** A shared KV health check: call it to read (at most once per TTL), ask `answered` whether the last read succeeded within it. */
export interface KvPing {
  (): Promise<void>;
  /** Whether a read within the TTL has answered: the health check's answer may be repeated without asking. */
  answered(): boolean;
}

/**
 * A KV health check for frequent callers (load balancers poll `/healthz`):
 * one read per `ttlMs` at most, shared by the calls meanwhile, so polling
 * costs KV nothing measurable and a failing KV still shows within `ttlMs`.
 * A failed read is not remembered: the next call reads again.
 */
export function createKvPing(
  kv: Deno.Kv,
  { ttlMs = 1_000, now = Date.now }: {
    ttlMs?: number;
    now?: () => number;
  } = {},
): KvPing {
  let last: { at: number; read: Promise<void>; ok: boolean } | undefined;
  const ping = () => {
    const at = now();
    if (!last || at - last.at >= ttlMs) {
      const read = pingKv(kv);
      const entry = { at, read, ok: false };
      last = entry;
      read.then(() => entry.ok = true, () => {
        if (last === entry) last = undefined;
      });
    }
    return last.read;
  };
  return Object.assign(ping, {
    answered: () => last !== undefined && last.ok && now() - last.at < ttlMs,
  });
}
