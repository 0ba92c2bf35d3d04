/**
 * The backup file: a Deno KV SQLite database, the same format as a KV file
 * (`KV_PATH`), plus one small table that says what made it and how many
 * rows its `kv` table held. Rollback journal, not WAL, so it is one
 * self-contained file. Restore opens it with `Deno.openKv`; any Deno KV
 * SQLite file (a stopped service's KV file, a `denokv` server's database)
 * is accepted too, without the count check.
 */
import { DatabaseSync } from "node:sqlite";
import { toHex } from "./kv_key_codec.ts";

/** Written into every backup; restore refuses another. */
export const BACKUP_FORMAT = "turismo-kv-backup/1";
const META_TABLE = "turismo_backup";
const SQLITE_HEADER = "SQLite format 3\0";
const KV_COLUMNS = ["k", "v", "v_encoding", "version", "expiration_ms"];

/** A backup or restore that cannot go on: `message` is the one line to print. */
export class BackupError extends Error {
  override name = "BackupError";
}

/** How a backup was made, recorded in it. */
export interface BackupMeta {
  format: string;
  /** ISO time the snapshot was taken. */
  createdAt: string;
  /** Where it came from, as logs name it (never a URL's path or token). */
  source: string;
  /** `sqlite` (SQLite's `VACUUM INTO` of a KV file) or `kv-api` (every entry read through the KV API). */
  method: "sqlite" | "kv-api";
  /** Rows of the `kv` table when the backup was written. */
  entries: number;
}

/** What a verified backup holds. */
export interface BackupInfo {
  /** Rows of its `kv` table, expired ones not yet dropped included. */
  rows: number;
  /** The recorded metadata; absent in a plain KV file. */
  meta?: BackupMeta;
  /** Each row's expiry (epoch ms, -1 for none), by the hex of its key's bytes. */
  expirations: Map<string, number>;
}

/**
 * Records `meta` (with the `kv` table's row count) in the database at
 * `path` and switches it to a rollback journal, so the file stands alone.
 * Returns the recorded metadata.
 */
export function writeBackupMeta(
  path: string,
  meta: Omit<BackupMeta, "format" | "entries">,
): BackupMeta {
  const db = new DatabaseSync(path);
  try {
    db.exec("PRAGMA journal_mode = DELETE");
    const { n } = db.prepare("SELECT count(*) AS n FROM kv").get() as {
      n: number;
    };
    const full: BackupMeta = { format: BACKUP_FORMAT, ...meta, entries: n };
    db.exec(`DROP TABLE IF EXISTS ${META_TABLE}`);
    db.exec(
      `CREATE TABLE ${META_TABLE} (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    );
    const insert = db.prepare(`INSERT INTO ${META_TABLE} VALUES (?, ?)`);
    for (const [name, value] of Object.entries(full)) {
      insert.run(name, String(value));
    }
    return full;
  } finally {
    db.close();
  }
}

/**
 * Checks a backup before anything is restored from it: a SQLite file that
 * passes `PRAGMA integrity_check`, with Deno KV's `kv` table, and as many
 * rows as its metadata recorded. Open only a copy no one else uses: a
 * read-only open may still leave SQLite's side files beside it. Throws
 * {@linkcode BackupError} with the reason.
 */
export function inspectBackup(path: string, name = path): BackupInfo {
  const refuse = (why: string): never => {
    throw new BackupError(`${name} is not a usable backup: ${why}`);
  };
  let header: Uint8Array;
  try {
    const file = Deno.openSync(path);
    header = new Uint8Array(SQLITE_HEADER.length);
    const read = file.readSync(header) ?? 0;
    file.close();
    header = header.subarray(0, read);
  } catch (error) {
    return refuse((error as Error).message);
  }
  if (new TextDecoder().decode(header) !== SQLITE_HEADER) {
    refuse("not a SQLite database");
  }
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path, { readOnly: true });
    const problems = db.prepare("PRAGMA integrity_check").all().map((row) =>
      String(Object.values(row)[0])
    );
    if (problems.join() !== "ok") {
      refuse(`the file is damaged (${problems.slice(0, 2).join("; ")})`);
    }
    const columns = db.prepare("SELECT name FROM pragma_table_info('kv')")
      .all().map((row) => String(row.name));
    const missing = KV_COLUMNS.filter((column) => !columns.includes(column));
    if (missing.length) {
      refuse(
        columns.length
          ? `its kv table lacks ${missing.join(", ")}`
          : "no Deno KV table in it",
      );
    }
    const expirations = new Map<string, number>();
    for (
      const row of db.prepare("SELECT k, expiration_ms FROM kv").iterate()
    ) {
      expirations.set(
        toHex(row.k as Uint8Array),
        Number(row.expiration_ms),
      );
    }
    const meta = readMeta(db);
    if (meta && meta.format !== BACKUP_FORMAT) {
      refuse(`format ${meta.format}, not ${BACKUP_FORMAT}`);
    }
    if (meta && meta.entries !== expirations.size) {
      refuse(
        `it recorded ${meta.entries} entries but holds ${expirations.size} (truncated?)`,
      );
    }
    return { rows: expirations.size, meta, expirations };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    return refuse((error as Error).message);
  } finally {
    db?.close();
  }
}

function readMeta(db: DatabaseSync): BackupMeta | undefined {
  const table = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
  ).get(META_TABLE);
  if (!table) return undefined;
  const values = Object.fromEntries(
    db.prepare(`SELECT name, value FROM ${META_TABLE}`).all().map((row) => [
      String(row.name),
      String(row.value),
    ]),
  );
  return {
    format: values.format ?? "unknown",
    createdAt: values.createdAt ?? "",
    source: values.source ?? "",
    method: values.method === "kv-api" ? "kv-api" : "sqlite",
    entries: Number(values.entries),
  };
}
