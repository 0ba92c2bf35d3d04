/**
 * The service as an operator runs it, as real processes: no acknowledged
 * write is lost when another process opens the KV file or the service is
 * killed mid-burst; a start that cannot succeed says why in one line and
 * writes nothing; a signal stops it cleanly; `.env` and KV Connect URLs are
 * read as documented.
 */
import assert from "node:assert/strict";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { keys } from "@/lib/db/keys.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import { getTicket } from "@/lib/db/tickets.ts";
import {
  getAttractionStats,
  getUserStats,
  listBadges,
  listVisits,
  type Visit,
} from "@/lib/db/visits.ts";
import { startFakeOpenAI } from "../fake_openai.ts";
import {
  createWorkdir,
  getFreePort,
  postJsonTo,
  ROOT,
  serviceEnv,
  type ServiceProcess,
  startService,
  stopServices,
  waitForExit,
  waitUntilHealthy,
} from "../service_process.ts";
import {
  loadShippedData,
  mutateShipped,
  randomUserId,
  serveApp,
  ticketBody,
} from "../test_utils.ts";

const MAIN = `${ROOT}main.ts`;
const loaded = await loadShippedData();
const codes = [...loaded.slugByGuideCode.entries()];

function startIn(
  dir: string,
  env: Record<string, string>,
  port: number,
  args: string[] = [],
): ServiceProcess {
  return startService({
    env,
    port,
    cwd: dir,
    denoArgs: ["run", "--quiet", "-A", MAIN],
    args,
  });
}

/** Runs `deno task token`'s script in `dir`: a second process that opens, writes and closes the KV file. */
async function mintDevToken(
  dir: string,
  env: Record<string, string>,
  userId: string,
): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-A", `${ROOT}scripts/token.ts`, userId],
    cwd: dir,
    env: serviceEnv(env),
    clearEnv: true,
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  return new TextDecoder().decode(output.stdout).trim();
}

async function verify(
  service: ServiceProcess,
  token: string,
  userId: string,
  code: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await postJsonTo(
    `${service.url}/api/turismo/verify-visit`,
    { code, userId },
    { authorization: `Bearer ${token}` },
  );
  return { status: res.status, body: await res.json() };
}

