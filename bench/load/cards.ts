/**
 * The share-card phases on the running service (bench/load/setup.ts), as
 * users meet the cards now that a route's card is drawn when the route
 * changes and stored in KV:
 *
 * - `stall`: `/healthz` (one connection) idle, then while cards are drawn
 *   for new tickets ({@linkcode MEMORY_CARDS_IN_FLIGHT} tourists at a time,
 *   each making a ticket and waiting until its card is stored);
 * - `new-user-card`: on a busy machine (the route page read by wrk at full
 *   load, as in the memory phase), a new user makes a ticket and a link
 *   preview asks for its card {@linkcode PREVIEW_DELAY_MS} later (the
 *   tourist opens the page, then shares it): the time to the PNG. The first
 *   try comes after the render worker has left (the service idle for its
 *   default idle time), as after a quiet spell;
 * - `burst`: {@linkcode BURST_WRITES} renames of one route, as fast as
 *   {@linkcode BURST_IN_FLIGHT} connections go: the cards they store (each
 *   changes the stored card's key in KV, read every {@linkcode POLL_MS}),
 *   the renders they cause (the render worker's CPU time, from /proc, in
 *   units of a single rename's render: a render whose ticket changed before
 *   it ended is not stored), and how long after the last write the stored
 *   card shows the final state (checked with a conditional request: 304);
 * - `memory`: `MEMORY_CARDS` (500) tickets made while the route page is
 *   under load, each tourist waiting for its card to be stored
 *   ({@linkcode MEMORY_CARDS_IN_FLIGHT} at a time), then those 500 cards
 *   asked for; the service's RSS sampled every 100 ms.
 *
 * Renders are counted from the service's KV file, opened beside it.
 */
import { DEFAULT_IDLE_MS } from "@/lib/og/pool.ts";
import { MEMORY_CARDS_IN_FLIGHT, ROUTE_CODE, wanted } from "./config.ts";
import { type Figure, runWrk } from "./measure.ts";
import { readMemory, readWorkerCpuMs } from "./processes.ts";
import { median } from "./cold_start.ts";
import type { Bench } from "./setup.ts";
import {
  createTicket,
  etagOfKey,
  fetchCard,
  newTourist,
  POLL_MS,
  readStoredKey,
  renameRoute,
  sleep,
  waitForStoredCard,
} from "./tourists.ts";

/** After a route's card is drawn for a write, further writes wait this long (lib/og/share_cards.ts's default `cooldownMs`). */
export const COOLDOWN_MS = 3_000;
/** How long after the ticket the link preview asks for the card. */
export const PREVIEW_DELAY_MS = 1_000;
/** New users tried on the busy machine. */
export const NEW_USER_TRIES = 5;
/** Waited past the worker's default idle time before the first new user. */
const IDLE_MARGIN_MS = 5_000;
/** Writes to one route in a burst, and how many in flight. */
export const BURST_WRITES = 100;
export const BURST_IN_FLIGHT = 4;
export const BURSTS = 3;
/** Single renames before the bursts: the worker's CPU time for one render. */
export const CALIBRATION_WRITES = 2;
/** A stored card unchanged this long after a burst is taken as final. */
const QUIET_MS = COOLDOWN_MS + 1_500;
/** The longest a card is waited for after its ticket. */
const DRAW_TIMEOUT_MS = 60_000;

/** `/healthz` idle and while cards are drawn for new tickets. */
export interface Stall {
  idle: Figure;
  during: Figure;
  draws: DrawRun;
}

/** Tickets made by tourists who each wait for their card to be stored. */
export interface DrawRun {
  tickets: number;
  /** Cards stored within {@linkcode DRAW_TIMEOUT_MS} of their ticket. */
  drawn: number;
  /** Tickets that failed (non-200). */
  errors: number;
  seconds: number;
  /** Each drawn card's time from the ticket's answer to the stored card. */
  drawMs: number[];
}

/** One new user on the busy machine. */
export interface NewUserTry {
  /** The ticket's answer. */
  ticketMs: number;
  /** Whether the card was stored when the preview asked. */
  storedBefore: boolean;
  /** The preview's request to the end of the PNG. */
  cardMs: number;
  status: number;
}

