/**
 * Writing many entries through the KV API: in atomics of up to
 * {@linkcode BATCH_SIZE} sets, a batch KV refuses as too large (800 KiB
 * of mutations per atomic) split in halves until it fits.
 */

/** Sets per atomic: well under KV's 1,000 mutations. */
export const BATCH_SIZE = 100;

/** One entry to write, with its remaining lifetime if it expires. */
export interface EntryToWrite {
  key: Deno.KvKey;
  value: unknown;
  expireIn?: number;
}

/** Writes `entries` with one atomic (or, when KV refuses its size, several). */
export async function writeEntries(
  kv: Deno.Kv,
  entries: EntryToWrite[],
): Promise<void> {
  if (entries.length === 0) return;
  const operation = kv.atomic();
  for (const { key, value, expireIn } of entries) {
    operation.set(key, value, expireIn === undefined ? {} : { expireIn });
  }
  try {
    const result = await operation.commit();
    if (!result.ok) throw new Error("KV refused a write without checks");
  } catch (error) {
    if (entries.length === 1 || !(error instanceof TypeError)) throw error;
    const half = Math.ceil(entries.length / 2);
    await writeEntries(kv, entries.slice(0, half));
    await writeEntries(kv, entries.slice(half));
  }
}

/** Deletes every entry of `kv`, in atomics of {@linkcode BATCH_SIZE}. Returns how many. */
export async function deleteAllEntries(kv: Deno.Kv): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await Array.fromAsync(
      kv.list({ prefix: [] }, { limit: BATCH_SIZE, batchSize: BATCH_SIZE }),
    );
    if (batch.length === 0) return deleted;
    const operation = kv.atomic();
    for (const { key } of batch) operation.delete(key);
    await operation.commit();
    deleted += batch.length;
  }
}

/** Whether `kv` holds any entry at all. */
export async function hasEntries(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: [] }, { limit: 1 })) return true;
  return false;
}
