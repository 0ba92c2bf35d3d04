import assert from "node:assert/strict";
import { copyShippedData, mutateShipped } from "@/tests/test_utils.ts";
import { DataStore } from "./data_store.ts";

Deno.test("data store: a changed file is reloaded, a broken one refused", async (t) => {
  await using copy = await copyShippedData();
  const { path } = copy;
  const errors: Error[] = [];
  const store = await DataStore.open(path, {
    onError: (error) => errors.push(error),
  });
  store.watch({ intervalMs: 50 });
  const first = store.current();

  /** Replaces the file at once, as an editor saves it: the poller never reads half of it. */
  async function replaceFile(text: string) {
    await Deno.writeTextFile(`${path}.tmp`, text);
    await Deno.rename(`${path}.tmp`, path);
  }

  async function waitFor(condition: () => boolean) {
    for (let i = 0; i < 100 && !condition(); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  await t.step("a valid change is taken without a restart", async () => {
    await replaceFile(
      mutateShipped((d) => d.attractions[0].name = "Nombre nuevo"),
    );
    await waitFor(() => store.current().version !== first.version);
    assert.notEqual(store.current().version, first.version);
    assert.equal(store.current().data.attractions[0].name, "Nombre nuevo");
  });

  await t.step(
    "a broken change is refused and the last good version stays",
    async () => {
      const good = store.current();
      await replaceFile(
        mutateShipped((d) => d.attractions[1].location = "aquí"),
      );
      await waitFor(() => errors.length > 0);
      assert.equal(store.current(), good);
      assert.equal(errors.length, 1);
      assert.match(
        errors[0].message,
        /Kept data version [\s\S]*attractions\[1\]\.location/,
      );
    },
  );

  store.close();
});