export interface NewUserPhase {
  /** Whether the render worker had left before the first try (no `worker-<n>` thread). */
  workerGone: boolean;
  tries: NewUserTry[];
  /** The route page's figures meanwhile (the load). */
  reads: Figure;
}

/** One burst of writes to one route. */
export interface Burst {
  writes: number;
  writeErrors: number;
  /** From the first write's request to the last write's answer. */
  burstMs: number;
  /** Stored card changes seen from the burst's start until quiet, and when (ms from the start). */
  stored: number;
  changesAtMs: number[];
  /**
   * The render workers' CPU time meanwhile: renders whose ticket changed
   * before they ended are drawn but not stored (lib/db/card_images.ts), so
   * only this counts them.
   */
  workerCpuMs: number;
  /** From the last write's answer to the last change of the stored card. */
  staleMs: number;
  /** Whether the stored card then shows the final state (304 to its ETag). */
  current: boolean;
}

/** Bursts, and the worker's CPU time for one render (a single rename's). */
export interface BurstPhase {
  renderCpuMs: number;
  bursts: Burst[];
}

/** The memory phase: cards drawn for new tickets, then read, while the route page is read. */
export interface MemoryPhase {
  /** The service's RSS right after start-up, and at the phase's start. */
  startMiB: number;
  beforeMiB: number;
  /** The highest RSS sampled (every 100 ms) and the kernel's peak (VmHWM). */
  peakSampledMiB: number;
  hwmMiB: number;
  endMiB: number;
  draws: DrawRun;
  /** The cards then asked for: answers other than 200, and the time. */
  cardReads: number;
  cardErrors: number;
  cardSeconds: number;
  /** The route page's figures meanwhile. */
  reads: Figure;
}

/** Opens the service's KV file beside it for `work`. */
async function withServiceKv<T>(
  bench: Bench,
  work: (kv: Deno.Kv) => Promise<T>,
): Promise<T> {
  const kv = await Deno.openKv(bench.service.kvPath);
  try {
    return await work(kv);
  } finally {
    kv.close();
  }
}

/**
 * `lanes` tourists at a time, each making a ticket and waiting for its card
 * in KV, until `codes` are used or `until()` says stop.
 */
