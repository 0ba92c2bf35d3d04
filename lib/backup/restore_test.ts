import assert from "node:assert/strict";
import { createBackup } from "./backup.ts";
import { BackupError } from "./backup_file.ts";
import { restoreBackup } from "./restore.ts";

/** A backup of a KV file holding `entries`, in a new temporary folder. */
async function makeBackup(
  entries: [Deno.KvKey, unknown, number?][],
): Promise<{ dir: string; file: string }> {
  const dir = await Deno.makeTempDir();
  {
    await using kv = await Deno.openKv(`${dir}/source.kv`);
    for (const [key, value, expireIn] of entries) {
      await kv.set(key, value, expireIn ? { expireIn } : {});
    }
  }
  const file = `${dir}/backup.kv`;
  await createBackup({ kvPath: `${dir}/source.kv`, file });
  return { dir, file };
}

async function listAll(kv: Deno.Kv): Promise<[Deno.KvKey, unknown][]> {
  return (await Array.fromAsync(kv.list({ prefix: [] }))).map((
    entry,
  ) => [entry.key, entry.value]);
}

// The path a KV Connect URL takes (writes through the KV API into an open
// store), here into an in-memory store: no `denokv` server can run here.
Deno.test("restoreBackup through the KV API: empty store, refusal, --force", async (t) => {
  const { dir, file } = await makeBackup([
    [["tickets", "abc"], { name: "Ana" }],
    [["sessions", "x"], { s: 1 }, 3_600_000],
  ]);
  const kvPath = "https://kv.example/db";
  try {
    await t.step(
      "an empty store gets every entry of the backup",
      async () => {
        await using kv = await Deno.openKv(":memory:");
        const result = await restoreBackup({ file, kvPath, into: kv });
        assert.deepEqual(result, {
          entries: 2,
          expired: 0,
          replaced: false,
          target: "KV Connect https://kv.example",
        });
        assert.deepEqual(await listAll(kv), [
          [["sessions", "x"], { s: 1 }],
          [["tickets", "abc"], { name: "Ana" }],
        ]);
      },
    );

    await t.step(
      "a store that holds data is refused and left as it was",
      async () => {
        await using kv = await Deno.openKv(":memory:");
        await kv.set(["tickets", "other"], { name: "Beto" });
        await assert.rejects(
          restoreBackup({ file, kvPath, into: kv }),
          (error) =>
            error instanceof BackupError &&
            error.message ===
              "KV Connect https://kv.example already holds data: nothing restored (--force replaces everything in it)",
        );
        assert.deepEqual(await listAll(kv), [[["tickets", "other"], {
          name: "Beto",
        }]]);
      },
    );

    await t.step(
      "--force deletes what the store held, then writes the backup",
      async () => {
        await using kv = await Deno.openKv(":memory:");
        for (let i = 0; i < 250; i++) await kv.set(["old", i], i);
        const result = await restoreBackup({
          file,
          kvPath,
          into: kv,
          force: true,
        });
        assert.equal(result.replaced, true);
        assert.deepEqual((await listAll(kv)).map(([key]) => key), [
          ["sessions", "x"],
          ["tickets", "abc"],
        ]);
      },
    );

    await t.step(
      "an entry that expires before the restore is left out",
      async () => {
        await using kv = await Deno.openKv(":memory:");
        const result = await restoreBackup({
          file,
          kvPath,
          into: kv,
          now: () => Date.now() + 3_700_000,
        });
        assert.equal(result.entries, 1);
        assert.equal(result.expired, 1);
        assert.deepEqual((await listAll(kv)).map(([key]) => key), [
          ["tickets", "abc"],
        ]);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
