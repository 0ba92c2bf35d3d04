/**
 * Share cards where people meet them: real service processes, started as
 * `deno task start` starts them, every default on. A route's card is drawn
 * when the route changes and stored in KV, so a fresh instance serves it
 * without loading a renderer; a rename shows on another instance within a
 * second (it serves the card from memory, without a KV read per request); and the render worker (a `node:worker_threads` thread, which
 * Deno names `worker-<n>`) leaves an idle instance.
 *
 * Threads and memory are read from /proc (Linux). The build step of
 * `deno task start` is left out: route cards are drawn at run time.
 */
import assert from "node:assert/strict";
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { readRouteCard } from "@/lib/db/card_images.ts";
import { openKv } from "@/lib/db/kv.ts";
import { getOrCreateSigningSecret } from "@/lib/db/secrets.ts";
import {
  getFreePort,
  postJsonTo,
  ROOT,
  type ServiceProcess,
  startService,
  stopServices,
  waitUntilHealthy,
} from "../service_process.ts";
import { randomUserId, ticketBody } from "../test_utils.ts";

/** How Deno names a `node:worker_threads` thread: the render pool's worker. */
const RENDER_THREAD = /^worker-\d+$/;
/** How long a test waits for a card to be drawn and stored (a worker's start included). */
const STORE_TIMEOUT_MS = 60_000;
/** The promise the service makes: an instance idle for a minute holds no renderer. */
const IDLE_LIMIT_MS = 60_000;
const MIB = 1024 * 1024;

/**
 * The environment and `deno` arguments of `deno task start`'s service
 * (its last command, read from deno.json), without `--env-file`: a test
 * never reads the working copy's `.env`.
 */
async function getStartCommand(): Promise<
  { env: Record<string, string>; denoArgs: string[] }
> {
  const { tasks } = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const words = (tasks.start as string).split("&&").at(-1)!.trim().split(
    /\s+/,
  );
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0])) {
    const [name, value] = words.shift()!.split("=");
    env[name] = value;
  }
  assert.equal(words.shift(), "deno", tasks.start);
  const main = words.indexOf("main.ts");
  assert.ok(main > 0, tasks.start);
  const [command, ...flags] = words.slice(0, main + 1);
  return { env, denoArgs: [command, "--quiet", ...flags] };
}

/** Starts the service as `deno task start` does, on `kvPath`, and waits until it is healthy. */
async function startOn(kvPath: string): Promise<ServiceProcess> {
  const { env, denoArgs } = await getStartCommand();
  const service = startService({
    port: await getFreePort(),
    env: { ...env, KV_PATH: kvPath },
    denoArgs,
  });
  try {
    await waitUntilHealthy(service);
    assertServes(service);
  } catch (error) {
    await stopServices([service]);
    throw error;
  }
  return service;
}

/** The PID the test inspects is the deno process that runs main.ts (no wrapper in between). */
function assertServes(service: ServiceProcess): void {
  const { pid } = service.process;
  assert.equal(
    Deno.readLinkSync(`/proc/${pid}/exe`),
    Deno.realPathSync(Deno.execPath()),
  );
  const args = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0");
  assert.ok(args.includes("main.ts"), args.join(" "));
}

/** The names of a process's threads. */
function getThreadNames(pid: number): string[] {
  const names: string[] = [];
  for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
    try {
      names.push(
        Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/comm`).trim(),
      );
    } catch {
      // The thread ended while listed.
    }
  }
  return names;
}

function getRenderThreads(pid: number): string[] {
  return getThreadNames(pid).filter((name) => RENDER_THREAD.test(name));
}

/** The process's resident memory in bytes. */
function getRss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

function toMiB(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

/**
 * Reads the process's render threads every 25 ms until `stop()`: every
 * name seen. A thread that lived only for a moment is caught too.
 */
function watchRenderThreads(pid: number) {
  const seen = new Set<string>();
  const look = () => getRenderThreads(pid).forEach((name) => seen.add(name));
  look();
  const timer = setInterval(look, 25);
  return {
    stop(): string[] {
      clearInterval(timer);
      look();
      return [...seen];
    },
  };
}

/**
 * Polls the KV file (as another reader of it, never through the service,
 * which could draw the card) until `code`'s stored card is one other than
 * `previous`; returns its `renderKey`.
 */
async function waitForStoredCard(
  kv: Deno.Kv,
  code: string,
  previous: string | null = null,
): Promise<string> {
  const deadline = Date.now() + STORE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { storedKey } = await readRouteCard(kv, code);
    if (storedKey && storedKey !== previous) return storedKey;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no card of ${code} stored within ${STORE_TIMEOUT_MS} ms`);
}

/** A PNG's width and height, from its header. */
function getPngSize(png: Uint8Array): { width: number; height: number } {
  assert.deepEqual(
    [...png.slice(0, 8)],
    [137, 80, 78, 71, 13, 10, 26, 10],
    "PNG signature",
  );
  const view = new DataView(png.buffer, png.byteOffset);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function getCard(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ etag: string; png: Uint8Array }> {
  const res = await fetch(url, { headers });
  assert.equal(res.status, 200, url);
  assert.equal(res.headers.get("content-type"), "image/png", url);
  const png = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(getPngSize(png), { width: 1200, height: 630 }, url);
  return { etag: res.headers.get("etag")!, png };
}

/** The card URL (with its `?v=`) that a route page links in `og:image`. */
async function getLinkedCard(
  service: ServiceProcess,
  code: string,
): Promise<string> {
  const res = await fetch(`${service.url}/ruta/${code}`);
  assert.equal(res.status, 200);
  const image = /<meta property="og:image" content="([^"]+)"/.exec(
    await res.text(),
  )?.[1];
  assert.ok(image, "og:image");
  const url = new URL(image.replaceAll("&amp;", "&"));
  assert.ok(url.searchParams.has("v"), image);
  return `${service.url}${url.pathname}${url.search}`;
}

