/** Shared by scripts/backup.ts and scripts/restore.ts. */

/** `1.2 MB`, `34 KB`, `512 B`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(0)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
