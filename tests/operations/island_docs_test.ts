/**
 * The docs name every island there is, and none that is gone: the README's
 * layout row for `islands/` and the islands paragraph of ARCHITECTURE.md are
 * compared with the folder itself.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

async function listIslands(): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(new URL("islands/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".tsx")) {
      names.push(entry.name.replace(/\.tsx$/, ""));
    }
  }
  return names.sort();
}

/** The PascalCase names in backticks of a piece of Markdown. */
function namedIslands(text: string): string[] {
  return [...new Set(text.match(/(?<=`)[A-Z][A-Za-z]+(?=`)/g) ?? [])].sort();
}

Deno.test("the docs' island lists match islands/", async (t) => {
  const islands = await listIslands();

  await t.step("the README's layout row for islands/", async () => {
    const readme = await Deno.readTextFile(new URL("README.md", ROOT));
    const row = readme.split("\n").find((line) =>
      line.startsWith("| `islands/`")
    );
    assert.ok(row, "the README's layout table has no islands/ row");
    assert.deepEqual(namedIslands(row.replace("`islands/`", "")), islands);
  });

  await t.step("ARCHITECTURE.md's paragraph on islands", async () => {
    const doc = await Deno.readTextFile(
      new URL("docs/ARCHITECTURE.md", ROOT),
    );
    const paragraph = doc.split("\n\n").find((part) =>
      part.startsWith("**Islands**")
    );
    assert.ok(paragraph, "ARCHITECTURE.md has no **Islands** paragraph");
    assert.deepEqual(namedIslands(paragraph), islands);
  });
});