/** The descriptors of `pid` that point at a deleted file (Linux only). */
function getDeletedFiles(pid: number): string[] {
  try {
    return [...Deno.readDirSync(`/proc/${pid}/fd`)]
      .map((entry) => {
        try {
          return Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`);
        } catch {
          return "";
        }
      })
      .filter((target) => target.endsWith("(deleted)"));
  } catch {
    return [];
  }
}

Deno.test("a second process on the KV file loses no acknowledged write", async (t) => {
  const dir = await createWorkdir("turismo-durable-");
  // The KV file beside the data set, where earlier versions kept it by
  // default and where an operator may still put it.
  const env = {
    KV_PATH: "./data/turismo.kv",
    TOURISM_DATA: "./data/turismo.json",
  };
  const port = await getFreePort();
  let service = startIn(dir, env, port);
  try {
    await waitUntilHealthy(service);
    const userId = randomUserId();
    const tickets = [ticketBody(), ticketBody()];
    const visited: Record<string, string> = {};

    await t.step(
      "visits and tickets made after `deno task token` ran twice answer 200",
      async () => {
        const token = await mintDevToken(dir, env, userId);
        await mintDevToken(dir, env, userId);
        for (const [i, ticket] of tickets.entries()) {
          const res = await postJsonTo(
            `${service.url}/api/turismo/ticket`,
            ticket,
          );
          assert.equal(res.status, 200, await res.text());
          const [code, slug] = codes[i];
          const verified = await verify(service, token, userId, code);
          assert.equal(verified.status, 200, JSON.stringify(verified.body));
          visited[slug] = verified.body.visitId as string;
        }
        assert.deepEqual(getDeletedFiles(service.process.pid), []);
      },
    );

    await t.step(
      "after a kill -9 and a restart every one of them is there",
      async () => {
        await stopServices([service], "SIGKILL");
        service = startIn(dir, env, port);
        await waitUntilHealthy(service);
        for (const { shareCode } of tickets) {
          const res = await fetch(`${service.url}/ruta/${shareCode}`);
          await res.body?.cancel();
          assert.equal(res.status, 200, `/ruta/${shareCode}`);
        }
        const token = await mintDevToken(dir, env, userId);
        for (const [i] of tickets.entries()) {
          const [code, slug] = codes[i];
          const again = await verify(service, token, userId, code);
          assert.equal(again.status, 409, JSON.stringify(again.body));
          assert.equal(again.body.visitId, visited[slug]);
        }
      },
    );
  } finally {
    await stopServices([service], "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kill -9 mid-burst: every acknowledged visit survives and counts equal records", async () => {
  const dir = await createWorkdir("turismo-durable-");
  const kvPath = `${dir}/state/turismo.kv`;
  const kv = await openKv(kvPath);
  const { secret } = await getOrCreateSigningSecret(kv);
  kv.close();
  const service = startIn(dir, { KV_PATH: kvPath }, await getFreePort());
  try {
    await waitUntilHealthy(service);
    const users = Array.from({ length: 12 }, () => randomUserId());
    const tokens = await Promise.all(
      users.map((userId) => signOwnToken(secret, userId)),
    );
    const acknowledged: { userId: string; slug: string; visitId: string }[] =
      [];
    const total = users.length * codes.length;
    let killed: Promise<unknown> | undefined;
    await Promise.allSettled(
      codes.flatMap(([code, slug]) =>
        users.map(async (userId, u) => {
          const { status, body } = await verify(
            service,
            tokens[u],
            userId,
            code,
          );
          if (status !== 200) return;
          acknowledged.push({ userId, slug, visitId: body.visitId as string });
          if (acknowledged.length === Math.floor(total / 3)) {
            killed = stopServices([service], "SIGKILL");
          }
        })
      ),
    );
    await killed;
    assert.ok(
      acknowledged.length >= total / 3 && acknowledged.length < total,
      `killed mid-burst: ${acknowledged.length} of ${total} acknowledged`,
    );

    const after = await openKv(kvPath);
    try {
      for (const { userId, slug, visitId } of acknowledged) {
        const visit = (await after.get<Visit>(keys.visit(userId, slug))).value;
        assert.equal(visit?.visitId, visitId, `${userId} ${slug}`);
      }
      let recorded = 0;
      for (const userId of users) {
        const visits = await listVisits(after, userId);
        const badges = await listBadges(after, userId);
        recorded += visits.length;
        assert.deepEqual(await getUserStats(after, userId), {
          visitCount: visits.length,
          badgeCount: badges.length,
        });
        assert.equal(
          badges.length,
          [5, 10, 17].filter((n) => visits.length >= n).length,
        );
      }
      let counted = 0;
      for (const attraction of loaded.data.attractions) {
        counted += (await getAttractionStats(after, attraction.slug))
          .visitCount;
      }
      assert.equal(counted, recorded, "attraction totals equal the records");
    } finally {
      after.close();
    }
  } finally {
    await stopServices([service], "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a start that cannot succeed says why in one line, exits 1 and writes nothing", async (t) => {
  const dir = await createWorkdir("turismo-durable-");
  const kvPath = `${dir}/state/turismo.kv`;

  async function assertRefused(
    env: Record<string, string>,
    port: number,
    message: RegExp,
  ) {
    const service = startIn(dir, { KV_PATH: kvPath, ...env }, port);
    const status = await waitForExit(service);
    const lines = service.output().trim().split("\n");
    assert.equal(status.code, 1, service.output());
    assert.equal(lines.length, 1, service.output());
    assert.match(lines[0], message);
    await assert.rejects(Deno.stat(`${dir}/state`), Deno.errors.NotFound);
  }

  try {
    await t.step("a port that is taken", async () => {
      using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (taken.addr as Deno.NetAddr).port;
      await assertRefused({}, port, new RegExp(`Port ${port} .*in use`));
    });
    await t.step("a bad variable, named", async () => {
      await assertRefused({ PORT: "ochenta" }, 0, /PORT/);
    });
    await t.step("a data file that cannot be read", async () => {
      await assertRefused(
        { TOURISM_DATA: `${dir}/no-existe.json` },
        await getFreePort(),
        /no-existe\.json: cannot be read/,
      );
    });
    await t.step(
      "a data file that is not valid, with the bad path",
      async () => {
        await Deno.writeTextFile(
          `${dir}/roto.json`,
          mutateShipped((broken) => broken.attractions[2].location.lat = 200),
        );
        await assertRefused(
          { TOURISM_DATA: `${dir}/roto.json` },
          await getFreePort(),
          /roto\.json is invalid: attractions\[2\]\.location\.lat/,
        );
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SIGTERM finishes the request in flight, closes KV and exits 0", async () => {
  const dir = await createWorkdir("turismo-durable-");
  const kvPath = `${dir}/state/turismo.kv`;
  await using model = startFakeOpenAI();
  model.respondWith({
    type: "reply",
    content: "Con calma. 🌵",
    delayMs: 1_500,
  });
  const service = startIn(dir, {
    KV_PATH: kvPath,
    OPENAI_API_KEY: "x",
    OPENAI_BASE_URL: model.url,
  }, await getFreePort());
  try {
    await waitUntilHealthy(service);
    const body = ticketBody({ name: "Ana" });
    const ticket = await postJsonTo(`${service.url}/api/turismo/ticket`, body);
    assert.equal(ticket.status, 200);
    await ticket.body?.cancel();
    const chat = postJsonTo(`${service.url}/api/chat`, { message: "Hola" });
    while (model.requests.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    service.process.kill("SIGTERM");
    const res = await chat;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { reply: "Con calma. 🌵" });
    const status = await service.process.status;
    assert.equal(status.code, 0, service.output());
    assert.match(service.output(), /SIGTERM: finishing[\s\S]*Stopped/);
    // KV was closed: its WAL folded back into the file.
    await assert.rejects(Deno.stat(`${kvPath}-wal`), Deno.errors.NotFound);
    const kv = await openKv(kvPath);
    try {
      assert.equal((await getTicket(kv, body.shareCode))?.name, "Ana");
    } finally {
      kv.close();
    }
  } finally {
    await stopServices([service], "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--env-file reads .env; the real environment wins", async () => {
  const dir = await createWorkdir("turismo-durable-");
  await Deno.writeTextFile(
    `${dir}/.env`,
    [
      "# as .env.example shows",
      "BASE_URL=https://turismo.ejemplo.gob.mx",
      `KV_PATH=${dir}/state/turismo.kv`,
      "PORT=1",
    ].join("\n"),
  );
  const service = startIn(dir, {}, await getFreePort(), ["--env-file=.env"]);
  try {
    await waitUntilHealthy(service);
    const body = ticketBody({ name: "Ana" });
    const res = await postJsonTo(`${service.url}/api/turismo/ticket`, body);
    assert.equal(
      (await res.json()).ticketUrl,
      `https://turismo.ejemplo.gob.mx/ruta/${body.shareCode}`,
    );
    await Deno.stat(`${dir}/state/turismo.kv`);
  } finally {
    await stopServices([service]);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("KV_PATH takes a KV Connect URL and sends DENO_KV_ACCESS_TOKEN", async () => {
  const dir = await createWorkdir("turismo-durable-");
  const seen: { method: string; authorization: string | null }[] = [];
  await using server = serveApp((req) => {
    seen.push({
      method: req.method,
      authorization: req.headers.get("authorization"),
    });
    return Response.json({ error: "unauthorized" }, { status: 401 });
  });
  const url = `${server.origin}/kv`;
  const service = startIn(dir, {
    KV_PATH: url,
    DENO_KV_ACCESS_TOKEN: "token-de-prueba",
  }, await getFreePort());
  try {
    const status = await waitForExit(service);
    assert.equal(status.code, 1, service.output());
    assert.match(
      service.output().trim(),
      new RegExp(
        `^KV Connect ${RegExp.escape(server.origin)} cannot be read: .+$`,
      ),
    );
    assert.ok(seen.length > 0, "the KV Connect server was asked");
    assert.deepEqual(seen[0], {
      method: "POST",
      authorization: "Bearer token-de-prueba",
    });
    // Not taken for a file path: no folder named "http:" appeared.
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((entry) => entry.name).sort(),
      ["data"],
    );
  } finally {
    await stopServices([service], "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});
