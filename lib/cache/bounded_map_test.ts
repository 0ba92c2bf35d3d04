import assert from "node:assert/strict";
import { BoundedMap } from "./bounded_map.ts";

Deno.test("BoundedMap", async (t) => {
  await t.step(
    "a touched entry is the newest: the oldest untouched goes first",
    () => {
      const map = new BoundedMap<string>(2, 100, (value) => value.length);
      map.set("a", "1");
      map.set("b", "2");
      map.touch("a");
      map.set("c", "3");
      assert.deepEqual([...map.entries()], [["a", "1"], ["c", "3"]]);
    },
  );

  await t.step("every value that leaves is told, however it leaves", () => {
    const removed: string[] = [];
    const map = new BoundedMap<string>(
      2,
      4,
      (value) => value.length,
      (key, value) => removed.push(`${key}=${value}`),
    );
    map.set("a", "1");
    map.set("a", "22"); // replaced: a=1 leaves
    map.set("b", "3");
    map.set("c", "444"); // 6 bytes: the oldest, a=22, goes
    map.delete("c");
    map.set("d", "55555"); // larger than the bound: never kept, nothing to tell
    map.set("e", "6");
    map.clear(); // b and e
    assert.deepEqual(removed, ["a=1", "a=22", "c=444", "b=3", "e=6"]);
    assert.equal(map.size, 0);
    assert.equal(map.bytes, 0);
  });
});
