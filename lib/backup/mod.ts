/**
 * Backups of the service's KV that restore: `deno task backup <file>` and
 * `deno task restore <file>` (scripts/backup.ts, scripts/restore.ts).
 */
export { checkKvTarget, createBackup, exportEntries } from "./backup.ts";
export {
  BACKUP_FORMAT,
  BackupError,
  type BackupInfo,
  type BackupMeta,
  inspectBackup,
} from "./backup_file.ts";
export { isKvFileInUse, restoreBackup } from "./restore.ts";
