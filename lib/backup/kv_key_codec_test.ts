import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { encodeKvKeyHex, toHex } from "./kv_key_codec.ts";

const keyPart = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.uint8Array({ maxLength: 8 }),
  fc.double(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
  fc.boolean(),
);

Deno.test("encodeKvKey: the bytes are those Deno KV stores for the key", async (t) => {
  await t.step(
    "random keys of every part type match the SQLite rows",
    async () => {
      const dir = await Deno.makeTempDir();
      try {
        const samples = fc.sample(
          fc.array(keyPart, { minLength: 1, maxLength: 4 }),
          300,
        ) as Deno.KvKey[];
        samples.push(["tickets", "a\0b"], [0n], [-1n], [255n], [-256n], [-0]);
        {
          await using kv = await Deno.openKv(`${dir}/keys.kv`);
          for (const key of samples) await kv.set(key, true);
        }
        const db = new DatabaseSync(`${dir}/keys.kv`, { readOnly: true });
        const stored = new Set(
          db.prepare("SELECT k FROM kv").all().map((row) =>
            toHex(row.k as Uint8Array)
          ),
        );
        db.close();
        for (const key of samples) {
          assert.ok(stored.has(encodeKvKeyHex(key)), String(key));
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
});