async function drawByWrites(
  bench: Bench,
  kv: Deno.Kv,
  { codes, lanes, until = () => false }: {
    codes: Iterable<string>;
    lanes: number;
    until?: () => boolean;
  },
): Promise<DrawRun> {
  const run: DrawRun = {
    tickets: 0,
    drawn: 0,
    errors: 0,
    seconds: 0,
    drawMs: [],
  };
  const iterator = codes[Symbol.iterator]();
  const started = performance.now();
  await Promise.all(Array.from({ length: lanes }, async () => {
    while (!until()) {
      const next = iterator.next();
      if (next.done) return;
      const tourist = await newTourist(bench.service.fixtures.secret);
      run.tickets++;
      try {
        await createTicket(bench.service.url, tourist, next.value, {
          forwarded: true,
        });
      } catch {
        run.errors++;
        continue;
      }
      const stored = await waitForStoredCard(kv, next.value, {
        timeoutMs: DRAW_TIMEOUT_MS,
      });
      if (stored) {
        run.drawn++;
        run.drawMs.push(stored.ms);
      }
    }
  }));
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

/** Share codes `prefix-0`, `prefix-1`, ... without end. */
function* newCodes(prefix: string): Generator<string> {
  const run = crypto.randomUUID().slice(0, 6);
  for (let i = 0;; i++) yield `${prefix}-${run}-${i}`;
}

/**
 * Runs `work` while wrk reads the route page at full load (at least one
 * run's duration: wrk runs in slices until `work` ends); the page's figures
 * over all the slices.
 */
async function underPageLoad<T>(
  bench: Bench,
  work: () => Promise<T>,
): Promise<{ result: T; reads: Figure }> {
  const { service, options } = bench;
  let done = false;
  let failure: unknown;
  let result: T | undefined;
  const running = work().then((r) => result = r, (e) => failure = e)
    .finally(() => done = true);
  const reads: Figure[] = [];
  do {
    reads.push(
      await runWrk({
        url: `${service.url}/ruta/${ROUTE_CODE}`,
        script: "get.lua",
        args: [String(100 + bench.nextSalt())],
        connections: options.connections,
        duration: options.duration,
      }),
    );
  } while (!done);
  await running;
  if (failure) throw failure;
  const total = reads.reduce((sum, f) => sum + f.requests, 0);
  return {
    result: result as T,
    reads: {
      rps: reads.reduce((sum, f) => sum + f.rps * f.requests, 0) / total,
      p50Ms: Math.max(...reads.map((f) => f.p50Ms)),
      p99Ms: Math.max(...reads.map((f) => f.p99Ms)),
      requests: total,
      errors: reads.reduce((sum, f) => sum + f.errors, 0),
    },
  };
}

/**
 * `/healthz` (one connection) idle, then while cards are drawn for new
 * tickets ({@linkcode MEMORY_CARDS_IN_FLIGHT} tourists at a time): does
 * drawing block the event loop? One card is drawn first, so the worker is
 * running when the measure starts.
 */
export async function measureStall(bench: Bench): Promise<Stall | undefined> {
  if (!wanted(bench.options, "stall")) return undefined;
  console.info("Measuring /healthz while cards are drawn for new tickets...");
  const { url } = bench.service;
  const { duration } = bench.options;
  const healthz = (salt: string) =>
    runWrk({
      url: `${url}/healthz`,
      script: "get.lua",
      args: [salt],
      connections: 1,
      duration,
    });
  return await withServiceKv(bench, async (kv) => {
    const codes = newCodes("stall");
    // The worker started and warm, then nothing queued.
    await drawByWrites(bench, kv, { codes: [codes.next().value], lanes: 1 });
    await sleep(1_000);
    const idle = await healthz("250");
    let measuring = true;
    const [draws, during] = await Promise.all([
      drawByWrites(bench, kv, {
        codes,
        lanes: MEMORY_CARDS_IN_FLIGHT,
        until: () => !measuring,
      }),
      healthz("252").finally(() => measuring = false),
    ]);
    console.info(
      `  healthz idle p50 ${idle.p50Ms.toFixed(2)} p99 ${
        idle.p99Ms.toFixed(2)
      } ms; while cards are drawn p50 ${during.p50Ms.toFixed(2)} p99 ${
        during.p99Ms.toFixed(2)
      } ms (${draws.drawn} cards in ${draws.seconds.toFixed(1)} s)`,
    );
    return { idle, during, draws };
  });
}

/**
 * New users on a busy machine: each makes a ticket and a link preview asks
 * for its card {@linkcode PREVIEW_DELAY_MS} after the ticket's answer, while
 * wrk reads the route page at full load. The first try after the service
 * idled past the worker's default idle time (the worker gone).
 */
export async function measureNewUserCard(
  bench: Bench,
): Promise<NewUserPhase | undefined> {
  if (!wanted(bench.options, "new-user-card")) return undefined;
  const idleMs = DEFAULT_IDLE_MS + IDLE_MARGIN_MS;
  console.info(
    `New users' cards on a busy machine: ${
      idleMs / 1000
    } s idle (the render worker leaves), then ${NEW_USER_TRIES} tries under page load...`,
  );
  await sleep(idleMs);
  const workerGone =
    (await readWorkerCpuMs(bench.service.process.child.pid)).size === 0;
  const { url } = bench.service;
  const { result: tries, reads } = await withServiceKv(
    bench,
    (kv) =>
      underPageLoad(bench, async () => {
        const tries: NewUserTry[] = [];
        const codes = newCodes("nuevo");
        for (let i = 0; i < NEW_USER_TRIES; i++) {
          const code = codes.next().value;
          const tourist = await newTourist(bench.service.fixtures.secret);
          const ticketMs = await createTicket(url, tourist, code, {
            forwarded: true,
          });
          await sleep(PREVIEW_DELAY_MS);
          const storedBefore = await readStoredKey(kv, code) !== null;
          const card = await fetchCard(url, code, { forwarded: true });
          tries.push({
            ticketMs,
            storedBefore,
            cardMs: card.ms,
            status: card.status,
          });
          console.info(
            `  try ${i + 1}: ticket ${ticketMs.toFixed(0)} ms; card ${
              PREVIEW_DELAY_MS / 1000
            } s later: ${card.status} in ${card.ms.toFixed(0)} ms (${
              storedBefore ? "stored already" : "not stored yet"
            })`,
          );
          await sleep(1_000);
        }
        return tries;
      }),
  );
  return { workerGone, tries, reads };
}

/**
 * The CPU time of a process's render workers, summed over every worker
 * seen (a worker that left keeps its last figure).
 */
class WorkerCpu {
  readonly #seen = new Map<number, number>();
  constructor(readonly pid: number) {}

  async sample(): Promise<number> {
    for (const [tid, ms] of await readWorkerCpuMs(this.pid)) {
      this.#seen.set(tid, Math.max(this.#seen.get(tid) ?? 0, ms));
    }
    return [...this.#seen.values()].reduce((a, b) => a + b, 0);
  }
}

/**
 * Writes to one route: one rename at a time (each drawing one card: the
 * worker's CPU per render), then {@linkcode BURSTS} bursts of
 * {@linkcode BURST_WRITES} renames. For each burst: the stored card's
 * changes in KV, the render worker's CPU time (renders, in units of one
 * rename's), and the stored card's staleness after it.
 */
export async function measureBurst(
  bench: Bench,
): Promise<BurstPhase | undefined> {
  if (!wanted(bench.options, "burst")) return undefined;
  console.info(
    `Bursts: ${CALIBRATION_WRITES} single renames, then ${BURSTS} × ${BURST_WRITES} renames of one route, ${BURST_IN_FLIGHT} in flight...`,
  );
  const { url } = bench.service;
  const cpu = new WorkerCpu(bench.service.process.child.pid);
  return await withServiceKv(bench, async (kv) => {
    const tourist = await newTourist(bench.service.fixtures.secret);
    const code = newCodes("rafaga").next().value;
    await createTicket(url, tourist, code, { forwarded: true });
    const first = await waitForStoredCard(kv, code);
    if (!first) throw new Error(`the card of ${code} was never stored`);
    let key = first.key;
    await sleep(QUIET_MS);

    /** `writes` renames, `inFlight` at a time; the stored card watched until quiet. */
    const writeAndWatch = async (writes: number, inFlight: number) => {
      const cpuBefore = await cpu.sample();
      const started = performance.now();
      const changes: number[] = [];
      let lastChange = started;
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const now = await readStoredKey(kv, code);
          if (now !== null && now !== key) {
            key = now;
            lastChange = performance.now();
            changes.push(lastChange - started);
          }
          await cpu.sample();
          await sleep(POLL_MS);
        }
      })();
      let next = 0;
      let writeErrors = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < writes) {
            const i = next++;
            const { status } = await renameRoute(
              url,
              tourist,
              `Ráfaga ${crypto.randomUUID().slice(0, 4)} ${i + 1}`,
              { forwarded: true },
            );
            if (status !== 200) writeErrors++;
          }
        }),
      );
      const ended = performance.now();
      const deadline = ended + DRAW_TIMEOUT_MS;
      while (
        performance.now() - Math.max(lastChange, ended) < QUIET_MS &&
        performance.now() < deadline
      ) {
        await sleep(POLL_MS);
      }
      watching = false;
      await watcher;
      const workerCpuMs = await cpu.sample() - cpuBefore;
      const check = await fetchCard(url, code, { ifNoneMatch: etagOfKey(key) });
      // A card drawn for `check` (not current) must not count next time.
      key = await readStoredKey(kv, code) ?? key;
      return {
        writes,
        writeErrors,
        burstMs: ended - started,
        changesAtMs: changes,
        stored: changes.length,
        workerCpuMs,
        staleMs: Math.max(0, lastChange - ended),
        current: check.status === 304,
      };
    };

    const single: number[] = [];
    for (let i = 0; i < CALIBRATION_WRITES; i++) {
      const one = await writeAndWatch(1, 1);
      if (one.stored !== 1) {
        throw new Error(`one rename stored ${one.stored} cards, not one`);
      }
      single.push(one.workerCpuMs);
    }
    const renderCpuMs = median(single);
    console.info(
      `  one rename, one render: the worker's CPU ${
        single.map((ms) => ms.toFixed(0)).join(", ")
      } ms`,
    );
    const bursts: Burst[] = [];
    for (let b = 0; b < BURSTS; b++) {
      const burst = await writeAndWatch(BURST_WRITES, BURST_IN_FLIGHT);
      bursts.push(burst);
      console.info(
        `  burst ${b + 1}: ${burst.writes} renames in ${
          burst.burstMs.toFixed(0)
        } ms (${burst.writeErrors} errors); ${burst.stored} cards stored (at ${
          burst.changesAtMs.map((ms) => ms.toFixed(0)).join(", ")
        } ms); the worker's CPU ${burst.workerCpuMs.toFixed(0)} ms ≈ ${
          (burst.workerCpuMs / renderCpuMs).toFixed(1)
        } renders; final card stored ${
          burst.staleMs.toFixed(0)
        } ms after the last write, ${
          burst.current ? "current (304)" : "NOT current"
        }`,
      );
    }
    return { renderCpuMs, bursts };
  });
}

