import assert from "node:assert/strict";
import { KEY_FAMILIES, keys } from "./keys.ts";

/** The family of every key `keys` builds, each builder called with stand-in arguments. */
function listBuiltFamilies(): Set<string> {
  return new Set(
    Object.values(keys).map((build) =>
      String(
        (build as (...args: unknown[]) => Deno.KvKey)("x", "x", [1], "x")[0],
      )
    ),
  );
}

Deno.test("the key-family table", async (t) => {
  await t.step("every family a keys builder produces has a lifetime", () => {
    const table = new Set(Object.keys(KEY_FAMILIES));
    const missing = [...listBuiltFamilies()].filter((f) => !table.has(f));
    assert.deepEqual(missing, [], "add these to KEY_FAMILIES");
  });

  await t.step("every family in the table is one keys builds", () => {
    const built = listBuiltFamilies();
    const stale = Object.keys(KEY_FAMILIES).filter((f) => !built.has(f));
    assert.deepEqual(stale, [], "remove these from KEY_FAMILIES");
  });

  await t.step("each family names its owner module, which exists", async () => {
    for (const [family, { owner }] of Object.entries(KEY_FAMILIES)) {
      const info = await Deno.stat(new URL(`../../${owner}`, import.meta.url));
      assert.ok(info.isFile, `${family}: ${owner}`);
    }
  });
});
