import assert from "node:assert/strict";
import {
  createKvPing,
  describeKvPath,
  KvStartError,
  moveLegacyKvFile,
  openKv,
  restrictKvFile,
} from "./kv.ts";

const isPosix = Deno.build.os !== "windows";

function modeOf(path: string): number {
  return Deno.statSync(path).mode! & 0o777;
}

Deno.test("KV files", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-kv-" });
  try {
    await t.step({
      name: "a new KV file is owner-only, in a folder that is owner-only",
      ignore: !isPosix,
      fn: async () => {
        const path = `${dir}/nuevo/estado/turismo.kv`;
        const kv = await openKv(path);
        await kv.set(["secrets", "jwt"], new Uint8Array(32));
        assert.equal(modeOf(path), 0o600);
        assert.equal(modeOf(`${path}-wal`), 0o600);
        assert.equal(modeOf(`${dir}/nuevo/estado`), 0o700);
        kv.close();
      },
    });

    await t.step({
      name: "an existing file readable by others is tightened, with a warning",
      ignore: !isPosix,
      fn: async () => {
        const path = `${dir}/abierto.kv`;
        (await Deno.openKv(path)).close();
        await Deno.chmod(path, 0o644);
        const warnings: string[] = [];
        const warn = console.warn;
        console.warn = (line: string) => warnings.push(line);
        try {
          assert.deepEqual(await restrictKvFile(path), [path]);
        } finally {
          console.warn = warn;
        }
        assert.equal(modeOf(path), 0o600);
        assert.match(warnings.join("\n"), /readable by other users.*644.*600/);
        assert.deepEqual(await restrictKvFile(path), []);
      },
    });

    await t.step(
      "the KV file beside the data set moves to its new place with its data",
      async () => {
        const from = `${dir}/data/turismo.kv`;
        const to = `${dir}/state/turismo.kv`;
        await Deno.mkdir(`${dir}/data`);
        const old = await Deno.openKv(from);
        await old.set(["tickets", "ruta-1"], { name: "Ana" });
        old.close();
        assert.equal(await moveLegacyKvFile(from, to), true);
        await assert.rejects(Deno.stat(from), Deno.errors.NotFound);
        const kv = await openKv(to);
        assert.deepEqual((await kv.get(["tickets", "ruta-1"])).value, {
          name: "Ana",
        });
        kv.close();
        // Once moved, nothing more to do.
        assert.equal(await moveLegacyKvFile(from, to), false);
      },
    );

    await t.step(
      "a legacy file still open elsewhere is not moved: the start stops with what to do",
      async () => {
        const from = `${dir}/viejo/turismo.kv`;
        const to = `${dir}/nuevo-estado/turismo.kv`;
        await Deno.mkdir(`${dir}/viejo`);
        const running = await Deno.openKv(from);
        await running.set(["visits", "u", "plaza"], 1);
        try {
          await assert.rejects(
            moveLegacyKvFile(from, to),
            (error: Error) => {
              assert.ok(error instanceof KvStartError);
              assert.match(error.message, /still open in another process/);
              assert.match(error.message, /KV_PATH=/);
              return true;
            },
          );
          await assert.rejects(Deno.stat(to), Deno.errors.NotFound);
          assert.equal((await running.get(["visits", "u", "plaza"])).value, 1);
        } finally {
          running.close();
        }
      },
    );

    await t.step("KV locations are named without secrets", () => {
      assert.equal(
        describeKvPath("https://kv.example.org:4512/db?token=x"),
        "KV Connect https://kv.example.org:4512",
      );
      assert.equal(
        describeKvPath("./state/turismo.kv"),
        "KV ./state/turismo.kv",
      );
      assert.equal(describeKvPath(undefined), "the platform's KV database");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createKvPing: one read a second at most, a failure not remembered", async () => {
  let reads = 0;
  let failing = false;
  const kv = {
    get: () => {
      reads++;
      return failing
        ? Promise.reject(new Error("closed"))
        : Promise.resolve({ value: null });
    },
  } as unknown as Deno.Kv;
  let clock = 0;
  const ping = createKvPing(kv, { ttlMs: 1_000, now: () => clock });
  await Promise.all([ping(), ping(), ping()]);
  clock = 999;
  await ping();
  assert.equal(reads, 1, "shared within the second");
  clock = 1_000;
  failing = true;
  await assert.rejects(ping());
  await assert.rejects(ping(), "a failure is read again");
  assert.equal(reads, 3);
});