/**
 * The memory phase: `MEMORY_CARDS` new tickets, their cards drawn
 * on the write ({@linkcode MEMORY_CARDS_IN_FLIGHT} tourists at a time, each
 * waiting for its card), then every one of those cards asked for, while
 * wrk reads the route page at full load; the service's RSS sampled every
 * 100 ms.
 */
export async function measureMemory(
  bench: Bench,
): Promise<MemoryPhase | undefined> {
  if (!wanted(bench.options, "memory")) return undefined;
  const { service, memoryCodes } = bench;
  const pid = service.process.child.pid;
  console.info(
    `Memory: ${memoryCodes.length} new tickets (their cards drawn on the write, ${MEMORY_CARDS_IN_FLIGHT} at a time), then their cards asked for, while the route page is read...`,
  );
  const before = await readMemory(pid);
  let peakSampled = before.rssMiB;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakSampled = Math.max(peakSampled, (await readMemory(pid)).rssMiB);
      await sleep(100);
    }
  })();
  const { result, reads } = await withServiceKv(
    bench,
    (kv) =>
      underPageLoad(bench, async () => {
        const draws = await drawByWrites(bench, kv, {
          codes: memoryCodes,
          lanes: MEMORY_CARDS_IN_FLIGHT,
        });
        const started = performance.now();
        let next = 0;
        let cardErrors = 0;
        await Promise.all(
          Array.from({ length: MEMORY_CARDS_IN_FLIGHT }, async () => {
            while (next < memoryCodes.length) {
              const code = memoryCodes[next++];
              try {
                const card = await fetchCard(service.url, code, {
                  forwarded: true,
                });
                if (card.status !== 200) cardErrors++;
              } catch {
                cardErrors++;
              }
            }
          }),
        );
        return {
          draws,
          cardErrors,
          cardSeconds: (performance.now() - started) / 1000,
        };
      }),
  );
  sampling = false;
  await sampler;
  const end = await readMemory(pid);
  const phase: MemoryPhase = {
    startMiB: service.startMemory.rssMiB,
    beforeMiB: before.rssMiB,
    peakSampledMiB: peakSampled,
    hwmMiB: end.hwmMiB,
    endMiB: end.rssMiB,
    draws: result.draws,
    cardReads: memoryCodes.length,
    cardErrors: result.cardErrors,
    cardSeconds: result.cardSeconds,
    reads,
  };
  console.info(
    `  ${result.draws.drawn} of ${result.draws.tickets} cards drawn on the write in ${
      result.draws.seconds.toFixed(1)
    } s (${result.draws.errors} ticket errors); ${memoryCodes.length} cards read in ${
      result.cardSeconds.toFixed(1)
    } s (${result.cardErrors} errors); RSS ${before.rssMiB.toFixed(0)} → peak ${
      peakSampled.toFixed(0)
    } MiB (VmHWM ${end.hwmMiB.toFixed(0)}), ${
      end.rssMiB.toFixed(0)
    } at the end; route page meanwhile ${reads.rps.toFixed(0)} req/s, p99 ${
      reads.p99Ms.toFixed(1)
    } ms`,
  );
  return phase;
}