async function createTicket(
  service: ServiceProcess,
  { token, name }: { token?: string; name?: string } = {},
): Promise<string> {
  const body = ticketBody(name ? { name } : {});
  const res = await postJsonTo(
    `${service.url}/api/turismo/ticket`,
    body,
    token ? { authorization: `Bearer ${token}` } : {},
  );
  assert.equal(res.status, 200, await res.text());
  return body.shareCode;
}

/** A KV file in a new folder, opened by the test too; `close()` removes it all. */
async function createKvFile(prefix: string) {
  const dir = await Deno.makeTempDir({ prefix });
  const path = `${dir}/turismo.kv`;
  const kv = await openKv(path);
  return {
    path,
    kv,
    async [Symbol.asyncDispose]() {
      kv.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("a card written before a restart is served by a fresh instance without rendering (prove it: no renderer loaded)", async () => {
  await using file = await createKvFile("turismo-card-restart-");
  const first = await startOn(file.path);
  let code: string;
  let before: { etag: string; png: Uint8Array };
  try {
    code = await createTicket(first);
    await waitForStoredCard(file.kv, code);
    // The process that drew it holds the render worker (its idle time is
    // 20 s): the thread this test looks for in the fresh one.
    const drawing = getRenderThreads(first.process.pid);
    console.log(`render thread of the instance that drew it: ${drawing}`);
    assert.equal(drawing.length, 1, getThreadNames(first.process.pid).join());
    before = await getCard(`${first.url}/api/turismo/og/${code}`);
  } finally {
    const [status] = await stopServices([first]);
    assert.equal(status.code, 0, first.output());
  }

  const fresh = await startOn(file.path);
  try {
    const { pid } = fresh.process;
    const threads = watchRenderThreads(pid);
    const rssBefore = getRss(pid);
    const after = await getCard(`${fresh.url}/api/turismo/og/${code}`);
    // Whatever the request may have set off has had time to show.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAfter = getRss(pid);
    assert.deepEqual(threads.stop(), [], "no render thread, ever");
    console.log(
      `fresh instance: RSS ${toMiB(rssBefore)} before the card, ${
        toMiB(rssAfter)
      } after; threads ${getThreadNames(pid).sort().join(", ")}`,
    );
    assert.equal(after.etag, before.etag);
    assert.deepEqual(after.png, before.png, "the very bytes stored");
    // A render worker costs 60-100 MiB; reading a card from KV, a few.
    assert.ok(
      rssAfter - rssBefore < 30 * MIB,
      `RSS grew ${toMiB(rssAfter - rssBefore)}`,
    );
  } finally {
    await stopServices([fresh]);
  }
});

Deno.test("a name change is never served stale", async (t) => {
  await using file = await createKvFile("turismo-card-rename-");
  const { secret } = await getOrCreateSigningSecret(file.kv);
  const [a, b] = await Promise.all([startOn(file.path), startOn(file.path)]);
  try {
    const userId = randomUserId();
    const token = await signOwnToken(secret, userId);
    const code = await createTicket(a, { token, name: "Nombre Anterior" });
    const storedKey = await waitForStoredCard(file.kv, code);
    const card = `${b.url}/api/turismo/og/${code}`;
    const oldLinked = await getLinkedCard(b, code);
    const old = await getCard(card);
    assert.deepEqual(await getCard(oldLinked), old);

    const rename = await postJsonTo(
      `${a.url}/api/turismo/users/${userId}/name`,
      { name: "Nombre Corregido" },
      { authorization: `Bearer ${token}` },
    );
    const renamedAt = performance.now();
    assert.equal(rename.status, 200, await rename.clone().text());
    assert.equal((await rename.json()).name, "Nombre Corregido");

    await t.step(
      "within 1 s, B serves the new name at the card URL, the old ?v= URL the route page linked, and to a cache holding the old ETag: a new ETag, the bytes A serves",
      async () => {
        // B answers both URLs from memory: asked again until the rename
        // shows there (one second at most, the promise), while A may
        // still be drawing it.
        const renamed = async (url: string) => {
          for (;;) {
            // Timed when asked: B may draw the new card for the answer.
            const waited = performance.now() - renamedAt;
            const got = await getCard(url);
            if (got.etag !== old.etag) return waited;
            assert.ok(waited <= 1_000, `${url}: old card after ${waited} ms`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        };
        const waited = await Promise.all([renamed(card), renamed(oldLinked)]);
        console.log(`B showed the rename after ${waited.map(Math.round)} ms`);
        const [there, linked, revalidated] = await Promise.all([
          getCard(card),
          getCard(oldLinked),
          getCard(oldLinked, { "if-none-match": old.etag }),
        ]);
        assert.notEqual(there.etag, old.etag);
        assert.notDeepEqual(there.png, old.png);
        const here = await getCard(`${a.url}/api/turismo/og/${code}`);
        assert.equal(there.etag, here.etag);
        assert.deepEqual(there.png, here.png);
        assert.deepEqual(linked, here);
        assert.deepEqual(revalidated, here);
      },
    );

    await t.step(
      "the new ?v= URL the route page links answers the same card on B and A",
      async () => {
        const current = await getCard(`${a.url}/api/turismo/og/${code}`);
        const newLinked = await getLinkedCard(b, code);
        assert.notEqual(new URL(newLinked).search, new URL(oldLinked).search);
        assert.equal(
          await getLinkedCard(a, code),
          newLinked.replace(b.url, a.url),
        );
        assert.deepEqual(await getCard(newLinked), current);
        assert.deepEqual(
          await getCard(newLinked.replace(b.url, a.url)),
          current,
        );
      },
    );

    await t.step("the card stored in KV is the renamed one", async () => {
      await waitForStoredCard(file.kv, code, storedKey);
      const current = await getCard(card);
      const { storedKey: now, readPng } = await readRouteCard(file.kv, code);
      assert.notEqual(now, storedKey);
      assert.deepEqual(await readPng(), current.png);
    });
  } finally {
    const statuses = await stopServices([a, b]);
    assert.deepEqual(statuses.map((status) => status.code), [0, 0]);
  }
});

Deno.test("an instance idle for a minute holds no renderer", async () => {
  await using file = await createKvFile("turismo-card-idle-");
  const service = await startOn(file.path);
  try {
    const { pid } = service.process;
    const rssIdle = getRss(pid);
    assert.deepEqual(getRenderThreads(pid), [], "none before any card");
    // A ticket's card is drawn on the write: the worker starts.
    const code = await createTicket(service);
    await waitForStoredCard(file.kv, code);
    const drawnAt = Date.now();
    const threads = getRenderThreads(pid);
    assert.equal(threads.length, 1, getThreadNames(pid).join());
    const rssRendering = getRss(pid);

    let goneAt: number | undefined;
    while (Date.now() - drawnAt < IDLE_LIMIT_MS) {
      if (getRenderThreads(pid).length === 0) {
        goneAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.ok(goneAt, `${threads} still there a minute after the last card`);
    // Memory handed back by the ended thread shows within a moment.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const rssAfter = getRss(pid);
    console.log(
      `${threads} left ${
        ((goneAt - drawnAt) / 1000).toFixed(1)
      } s after the card was stored; RSS ${toMiB(rssIdle)} at start, ${
        toMiB(rssRendering)
      } with the worker, ${toMiB(rssAfter)} after it left`,
    );
    assert.ok(
      rssAfter < rssRendering - 20 * MIB,
      `RSS ${toMiB(rssRendering)} -> ${toMiB(rssAfter)}`,
    );
    // The service still serves the card (from KV) once the worker is gone.
    await getCard(`${service.url}/api/turismo/og/${code}`);
    assert.deepEqual(getRenderThreads(pid), []);
  } finally {
    const [status] = await stopServices([service]);
    assert.equal(status.code, 0, service.output());
  }
});
