import assert from "node:assert/strict";
import { loadTourismData } from "@/lib/data/tourism_data.ts";
import type { ShareCard } from "./card_types.ts";
import { renderShareCard as renderInProcess } from "./render_card.ts";
import {
  RenderPool,
  RenderQueueFullError,
  RenderTimeoutError,
  WARM_DELAY_MS,
} from "./pool.ts";

const loaded = await loadTourismData(
  new URL("../../data/turismo.json", import.meta.url).pathname,
);

function card(overrides: Partial<ShareCard> = {}): ShareCard {
  return {
    name: "María José Ñúñez",
    visitCount: 8,
    totalAttractions: 17,
    badges: [{ id: "explorador", name: "Explorador", icon: "🧭" }],
    branding: loaded.data.branding,
    ...overrides,
  };
}

/**
 * A worker module for a pool's `workerUrl`, started through a two-line
 * JavaScript entry that imports it by a computed specifier: the same module
 * runs, with the same `workerData` and resource limits. Under `deno test`,
 * which type-checks, a worker started from a TypeScript file first builds
 * its own module graph (resolving the 3.7k twemoji imports one by one),
 * which took 4-9 s per worker on a 2-core machine, most of this file's
 * time; started this way, a worker is ready in about a second. The first
 * pool below keeps the pool's default worker URL, so that path is still
 * proven; `deno check .` type-checks the worker modules.
 */
function quickWorker(path: string): URL {
  const entry = `const module = ${
    JSON.stringify(new URL(path, import.meta.url).href)
  };\nawait import(module);\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(entry)}`);
}

const realWorkerUrl = quickWorker("./worker.ts");

/** The longest pause of a 5 ms timer while `work` runs, in milliseconds. */
async function measureLongestStall(work: () => Promise<unknown>) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
    longest = Math.max(longest, performance.now() - last);
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/** Each thread of this process (by id) and its niceness, from /proc. */
function threadNiceness(): Map<string, number> {
  const niceness = new Map<string, number>();
  for (const task of Deno.readDirSync("/proc/self/task")) {
    const stat = Deno.readTextFileSync(`/proc/self/task/${task.name}/stat`);
    // After the parenthesised name: state is field 3, niceness field 19.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    niceness.set(task.name, Number(fields[16]));
  }
  return niceness;
}

/** Linux 6.12 and later: a thread may ask for its own EEVDF time slice. */
function hasCustomSlices(): boolean {
  if (Deno.build.os !== "linux") return false;
  const [major, minor] = Deno.osRelease().split(".").map(Number);
  return (major > 6 || (major === 6 && minor >= 12)) &&
    readSliceNs(String(Deno.pid)) !== undefined;
}

