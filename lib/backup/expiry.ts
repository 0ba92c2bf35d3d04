/**
 * How long an exported entry may live after a restore, when its expiry is
 * unknown. Neither the KV API nor the KV Connect protocol shows an entry's
 * `expireIn`, so an export through them (a KV Connect URL) cannot copy it.
 * For the key families the service only ever writes with `expireIn`, the
 * export sets the family's longest lifetime from the moment of the backup:
 * an entry written at `w` with lifetime `L` expired at `w + L`, which is
 * never later than `backup + L`. A restored entry so lives at most `L`
 * longer than it would have, and never becomes permanent. A SQLite backup
 * of a local file keeps every entry's exact expiry.
 */
import { KEY_FAMILIES } from "@/lib/db/keys.ts";

/**
 * The first key part of each family written only with `expireIn`, and the
 * longest lifetime the service gives its entries, from the key-family table
 * (`KEY_FAMILIES` in lib/db/keys.ts). Families that mix permanent and
 * expiring entries (`guide_codes_by_code`: the current code is permanent, a
 * replaced one lives through its grace period) are not here: their expiring
 * entries come back permanent from an export, and the service checks their
 * dates on read anyway.
 */
export const EXPIRING_FAMILIES: ReadonlyMap<string, number> = new Map(
  Object.entries(KEY_FAMILIES).flatMap(([family, { lifetime }]) =>
    lifetime.kind === "expires" ? [[family, lifetime.ms] as const] : []
  ),
);

/** The lifetime an exported entry gets (see the module's doc), or `undefined`: permanent. */
export function getExportLifetimeMs(key: Deno.KvKey): number | undefined {
  const family = key[0];
  return typeof family === "string" ? EXPIRING_FAMILIES.get(family) : undefined;
}
