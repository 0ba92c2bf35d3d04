/**
 * Listing the whole KV store as text, to check that nothing names a person
 * after an erasure: every key and every value, searched as the stored text.
 */
import assert from "node:assert/strict";

/** Every key and value of the store as one JSON line each. */
export async function dumpKv(kv: Deno.Kv): Promise<string[]> {
  const lines: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    lines.push(
      JSON.stringify(
        [entry.key, entry.value],
        (_key, value) =>
          typeof value === "bigint"
            ? value.toString()
            : value instanceof Deno.KvU64
            ? value.value.toString()
            : value instanceof Uint8Array
            ? `bytes:${value.length}`
            : value,
      ),
    );
  }
  return lines;
}

/** Asserts that no key or value of the store holds any of `needles` (any case). */
export async function assertNothingNames(
  kv: Deno.Kv,
  needles: Record<string, string>,
): Promise<void> {
  const lines = await dumpKv(kv);
  assert.ok(lines.length > 0, "the store was listed");
  for (const [what, needle] of Object.entries(needles)) {
    assert.ok(needle.length >= 4, `${what} is long enough to search for`);
    const found = lines.filter((line) =>
      line.toLowerCase().includes(needle.toLowerCase())
    );
    assert.deepEqual(found, [], `KV still holds the ${what}`);
  }
}

/** How many entries KV holds under `prefix`. */
export async function countEntries(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix })) n++;
  return n;
}
