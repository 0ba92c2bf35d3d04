/**
 * Share cards rendered by a small pool of workers: `pool.render(card)`
 * gives the bytes render_card.ts's `renderCard` does (a route's card or a
 * public page's). A render is 30-150 ms of
 * synchronous work (satori layout, resvg rasterising, deflate) that never
 * yields: on the main thread it stalls every other request of the process for
 * that long (measured: /healthz p99 went from ~1 ms to the render time while
 * cards rendered; see docs/PERFORMANCE.md). In a worker the main thread keeps
 * answering while the card is drawn.
 *
 * Bounded: at most `size` renders at once, at most `maxQueue` waiting (past
 * that a 503 with Retry-After), each render at most `timeoutMs` of its
 * worker's CPU time and `maxWaitMs` of wall time (a stuck worker is
 * replaced), and each worker's heap capped (`node:worker_threads`'
 * `resourceLimits`, which Web Workers lack): V8 grows a busy heap lazily, to
 * 100+ MiB when allowed, while a render keeps under 30 MiB alive. Resilient:
 * a worker that dies (out of memory included) is replaced and its card tried
 * once more in a fresh one, then in process. Where workers fail three
 * times in a row (not starting in time, or dying), cards render in process
 * for `retryWorkersAfterMs`, then a worker is tried again: a machine too
 * busy for a minute does not lose its workers for the process's life. Where
 * the platform has no workers at all, cards always render in process.
 */
import type { Worker } from "node:worker_threads";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";
import type { AnyCard } from "./card_types.ts";
import { readThreadCpuMs } from "./thread_cpu.ts";
import type {
  RenderRequest,
  RenderResponse,
  WorkerOptions,
} from "./worker_protocol.ts";

/** Options of a {@linkcode RenderPool}. */
export interface RenderPoolOptions {
  /**
   * Workers rendering at once; default 1, which renders about 20 cards a
   * second: a worker holds its own copy of satori, resvg and the fonts
   * (60-100 MiB of RSS under its heap cap), and memory, not cores, is what
   * a small instance runs out of. `RENDER_WORKERS` sets it.
   */
  size?: number;
  /** Each worker's V8 heap cap in MiB (old generation; default 64). */
  heapMiB?: number;
  /** Renders that may wait for a worker; more are refused with a 503. */
  maxQueue?: number;
  /**
   * The CPU time one render may take before its worker is taken for stuck
   * and replaced (default 15 s; a card takes 30-150 ms). It is the worker
   * thread's CPU time where the platform tells it (Linux, thread_cpu.ts),
   * wall time elsewhere: a worker at its lower priority on a busy machine
   * may wait seconds for a core without being stuck, and replacing it
   * would throw away its warmed-up pipeline.
   */
  timeoutMs?: number;
  /**
   * The longest a card waits for the worker that took it, however little
   * CPU time that worker got (a machine too busy to draw it, or a worker
   * stuck without running); then a 503 and the worker is replaced.
   * Default four times `timeoutMs`.
   */
  maxWaitMs?: number;
  /** The worker module; tests pass one that fails. */
  workerUrl?: URL;
  /**
   * After three worker failures in a row, how long cards render in process
   * before a worker is tried again (default
   * {@linkcode DEFAULT_RETRY_WORKERS_AFTER_MS}).
   */
  retryWorkersAfterMs?: number;
  /**
   * A worker with nothing to do for this long is stopped, giving its memory
   * back (default {@linkcode DEFAULT_IDLE_MS}); the next card starts a fresh
   * one (about a second of CPU before its first render).
   */
  idleMs?: number;
  /**
   * When the first worker starts (`RENDER_WORKER_START`): `first-card`
   * (the default: when a card is to be drawn, for a write or a request;
   * nothing held until then, and that card waits for the worker's start),
   * `first-page` ({@linkcode WARM_DELAY_MS} after the process serves its
   * first page, since pages link cards; see {@linkcode pageServed}) or `boot`
   * ({@linkcode WARM_DELAY_MS} after the pool is made, at the service's
   * start). A worker started ahead renders a warm-up card before it takes
   * work, so the first real card is drawn by a warm worker; a card asked
   * for before that starts one at once, as with `first-card`.
   */
  start?: RenderWorkerStart;
}

/** When a pool starts its first worker; see {@linkcode RenderPoolOptions.start}. */
export type RenderWorkerStart = "first-card" | "first-page" | "boot";

/** What the pool is doing, for tests and the benchmark. */
export interface RenderPoolStats {
  workers: number;
  /** Workers that have loaded the pipeline (and warmed up, when started ahead). */
  ready: number;
  busy: number;
  queued: number;
  rendered: number;
  /** Renders done on the main thread: workers failed, or cannot run here. */
  inProcess: number;
}

