import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  openContent,
  type OpenContentOptions,
} from "@/lib/content/content_store.ts";
import { getPublishedContent, listContentVersions } from "@/lib/db/content.ts";
import { DATA_PATH } from "@/tests/test_utils.ts";

const OPTIONS: OpenContentOptions = {
  source: "kv",
  path: DATA_PATH,
  onDeploy: false,
  check: () => {},
  now: () => new Date(),
  log: () => {},
};

Deno.test("a start seeds a new KV file that another process holds locked for a moment", async () => {
  const path = await Deno.makeTempFile({
    prefix: "turismo-seed-",
    suffix: ".kv",
  });
  await Deno.remove(path);
  const kv = await Deno.openKv(path);
  // As a second instance starting at the same moment does: SQLite's write
  // lock on the file, held while the first one's seed commits.
  const other = new DatabaseSync(path);
  try {
    other.exec("BEGIN IMMEDIATE");
    const release = setTimeout(() => other.exec("COMMIT"), 300);
    const content = await openContent(kv, OPTIONS);
    clearTimeout(release);
    const published = await getPublishedContent(kv);
    assert.ok(published);
    assert.equal(
      content.data.current().version,
      published.version.digest.slice(0, 12),
    );
    await content.close();
  } finally {
    other.close();
    kv.close();
    await Deno.remove(path);
  }
});

Deno.test("instances starting at once on a new KV file: one seeds, every one starts on its version", async () => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-seed-" });
  try {
    for (let round = 0; round < 3; round++) {
      const handles = await Promise.all(
        Array.from({ length: 6 }, () => Deno.openKv(`${dir}/${round}.kv`)),
      );
      try {
        const opened = await Promise.all(
          handles.map((kv) => openContent(kv, OPTIONS)),
        );
        const published = await getPublishedContent(handles[0]);
        assert.ok(published);
        assert.deepEqual(
          new Set(opened.map((content) => content.data.current().version)),
          new Set([published.version.digest.slice(0, 12)]),
        );
        assert.equal((await listContentVersions(handles[0])).length, 1);
        await Promise.all(opened.map((content) => content.close()));
      } finally {
        for (const kv of handles) kv.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
