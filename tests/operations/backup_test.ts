/**
 * `deno task backup` and `deno task restore` as an operator runs them, as
 * real processes: a backup taken beside a live service in the middle of a
 * burst of writes holds every write acknowledged before it began, restores
 * into a new store, and a service starts on that store; a restore refuses
 * a store that holds data (unless `--force`), a damaged backup and a KV
 * file in use, each with one line, exit 1 and nothing changed.
 *
 * No `denokv` server can be installed here (it is neither an npm nor a
 * Debian package), so the KV Connect path (an export through the KV API)
 * runs against a second local KV file with `--via-api`: the same code,
 * reading through `Deno.Kv` as it would from a URL.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { SignJWT } from "jose";
import { EXPIRING_FAMILIES } from "@/lib/backup/expiry.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  createWorkdir,
  getFreePort,
  postJsonTo,
  ROOT,
  runScript,
  type ScriptRun,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { loadShippedData, randomUserId, ticketBody } from "../test_utils.ts";

const SECRET = "backup-test-secret-backup-test-secret-0123";
const loaded = await loadShippedData();
const codes = [...loaded.slugByGuideCode.entries()];

function serviceEnvFor(kvPath: string): Record<string, string> {
  return {
    KV_PATH: kvPath,
    TOURISM_DATA: "./data/turismo.json",
    AUTH_JWT_SECRET: SECRET,
    // Each ticket comes "from" its own address, so the per-address ticket
    // limit does not end the burst; the per-IP budget is off likewise.
    TRUST_PROXY: "1",
    IP_BUDGET_PER_MINUTE: "0",
  };
}

function startIn(dir: string, kvPath: string, port: number): ServiceProcess {
  return startService({
    env: serviceEnvFor(kvPath),
    port,
    cwd: dir,
    denoArgs: ["run", "--quiet", "-A", `${ROOT}main.ts`],
  });
}

/** Runs `scripts/<name>.ts` as `deno task <name>` would, in `dir`. */
function runTask(
  name: "backup" | "restore",
  args: string[],
  { dir, kvPath }: { dir: string; kvPath: string },
): Promise<ScriptRun> {
  return runScript(name, args, { cwd: dir, env: { KV_PATH: kvPath } });
}

/** Asserts a refusal: exit 1, one line on stderr matching `pattern`, nothing on stdout. */
function assertRefused(run: ScriptRun, pattern: RegExp): void {
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(run.stdout, "");
  const lines = run.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0], pattern);
}

async function tokenFor(userId: string): Promise<string> {
  return await new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(SECRET));
}

/** Every entry of a KV file, as comparable text (keys, values, versionstamps). */
async function dumpKv(path: string): Promise<string[]> {
  await using kv = await Deno.openKv(path);
  const lines: string[] = [];
  for await (const entry of kv.list({ prefix: [] })) {
    lines.push(
      JSON.stringify(
        [entry.key, entry.value, entry.versionstamp],
        (_, v) => typeof v === "bigint" ? `${v}n` : v,
      ),
    );
  }
  return lines;
}