interface Job {
  card: AnyCard;
  resolve: (png: Uint8Array) => void;
  reject: (error: unknown) => void;
  /** Set once a worker died with this card: the next failure renders it in process. */
  retried?: boolean;
}

interface Slot {
  worker: Worker;
  /** Set once the pool has stopped it (its exit is then expected). */
  retired?: boolean;
  /** Stops the worker when it has been idle for `idleMs`. */
  idleTimer?: ReturnType<typeof setTimeout>;
  /** Set once the worker has loaded its modules (the timeout counts renders only). */
  ready: boolean;
  /** The worker's thread, whose CPU time a render's timeout counts, where known. */
  threadId?: number;
  startTimer?: ReturnType<typeof setTimeout>;
  job?: RunningJob;
}

interface RunningJob extends Job {
  id: number;
  /** Checks the render's CPU time and wait (see `#checkRender`). */
  timer: ReturnType<typeof setTimeout>;
  /** `performance.now()` when the worker took the card. */
  dispatchedAt: number;
  /** The worker thread's CPU time then, where known. */
  cpuMsAtDispatch?: number;
}

/**
 * How long after its cue (the first page, the start) a worker starts ahead
 * of any card: the requests of that moment (the page's styles, scripts and
 * fonts; the request that started the instance) are answered first.
 */
export const WARM_DELAY_MS = 500;

/**
 * How long a worker with nothing to do is kept by default: cards are drawn
 * when routes change, in bursts a few seconds apart while a tourist checks
 * in; an instance idle for a minute holds no renderer.
 */
export const DEFAULT_IDLE_MS = 20_000;

/**
 * How long cards render in process after workers failed three times in a
 * row, before a worker is tried again.
 */
export const DEFAULT_RETRY_WORKERS_AFTER_MS = 120_000;

/** A worker's young generation in MiB: small, so garbage is swept often. */
const YOUNG_GENERATION_MIB = 4;
/** A worker that has not loaded its modules by then is replaced. */
const START_TIMEOUT_MS = 60_000;
/** Workers failing in a row (not starting, or dying) after which cards render in process. */
const MAX_WORKER_FAILURES = 3;
/** A render with less than this left of its CPU time or its wait is stopped rather than checked again. */
const MIN_RECHECK_MS = 50;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/** Thrown when more renders wait than the pool accepts. */
export class RenderQueueFullError extends HttpError {
  override name = "RenderQueueFullError";
  constructor() {
    super(
      503,
      apiMessage("error.503"),
      apiMessage("details.cardsBusy"),
      { retryAfterSeconds: 5 },
    );
  }
}

/** Thrown when a render took longer than the pool allows. */
export class RenderTimeoutError extends HttpError {
  override name = "RenderTimeoutError";
  constructor() {
    super(
      503,
      apiMessage("error.503"),
      apiMessage("details.cardTimeout"),
      { retryAfterSeconds: 5 },
    );
  }
}

/** Workers that render share cards, started on first use. */
export class RenderPool {
  readonly size: number;
  readonly heapMiB: number;
  readonly maxQueue: number;
  readonly timeoutMs: number;
  readonly maxWaitMs: number;
  readonly idleMs: number;
  readonly retryWorkersAfterMs: number;
  readonly start: RenderWorkerStart;
  /** Whether a worker was started ahead of a card (at most once per process). */
  #warmed = false;
  #warmTimer?: ReturnType<typeof setTimeout>;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #rendered = 0;
  #inProcess = 0;
  /** Set where the platform cannot run workers at all: for good. */
  #noWorkers = false;
  /** Until then (`performance.now()`), cards render in process: workers kept failing. */
  #inProcessUntil = 0;
  #failuresInARow = 0;
  #closed = false;
  readonly #workerUrl: URL;
  /** `node:worker_threads`, imported with the first card (not at start). */
  #workerThreads?: typeof import("node:worker_threads");
  #loadingWorkerThreads?: Promise<void>;

  constructor(options: RenderPoolOptions = {}) {
    this.#workerUrl = options.workerUrl ?? WORKER_URL;
    this.size = options.size ?? 1;
    this.heapMiB = options.heapMiB ?? 64;
    this.maxQueue = options.maxQueue ?? 64;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxWaitMs = options.maxWaitMs ?? 4 * this.timeoutMs;
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.retryWorkersAfterMs = options.retryWorkersAfterMs ??
      DEFAULT_RETRY_WORKERS_AFTER_MS;
    this.start = options.start ?? "first-card";
    if (!Number.isInteger(this.size) || this.size < 1) {
      throw new RangeError("size must be a positive integer");
    }
    if (this.start === "boot") this.#warmSoon();
  }

  /**
   * Tells the pool the process served a page (pages link cards, which a
   * link preview asks for, and a tourist shares the page they just saw):
   * with `start: "first-page"`, the first time, a worker starts ahead.
   */
  pageServed(): void {
    if (this.start === "first-page") this.#warmSoon();
  }

