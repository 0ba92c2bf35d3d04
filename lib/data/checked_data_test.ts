import assert from "node:assert/strict";
import { DATA_PATH, mutateShipped } from "@/tests/test_utils.ts";
import {
  DataError,
  ensureCheckedData,
  loadTourismData,
} from "./tourism_data.ts";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return new Uint8Array(digest).toHex();
}

async function listNames(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

Deno.test("data set checked at build time", async (t) => {
  const dir = await Deno.makeTempDir();
  const checkedDir = `${dir}/checked`;
  const emptyDir = `${dir}/empty`;
  const json = await Deno.readTextFile(DATA_PATH);
  const digest = await sha256Hex(json);

  await t.step(
    "the build validates a data set once and records it by its SHA-256",
    async () => {
      assert.equal(await ensureCheckedData(DATA_PATH, { checkedDir }), true);
      assert.deepEqual(await listNames(checkedDir), [`${digest}.json`]);
      assert.equal(await ensureCheckedData(DATA_PATH, { checkedDir }), false);
    },
  );

  await t.step(
    "a start with the record loads exactly what full validation loads",
    async () => {
      const fromRecord = await loadTourismData(DATA_PATH, { checkedDir });
      const validated = await loadTourismData(DATA_PATH, {
        checkedDir: emptyDir,
      });
      assert.deepEqual(fromRecord, validated);
      assert.equal(fromRecord.version, digest.slice(0, 12));
    },
  );

  const recordPath = `${checkedDir}/${digest}.json`;
  /** The build's record, the municipality renamed "Tomado del registro". */
  const readEditedRecord = async () => {
    const record = JSON.parse(await Deno.readTextFile(recordPath));
    record.data.municipality.name = "Tomado del registro";
    return record;
  };
  /** Runs `fn` with the record file holding `text`, then puts the build's back. */
  const withRecordText = async (text: string, fn: () => Promise<void>) => {
    const original = await Deno.readTextFile(recordPath);
    await Deno.writeTextFile(recordPath, text);
    try {
      await fn();
    } finally {
      await Deno.writeTextFile(recordPath, original);
    }
  };

  await t.step("the record is what a start uses (no validation)", async () => {
    const edited = JSON.stringify(await readEditedRecord());
    await withRecordText(edited, async () => {
      const loaded = await loadTourismData(DATA_PATH, { checkedDir });
      assert.equal(loaded.data.municipality.name, "Tomado del registro");
    });
  });

  await t.step(
    "a garbled record, another format or another digest is ignored",
    async () => {
      const original = await Deno.readTextFile(recordPath);
      const record = await readEditedRecord();
      const bad = [
        original.slice(0, original.length / 2),
        JSON.stringify({ ...record, format: 2 }),
        JSON.stringify({ ...record, digest: "0".repeat(64) }),
        JSON.stringify({ format: 1, digest }),
      ];
      for (const text of bad) {
        await withRecordText(text, async () => {
          const loaded = await loadTourismData(DATA_PATH, { checkedDir });
          assert.equal(loaded.data.municipality.name, "Tequila");
        });
      }
    },
  );

  await t.step(
    "a data set edited since the build is validated in full",
    async () => {
      const copy = `${dir}/turismo.json`;
      await Deno.writeTextFile(copy, json);
      assert.equal(
        (await loadTourismData(copy, { checkedDir })).version,
        digest.slice(0, 12),
      );
      await Deno.writeTextFile(
        copy,
        mutateShipped((data) => (data.attractions[0].guideCode = "no!")),
      );
      await assert.rejects(
        loadTourismData(copy, { checkedDir }),
        (error: Error) =>
          error instanceof DataError &&
          /attractions\[0\]\.guideCode: must be 4 to 16 letters or digits/
            .test(error.message),
      );
    },
  );

  await t.step(
    "an invalid data set is refused and nothing recorded; a new one replaces the old record",
    async () => {
      const copy = `${dir}/nuevo.json`;
      await Deno.writeTextFile(
        copy,
        mutateShipped((data) => (data.attractions = [])),
      );
      await assert.rejects(
        ensureCheckedData(copy, { checkedDir }),
        DataError,
      );
      assert.deepEqual(await listNames(checkedDir), [`${digest}.json`]);
      const edited = mutateShipped((
        data,
      ) => (data.meta.notice = "Otra versión"));
      await Deno.writeTextFile(copy, edited);
      assert.equal(await ensureCheckedData(copy, { checkedDir }), true);
      assert.deepEqual(await listNames(checkedDir), [
        `${await sha256Hex(edited)}.json`,
      ]);
    },
  );

  await Deno.remove(dir, { recursive: true });
});