function listDir(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

type Ack =
  | { kind: "ticket"; shareCode: string; name: string; at: number }
  | {
    kind: "visit";
    userId: string;
    slug: string;
    visitId: string;
    at: number;
  };

Deno.test("backup: a snapshot taken during a burst of writes restores every write acknowledged before it", async (t) => {
  const dir = await createWorkdir("turismo-backup-");
  const kvPath = `${dir}/state/turismo.kv`;
  const backupFile = `${dir}/backups/turismo-backup.kv`;
  const restoredPath = `${dir}/restored/turismo.kv`;
  const service = startIn(dir, kvPath, await getFreePort());
  let restoredService: ServiceProcess | undefined;
  try {
    await waitUntilHealthy(service);
    const acks: Ack[] = [];
    let backupStartedAt = Infinity;
    let backupRun: ScriptRun | undefined;

    await t.step(
      "a backup beside the live service in the middle of the burst prints one line with the entries and size",
      async () => {
        let stop = false;
        let address = 0;
        const ticketWorker = async () => {
          while (!stop) {
            const body = ticketBody();
            address++;
            const res = await postJsonTo(
              `${service.url}/api/turismo/ticket`,
              body,
              { "x-forwarded-for": `198.51.100.${address % 250}` },
            );
            const text = await res.text();
            assert.equal(res.status, 200, text);
            acks.push({
              kind: "ticket",
              shareCode: body.shareCode,
              name: body.name,
              at: performance.now(),
            });
          }
        };
        const visitWorker = async () => {
          while (!stop) {
            const userId = randomUserId();
            const token = await tokenFor(userId);
            for (const [code, slug] of codes.slice(0, 6)) {
              if (stop) break;
              const res = await postJsonTo(
                `${service.url}/api/turismo/verify-visit`,
                { code, userId },
                { authorization: `Bearer ${token}` },
              );
              const body = await res.json();
              assert.equal(res.status, 200, JSON.stringify(body));
              acks.push({
                kind: "visit",
                userId,
                slug,
                visitId: body.visitId,
                at: performance.now(),
              });
            }
          }
        };
        let failure: unknown;
        const workers = [ticketWorker, ticketWorker, visitWorker, visitWorker]
          .map((worker) =>
            worker().catch((error) => {
              failure ??= error;
              stop = true;
            })
          );
        // Each phase waits for a count of writes, however slow a busy
        // machine makes them; a failed write ends the burst, and a minute
        // per phase is only a hang guard.
        const waitForAcks = async (count: number) => {
          const guard = Date.now() + 60_000;
          while (acks.length < count && !stop && Date.now() < guard) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        };
        await waitForAcks(40);
        backupStartedAt = performance.now();
        backupRun = await runTask("backup", [backupFile], { dir, kvPath });
        // The burst goes on a little after the backup, then stops.
        await waitForAcks(acks.length + 20);
        stop = true;
        await Promise.all(workers);
        if (failure) throw failure;

        assert.equal(backupRun.code, 0, backupRun.stderr);
        assert.equal(backupRun.stderr, "");
        assert.match(
          backupRun.stdout,
          /^Backed up \d+ entries \(\d+(\.\d)? [KM]?B\) of KV .*turismo\.kv to .*turismo-backup\.kv \(SQLite snapshot\)\n$/,
        );
        const before = acks.filter((ack) => ack.at < backupStartedAt);
        const after = acks.filter((ack) => ack.at >= backupStartedAt);
        assert.ok(before.length >= 40, `${before.length} writes before`);
        assert.ok(after.length >= 20, `${after.length} writes after`);
        console.info(
          `  ${before.length} writes acknowledged before the backup began, ${after.length} after; ${backupRun.stdout.trim()}`,
        );
      },
    );

    await t.step(
      "a backup of an idle service holds the write acknowledged just before it",
      async () => {
        const body = ticketBody();
        const res = await postJsonTo(
          `${service.url}/api/turismo/ticket`,
          body,
          {
            "x-forwarded-for": "192.0.2.1",
          },
        );
        assert.equal(res.status, 200, await res.text());
        // With no write after it, SQLite has not checkpointed it into the
        // KV file (it does so every 1,000 pages of WAL): it is in the WAL,
        // which a copy of the KV file alone would miss.
        assert.ok(Deno.statSync(`${kvPath}-wal`).size > 0);
        const file = `${dir}/idle-backup.kv`;
        const run = await runTask("backup", [file], { dir, kvPath });
        assert.equal(run.code, 0, run.stderr);
        const restored = `${dir}/restored-idle/turismo.kv`;
        const restore = await runTask("restore", [file], {
          dir,
          kvPath: restored,
        });
        assert.equal(restore.code, 0, restore.stderr);
        await using kv = await Deno.openKv(restored);
        const ticket = await kv.get<{ name: string }>(
          keys.ticket(body.shareCode),
        );
        assert.equal(ticket.value?.name, body.name);
      },
    );

    await t.step(
      "the backup file is owner-only (0600) and alone in its folder",
      () => {
        assert.equal(Deno.statSync(backupFile).mode! & 0o777, 0o600);
        assert.deepEqual(listDir(`${dir}/backups`), ["turismo-backup.kv"]);
      },
    );

    await t.step(
      "restored into a new empty store, every write acknowledged before the backup began is there",
      async () => {
        const run = await runTask("restore", [backupFile], {
          dir,
          kvPath: restoredPath,
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stdout,
          /^Restored \d+ entries from .*turismo-backup\.kv into KV .*restored\/turismo\.kv\n$/,
        );
        assert.equal(Deno.statSync(restoredPath).mode! & 0o777, 0o600);
        await using kv = await Deno.openKv(restoredPath);
        const before = acks.filter((ack) => ack.at < backupStartedAt);
        for (const ack of before) {
          if (ack.kind === "ticket") {
            const ticket = await kv.get<{ name: string }>(
              keys.ticket(ack.shareCode),
            );
            assert.equal(ticket.value?.name, ack.name, ack.shareCode);
          } else {
            const visit = await kv.get<{ visitId: string }>(
              keys.visit(ack.userId, ack.slug),
            );
            assert.equal(visit.value?.visitId, ack.visitId);
          }
        }
        assert.ok((await kv.get(keys.signingSecret())).value);
      },
    );

    await t.step(
      "a restore into the running service's own KV file is refused: the file is in use",
      async () => {
        const run = await runTask("restore", [backupFile, "--force"], {
          dir,
          kvPath,
        });
        assertRefused(
          run,
          /^.*state\/turismo\.kv is open in another process \(the service\?\): stop it, then restore$/,
        );
        const health = await fetch(`${service.url}/healthz`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
      },
    );

    await t.step(
      "a service started on the restored store answers /healthz and each restored ticket's /ruta/<code>",
      async () => {
        restoredService = startIn(dir, restoredPath, await getFreePort());
        await waitUntilHealthy(restoredService);
        const health = await fetch(`${restoredService.url}/healthz`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        const tickets = acks.filter((ack) =>
          ack.kind === "ticket" && ack.at < backupStartedAt
        ) as Extract<Ack, { kind: "ticket" }>[];
        assert.ok(tickets.length > 0);
        for (const ticket of tickets) {
          // Typed: the service worker's `webworker` lib, checked in the
          // same program by `deno check .`, leaves this `fetch` ambiguous.
          const res: Response = await fetch(
            `${restoredService.url}/ruta/${ticket.shareCode}`,
          );
          assert.equal(res.status, 200, ticket.shareCode);
          assert.match(res.headers.get("content-type")!, /^text\/html/);
          assert.ok((await res.text()).includes(ticket.name));
        }
      },
    );
  } finally {
    await stopServices([service, ...restoredService ? [restoredService] : []]);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("restore: a store with data, a damaged backup and a file in use are refused, and nothing changes", async (t) => {
  const dir = await createWorkdir("turismo-backup-");
  const sourcePath = `${dir}/source.kv`;
  const targetPath = `${dir}/state/turismo.kv`;
  const backupFile = `${dir}/backup.kv`;
  try {
    {
      await using kv = await Deno.openKv(sourcePath);
      await kv.set(["tickets", "from-backup"], { name: "Ana" });
      await kv.set(["counters", "n"], new Deno.KvU64(7n));
      await kv.set(["sessions", "soon"], { s: 1 }, { expireIn: 1_500 });
      await kv.set(["sessions", "later"], { s: 2 }, { expireIn: 3_600_000 });
    }
    await Deno.mkdir(`${dir}/state`);
    {
      await using kv = await Deno.openKv(targetPath);
      await kv.set(["tickets", "already-here"], { name: "Beto" });
    }
    const backup = await runTask("backup", [backupFile], {
      dir,
      kvPath: sourcePath,
    });
    assert.equal(backup.code, 0, backup.stderr);
    const targetBefore = await dumpKv(targetPath);
    const filesBefore = listDir(`${dir}/state`);

    const assertUnchanged = async () => {
      assert.deepEqual(await dumpKv(targetPath), targetBefore);
      assert.deepEqual(listDir(`${dir}/state`), filesBefore);
    };

    await t.step(
      "a store that holds data is refused without --force",
      async () => {
        const run = await runTask("restore", [backupFile], {
          dir,
          kvPath: targetPath,
        });
        assertRefused(
          run,
          /^KV .*turismo\.kv already holds data: nothing restored \(--force replaces everything in it\)$/,
        );
        await assertUnchanged();
      },
    );

    await t.step("a backup cut in half is refused", async () => {
      const bytes = await Deno.readFile(backupFile);
      await Deno.writeFile(
        `${dir}/half.kv`,
        bytes.subarray(0, bytes.length / 2),
      );
      const run = await runTask("restore", [`${dir}/half.kv`, "--force"], {
        dir,
        kvPath: targetPath,
      });
      assertRefused(run, /^.*half\.kv is not a usable backup: .+$/);
      await assertUnchanged();
    });

    await t.step("a file that is not a backup is refused", async () => {
      await Deno.writeTextFile(
        `${dir}/garbage.kv`,
        "not a backup\n".repeat(500),
      );
      const run = await runTask("restore", [`${dir}/garbage.kv`, "--force"], {
        dir,
        kvPath: targetPath,
      });
      assertRefused(
        run,
        /^.*garbage\.kv is not a usable backup: not a SQLite database$/,
      );
      await assertUnchanged();
    });

    await t.step(
      "a backup whose recorded count does not match its rows is refused",
      async () => {
        await Deno.copyFile(backupFile, `${dir}/short.kv`);
        const db = new DatabaseSync(`${dir}/short.kv`);
        db.exec("DELETE FROM kv WHERE k = (SELECT k FROM kv LIMIT 1)");
        db.close();
        const run = await runTask("restore", [`${dir}/short.kv`, "--force"], {
          dir,
          kvPath: targetPath,
        });
        assertRefused(
          run,
          /short\.kv is not a usable backup: it recorded 4 entries but holds 3 \(truncated\?\)$/,
        );
        await assertUnchanged();
      },
    );

    await t.step(
      "a KV file open in another process (a running service) is refused",
      async () => {
        await using _held = await Deno.openKv(targetPath);
        const run = await runTask("restore", [backupFile, "--force"], {
          dir,
          kvPath: targetPath,
        });
        assertRefused(
          run,
          /^.*turismo\.kv is open in another process \(the service\?\): stop it, then restore$/,
        );
      },
    );
    await assertUnchanged();

    await t.step(
      "--force replaces everything, and entries keep their expiry",
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1_600));
        const run = await runTask("restore", [backupFile, "--force"], {
          dir,
          kvPath: targetPath,
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stdout,
          /^Restored 3 entries from .*backup\.kv into KV .*turismo\.kv, replacing what it held \(1 expired, left out\)\n$/,
        );
        assert.equal(Deno.statSync(targetPath).mode! & 0o777, 0o600);
        assert.deepEqual(listDir(`${dir}/state`), ["turismo.kv"]);
        await using kv = await Deno.openKv(targetPath);
        assert.equal((await kv.get(["tickets", "already-here"])).value, null);
        assert.deepEqual((await kv.get(["tickets", "from-backup"])).value, {
          name: "Ana",
        });
        assert.deepEqual(
          (await kv.get(["counters", "n"])).value,
          new Deno.KvU64(7n),
        );
        assert.equal((await kv.get(["sessions", "soon"])).value, null);
        const db = new DatabaseSync(targetPath, { readOnly: true });
        const rows = db.prepare("SELECT expiration_ms FROM kv").all().map((
          row,
        ) => Number(row.expiration_ms));
        db.close();
        const expiring = rows.filter((ms) => ms >= 0);
        assert.equal(expiring.length, 1, "only the later session expires");
        assert.ok(expiring[0] > Date.now() + 3_500_000);
        assert.ok(expiring[0] <= Date.now() + 3_600_000);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("backup --via-api: the KV Connect export round-trips through a second local KV", async (t) => {
  const dir = await createWorkdir("turismo-backup-");
  const sourcePath = `${dir}/source.kv`;
  const backupFile = `${dir}/export.kv`;
  const restoredPath = `${dir}/restored.kv`;
  try {
    const values: [Deno.KvKey, unknown][] = [
      [["tickets", "abc"], { name: "Lucía", visits: [1, 2, 3] }],
      [["visit_counts", 7n, true], new Deno.KvU64(42n)],
      [["bytes", new Uint8Array([0, 1, 2])], new Uint8Array([9, 8, 7])],
      [["big"], "x".repeat(60_000)],
      ...Array.from(
        { length: 30 },
        (_, i) => [["big", i], "y".repeat(50_000)] as [Deno.KvKey, unknown],
      ),
    ];
    {
      await using kv = await Deno.openKv(sourcePath);
      for (const [key, value] of values) await kv.set(key, value);
      await kv.set(["sessions", "s1"], { at: 1 }, { expireIn: 60_000 });
      await kv.set(["rate_limits", "a", "b"], [1], { expireIn: 60_000 });
    }
    const sourceEntries = await dumpKv(sourcePath);

    await t.step(
      "the export reads every entry through the KV API and says so",
      async () => {
        const run = await runTask("backup", [backupFile, "--via-api"], {
          dir,
          kvPath: sourcePath,
        });
        assert.equal(run.code, 0, run.stderr);
        assert.match(
          run.stdout,
          new RegExp(
            `^Backed up ${
              values.length + 2
            } entries \\(\\d+(\\.\\d)? MB\\) of KV .*source\\.kv to .*export\\.kv \\(export through the KV API\\)\\n$`,
          ),
        );
        assert.equal(Deno.statSync(backupFile).mode! & 0o777, 0o600);
      },
    );

    await t.step(
      "short-lived families come back expiring, never permanent",
      () => {
        const db = new DatabaseSync(backupFile, { readOnly: true });
        const expiring = db.prepare(
          "SELECT count(*) AS n FROM kv WHERE expiration_ms >= 0",
        ).get() as { n: number };
        db.close();
        assert.equal(expiring.n, 2);
        assert.ok(EXPIRING_FAMILIES.has("sessions"));
        assert.ok(EXPIRING_FAMILIES.has("rate_limits"));
      },
    );

    await t.step(
      "restored, every key and value is as in the source",
      async () => {
        const run = await runTask("restore", [backupFile], {
          dir,
          kvPath: restoredPath,
        });
        assert.equal(run.code, 0, run.stderr);
        const strip = (lines: string[]) =>
          lines.map((line) => JSON.stringify(JSON.parse(line).slice(0, 2)));
        assert.deepEqual(
          strip(await dumpKv(restoredPath)),
          strip(sourceEntries),
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