  /**
   * Starts a worker ahead of any card, once per process: it loads the
   * render pipeline and draws a warm-up card (fonts parsed, WebAssembly and
   * JavaScript compiled) at its lower priority, then waits for work; with
   * none, it stops after `idleMs` like any idle worker.
   */
  warm(): void {
    clearTimeout(this.#warmTimer);
    if (this.#warmed || this.#closed || this.#renderingInProcess()) return;
    this.#warmed = true;
    if (this.#slots.length === 0) this.#spawn({ warmUp: true });
  }

  /** {@linkcode warm} after {@linkcode WARM_DELAY_MS}, once; the timer keeps no process alive. */
  #warmSoon(): void {
    if (this.#warmed || this.#warmTimer !== undefined) return;
    this.#warmTimer = setTimeout(() => this.warm(), WARM_DELAY_MS);
    Deno.unrefTimer(this.#warmTimer);
  }

  /** Renders `card` (a route's or a page's) as a 1200x630 PNG in a worker. */
  render(card: AnyCard): Promise<Uint8Array> {
    if (this.#closed) {
      return Promise.reject(new Error("The render pool is closed"));
    }
    if (this.#renderingInProcess()) return this.#renderInProcess(card);
    if (this.#queue.length >= this.maxQueue) {
      return Promise.reject(new RenderQueueFullError());
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ card, resolve, reject });
      this.#dispatch();
    });
  }

  get stats(): RenderPoolStats {
    return {
      workers: this.#slots.length,
      ready: this.#slots.filter((slot) => slot.ready).length,
      busy: this.#slots.filter((slot) => slot.job).length,
      queued: this.#queue.length,
      rendered: this.#rendered,
      inProcess: this.#inProcess,
    };
  }

  /** {@linkcode close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** Stops every worker; waiting and running renders are rejected. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#warmTimer);
    const error = new Error("The render pool is closed");
    for (const slot of this.#slots) this.#retire(slot, error);
    for (const job of this.#queue.splice(0)) job.reject(error);
  }

  #dispatch(): void {
    if (this.#queue.length === 0) this.#stopWhenIdle();
    while (this.#queue.length > 0) {
      const slot = this.#slots.find((s) => s.ready && !s.job);
      if (!slot) {
        // Workers still starting take the queue when they are ready.
        const starting = this.#slots.filter((s) => !s.ready).length;
        if (this.#slots.length < this.size && starting < this.#queue.length) {
          this.#spawn();
        }
        return;
      }
      const job = this.#queue.shift()!;
      clearTimeout(slot.idleTimer);
      const id = this.#nextId++;
      slot.job = {
        ...job,
        id,
        timer: setTimeout(() => this.#checkRender(slot), this.timeoutMs),
        dispatchedAt: performance.now(),
        cpuMsAtDispatch: slot.threadId === undefined
          ? undefined
          : readThreadCpuMs(slot.threadId),
      };
      slot.worker.postMessage({ id, card: job.card } satisfies RenderRequest);
    }
  }

  /**
   * A render still running `timeoutMs` after its worker took it: stuck if
   * its worker used that much CPU time (or its CPU time cannot be told
   * from a wait) or once it has waited `maxWaitMs`; else checked again
   * when the CPU time left could be used up.
   */
  #checkRender(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    const { cpuMsAtDispatch, dispatchedAt } = job;
    const cpuMsNow = slot.threadId === undefined
      ? undefined
      : readThreadCpuMs(slot.threadId);
    const cpuLeft = cpuMsAtDispatch === undefined || cpuMsNow === undefined
      ? 0
      : this.timeoutMs - (cpuMsNow - cpuMsAtDispatch);
    const waitLeft = this.maxWaitMs - (performance.now() - dispatchedAt);
    if (cpuLeft < MIN_RECHECK_MS || waitLeft < MIN_RECHECK_MS) {
      this.#retire(slot, new RenderTimeoutError());
      return;
    }
    job.timer = setTimeout(
      () => this.#checkRender(slot),
      Math.min(cpuLeft, waitLeft),
    );
  }

  /** Arms the idle timer of every free worker (a new job disarms it). */
  #stopWhenIdle(): void {
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job) continue;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = setTimeout(() => this.#stopIdle(slot), this.idleMs);
      Deno.unrefTimer(slot.idleTimer);
    }
  }

  /** Stops a worker that had nothing to do: no failure, nothing to retry. */
  #stopIdle(slot: Slot): void {
    if (slot.retired || slot.job) return;
    slot.retired = true;
    slot.worker.terminate().catch(() => {});
    this.#slots = this.#slots.filter((s) => s !== slot);
  }

  async #renderInProcess(card: AnyCard): Promise<Uint8Array> {
    this.#inProcess++;
    // Loaded only here: the main thread keeps no copy of satori and resvg.
    const { renderCard } = await import("./render_card.ts");
    return await renderCard(card);
  }

  /** Whether cards render on the main thread now, instead of in workers. */
  #renderingInProcess(): boolean {
    return this.#noWorkers || performance.now() < this.#inProcessUntil;
  }

  /**
   * Cards render on the main thread: for good where the platform has no
   * workers (`forGood`), else for `retryWorkersAfterMs`; after that, one
   * more failure starts another such pause, and a render resets the count.
   */
  #giveUpWorkers(reason: unknown, { forGood = false } = {}): void {
    if (forGood) this.#noWorkers = true;
    else {
      this.#inProcessUntil = performance.now() + this.retryWorkersAfterMs;
      this.#failuresInARow = MAX_WORKER_FAILURES - 1;
    }
    console.warn(
      forGood
        ? "Share cards render in process (workers cannot run here):"
        : `Share cards render in process for ${
          Math.round(this.retryWorkersAfterMs / 1000)
        } s (workers failed ${MAX_WORKER_FAILURES} times in a row):`,
      reason,
    );
    for (const job of this.#queue.splice(0)) {
      this.#renderInProcess(job.card).then(job.resolve, job.reject);
    }
  }

  /**
   * Starts a worker, once `node:worker_threads` is loaded (the first time,
   * it is imported and the queue dispatched again).
   */
  #spawn({ warmUp = false }: { warmUp?: boolean } = {}): void {
    const threads = this.#workerThreads;
    if (!threads) {
      this.#loadingWorkerThreads ??= import("node:worker_threads").then(
        (module) => {
          this.#workerThreads = module;
          if (this.#closed) return;
          if (warmUp && this.#slots.length === 0) this.#spawn({ warmUp });
          else this.#dispatch();
        },
        (error) => this.#giveUpWorkers(error, { forGood: true }),
      );
      return;
    }
    let worker: Worker;
    try {
      worker = new threads.Worker(this.#workerUrl, {
        workerData: { warmUp } satisfies WorkerOptions,
        resourceLimits: {
          maxOldGenerationSizeMb: this.heapMiB,
          maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB,
        },
      });
    } catch (error) {
      // A platform without workers.
      this.#giveUpWorkers(error, { forGood: true });
      return;
    }
    const slot: Slot = { worker, ready: false };
    slot.startTimer = setTimeout(
      () => this.#retire(slot, new Error("Share card worker did not start")),
      START_TIMEOUT_MS,
    );
    worker.on("message", (message: RenderResponse) => {
      if ("ready" in message) {
        clearTimeout(slot.startTimer);
        slot.ready = true;
        slot.threadId = message.threadId;
        this.#dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      clearTimeout(job.timer);
      slot.job = undefined;
      if ("png" in message) {
        this.#rendered++;
        this.#failuresInARow = 0;
        job.resolve(message.png);
      } else {
        job.reject(new Error(`Share card render failed: ${message.error}`));
      }
      this.#dispatch();
    });
    // An uncaught error in the worker, out of memory included: it has ended.
    worker.on("error", (error: Error) => {
      if (slot.retired) return;
      this.#retire(
        slot,
        new Error(`Share card worker failed: ${error.message}`),
        { died: true },
      );
    });
    worker.on("exit", (code: number) => {
      if (slot.retired) return;
      this.#retire(
        slot,
        new Error(`Share card worker exited (code ${code})`),
        { died: true },
      );
    });
    // The pool's own timers keep the process alive while it works.
    worker.unref();
    this.#slots.push(slot);
  }

  /**
   * Stops a worker; the next dispatch starts a fresh one. Its render fails
   * with `error` after a timeout; when the worker died, the card is tried
   * once more (queued first), then rendered in process.
   */
  #retire(slot: Slot, error: unknown, { died = false } = {}): void {
    if (slot.retired) return;
    slot.retired = true;
    clearTimeout(slot.startTimer);
    clearTimeout(slot.idleTimer);
    slot.worker.terminate().catch(() => {});
    this.#slots = this.#slots.filter((s) => s !== slot);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      const { card, resolve, reject, retried } = job;
      if (!died || this.#closed) reject(error);
      else if (retried) this.#renderInProcess(card).then(resolve, reject);
      else {
        console.warn(`${(error as Error).message}; trying the card again`);
        this.#queue.unshift({ card, resolve, reject, retried: true });
      }
    }
    if (this.#closed) return;
    if (
      (died || !slot.ready) && ++this.#failuresInARow >= MAX_WORKER_FAILURES
    ) {
      this.#giveUpWorkers(error);
      return;
    }
    this.#dispatch();
  }
}