/** A thread's time slice in ns (`se.slice` in /proc, kept where the kernel shows it). */
function readSliceNs(threadId: string): number | undefined {
  try {
    const sched = Deno.readTextFileSync(`/proc/self/task/${threadId}/sched`);
    const line = sched.split("\n").find((l) => l.startsWith("se.slice"));
    return line ? Number(line.split(":")[1]) : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("share-card worker pool", async (t) => {
  {
    // Closed at the block's end, before the steps that make their own pools.
    // The pool's own worker URL (no `workerUrl`), as in production.
    using pool = new RenderPool({ size: 1, maxQueue: 4 });
    await t.step(
      "renders the very bytes the in-process renderer does",
      async () => {
        const [fromPool, inProcess] = await Promise.all([
          pool.render(card()),
          renderInProcess(card()),
        ]);
        assert.ok(fromPool instanceof Uint8Array);
        assert.deepEqual(fromPool, inProcess);
        assert.deepEqual(
          Array.from(fromPool.subarray(1, 4)),
          [0x50, 0x4e, 0x47],
        );
      },
    );

    await t.step({
      name: "the worker renders at a lower CPU priority than the main thread",
      ignore: Deno.build.os !== "linux",
      fn: () => {
        const niceness = threadNiceness();
        assert.equal(niceness.get(String(Deno.pid)), 0, "main thread");
        // The worker's thread, and any helper thread it started since
        // (new threads inherit their creator's niceness).
        const lowered = [...niceness].filter(([, n]) => n === 10);
        assert.ok(lowered.length >= 1, JSON.stringify([...niceness]));
        assert.ok(lowered.length < niceness.size / 2);
      },
    });

    await t.step({
      name:
        "and asks for the shortest time slice where Linux has custom slices",
      ignore: !hasCustomSlices(),
      fn: () => {
        const slices = [...threadNiceness()].map(([id, nice]) => ({
          id,
          nice,
          slice: readSliceNs(id),
        }));
        const lowered = slices.filter((s) => s.nice === 10);
        assert.ok(lowered.length >= 1, JSON.stringify(slices));
        for (const s of lowered) assert.equal(s.slice, 100_000, s.id);
        assert.notEqual(readSliceNs(String(Deno.pid)), 100_000, "main thread");
      },
    });

    await t.step(
      "the main thread keeps running while cards render",
      async () => {
        const cards = Array.from(
          { length: 4 },
          (_, i) => card({ name: `Ana ${i}`, visitCount: i }),
        );
        const inWorker = await measureLongestStall(() =>
          Promise.all(cards.map((c) => pool.render(c)))
        );
        const onMainThread = await measureLongestStall(async () => {
          for (const c of cards) await renderInProcess(c);
        });
        assert.ok(
          onMainThread > 40,
          `in process the loop stalls (${onMainThread.toFixed(1)} ms)`,
        );
        assert.ok(
          inWorker < onMainThread / 2,
          `worker ${inWorker.toFixed(1)} ms vs main ${
            onMainThread.toFixed(1)
          } ms`,
        );
      },
    );

    await t.step(
      "more renders than the queue holds are refused with a 503",
      async () => {
        const renders = Array.from(
          { length: 7 },
          (_, i) =>
            pool.render(card({ visitCount: i })).then(
              () => "ok",
              (error) => error,
            ),
        );
        const results = await Promise.all(renders);
        assert.equal(results.filter((r) => r === "ok").length, 5);
        const refused = results.filter((r) =>
          r instanceof RenderQueueFullError
        );
        assert.equal(refused.length, 2);
        assert.equal(refused[0].status, 503);
        assert.equal(refused[0].options.retryAfterSeconds, 5);
        assert.equal(pool.stats.queued, 0);
      },
    );
  }

  await t.step(
    "a render past the timeout fails with a 503 and its worker is stopped",
    async () => {
      using slow = new RenderPool({
        size: 1,
        timeoutMs: 1,
        workerUrl: realWorkerUrl,
      });
      await assert.rejects(slow.render(card()), RenderTimeoutError);
      assert.equal(slow.stats.workers, 0);
    },
  );

  const slowWorkerUrl = quickWorker("./testdata/slow_worker.ts");

  await t.step({
    name:
      "a render that waits for a core past its timeout is waited for: its worker is kept",
    ignore: Deno.build.os !== "linux",
    fn: async () => {
      // 1.5 s of CPU time for a render (a first one uses 0.2-0.4 s); the
      // worker holds this card 3 s without running.
      using starved = new RenderPool({
        size: 1,
        timeoutMs: 1_500,
        maxWaitMs: 60_000,
        workerUrl: slowWorkerUrl,
      });
      const started = performance.now();
      const png = await starved.render(card({ name: "💤" }));
      assert.ok(performance.now() - started >= 3_000);
      assert.deepEqual(png, await renderInProcess(card({ name: "💤" })));
      assert.deepEqual(starved.stats, {
        workers: 1,
        ready: 1,
        busy: 0,
        queued: 0,
        rendered: 1,
        inProcess: 0,
      });
    },
  });

  await t.step({
    name:
      "a worker that runs a render past its CPU time is stopped before maxWaitMs",
    ignore: Deno.build.os !== "linux",
    fn: async () => {
      using looping = new RenderPool({
        size: 1,
        timeoutMs: 500,
        maxWaitMs: 60_000,
        workerUrl: slowWorkerUrl,
      });
      const started = performance.now();
      await assert.rejects(
        looping.render(card({ name: "🔁" })),
        RenderTimeoutError,
      );
      const waited = performance.now() - started;
      assert.ok(waited >= 500 && waited < 30_000, `${waited} ms`);
      assert.equal(looping.stats.workers, 0);
    },
  });

  await t.step(
    "a worker that holds a render without running is stopped at maxWaitMs",
    async () => {
      // The check at timeoutMs finds no CPU time used and waits on, to maxWaitMs.
      using sleeping = new RenderPool({
        size: 1,
        timeoutMs: 500,
        maxWaitMs: 1_000,
        workerUrl: slowWorkerUrl,
      });
      const started = performance.now();
      await assert.rejects(
        sleeping.render(card({ name: "🛌" })),
        RenderTimeoutError,
      );
      const waited = performance.now() - started;
      assert.ok(waited >= 1_000, `${waited} ms`);
      assert.equal(sleeping.stats.workers, 0);
    },
  );

  await t.step("a closed pool rejects what waits and what comes", async () => {
    const closing = new RenderPool({ size: 1, workerUrl: realWorkerUrl });
    const waiting = closing.render(card());
    closing.close();
    await assert.rejects(waiting, /closed/);
    await assert.rejects(closing.render(card()), /closed/);
  });

  await t.step(
    "a worker that dies mid-render is replaced: that card and the next still render",
    async () => {
      using dying = new RenderPool({
        size: 1,
        workerUrl: quickWorker("./testdata/dying_worker.ts"),
      });
      const [crashed, fine] = await Promise.all([
        dying.render(card({ name: "💥" })),
        dying.render(card({ name: "Ana" })),
      ]);
      assert.deepEqual(crashed, await renderInProcess(card({ name: "💥" })));
      assert.deepEqual(fine, await renderInProcess(card({ name: "Ana" })));
      // Tried again in a fresh worker, which died too: then in process.
      assert.equal(dying.stats.inProcess, 1);
      assert.deepEqual(
        await dying.render(card({ name: "Luis" })),
        await renderInProcess(card({ name: "Luis" })),
      );
      assert.equal(dying.stats.inProcess, 1, "workers render again");
    },
  );

  await t.step(
    "where workers cannot start, cards render in process instead of failing",
    async () => {
      using broken = new RenderPool({
        size: 1,
        workerUrl: quickWorker("./testdata/broken_worker.ts"),
      });
      const pngs = await Promise.all([
        broken.render(card({ name: "Ana" })),
        broken.render(card({ name: "Luis" })),
      ]);
      assert.deepEqual(pngs[0], await renderInProcess(card({ name: "Ana" })));
      assert.deepEqual(
        pngs[1],
        await renderInProcess(card({ name: "Luis" })),
      );
      assert.equal(broken.stats.workers, 0);
      assert.ok(broken.stats.inProcess >= 2);
    },
  );

  await t.step(
    "workers that failed for a while are tried again after the pause, and render",
    async () => {
      const flag = await Deno.makeTempFile();
      Deno.env.set("RENDER_TEST_WORKERS_BROKEN", flag);
      try {
        using recovering = new RenderPool({
          size: 1,
          retryWorkersAfterMs: 500,
          workerUrl: quickWorker("./testdata/recovering_worker.ts"),
        });
        // Three failed workers in a row: these render in process.
        await recovering.render(card({ name: "Ana" }));
        await recovering.render(card({ name: "Luis" }));
        assert.equal(recovering.stats.rendered, 0);
        const inProcess = recovering.stats.inProcess;
        assert.ok(inProcess >= 2);
        await Deno.remove(flag);
        // Within the pause: still in process, no worker started.
        await recovering.render(card({ name: "Eva" }));
        assert.equal(recovering.stats.inProcess, inProcess + 1);
        await new Promise((resolve) => setTimeout(resolve, 600));
        assert.deepEqual(
          await recovering.render(card({ name: "Sol" })),
          await renderInProcess(card({ name: "Sol" })),
        );
        assert.equal(recovering.stats.rendered, 1, "a worker drew it");
        assert.equal(recovering.stats.inProcess, inProcess + 1);
        assert.equal(recovering.stats.workers, 1);
      } finally {
        Deno.env.delete("RENDER_TEST_WORKERS_BROKEN");
        await Deno.remove(flag).catch(() => {});
      }
    },
  );
});

Deno.test("a worker with nothing to do is stopped, and the next card starts a fresh one", async () => {
  using pool = new RenderPool({
    size: 1,
    idleMs: 200,
    workerUrl: realWorkerUrl,
  });
  const first = await pool.render(card({ name: "Primera" }));
  assert.equal(pool.stats.workers, 1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.equal(pool.stats.workers, 0, "stopped when idle");
  const second = await pool.render(card({ name: "Segunda" }));
  assert.notDeepEqual(second, first);
  assert.equal(pool.stats.workers, 1);
  assert.equal(pool.stats.rendered, 2);
  assert.equal(pool.stats.inProcess, 0, "not counted as a failure");
});

Deno.test("a worker started ahead of the first card: after the first page, at start, or not", async (t) => {
  const settle = () =>
    new Promise((resolve) => setTimeout(resolve, WARM_DELAY_MS + 100));
  const untilReady = async (pool: RenderPool) => {
    while (pool.stats.ready === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  await t.step(
    "first-page: the first page starts one worker, once, which then draws the card",
    async () => {
      using pool = new RenderPool({
        size: 1,
        start: "first-page",
        idleMs: 300,
        workerUrl: realWorkerUrl,
      });
      assert.equal(pool.stats.workers, 0);
      pool.pageServed();
      assert.equal(pool.stats.workers, 0, "not during the page itself");
      await settle();
      assert.equal(pool.stats.workers, 1);
      await untilReady(pool);
      pool.pageServed();
      await pool.render(card());
      assert.deepEqual(
        { workers: pool.stats.workers, rendered: pool.stats.rendered },
        { workers: 1, rendered: 1 },
      );
      // Idle, it stops; later pages start none ahead (once per process).
      while (pool.stats.workers > 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      pool.pageServed();
      await settle();
      assert.equal(pool.stats.workers, 0);
    },
  );

  await t.step(
    "first-card: pages start nothing; the card starts its worker",
    async () => {
      using pool = new RenderPool({
        size: 1,
        start: "first-card",
        workerUrl: realWorkerUrl,
      });
      pool.pageServed();
      await settle();
      assert.equal(pool.stats.workers, 0);
      await pool.render(card());
      assert.equal(pool.stats.rendered, 1);
    },
  );

  await t.step(
    "boot: a worker starts soon after the pool is made, without a page",
    async () => {
      using pool = new RenderPool({
        size: 1,
        start: "boot",
        workerUrl: realWorkerUrl,
      });
      await settle();
      assert.equal(pool.stats.workers, 1);
      await untilReady(pool);
    },
  );

  await t.step(
    "a card asked for before the warm-up starts a worker at once, and no second one follows",
    async () => {
      using pool = new RenderPool({
        size: 1,
        start: "first-page",
        workerUrl: realWorkerUrl,
      });
      pool.pageServed();
      await pool.render(card());
      await settle();
      assert.deepEqual(
        { workers: pool.stats.workers, rendered: pool.stats.rendered },
        { workers: 1, rendered: 1 },
      );
    },
  );
});
