/**
 * Share cards rendered by a small pool of Web Workers, with the same
 * `renderShareCard(card)` signature as card.ts. A render is 60-150 ms of
 * synchronous work (satori layout, resvg rasterising, deflate) that never
 * yields: on the main thread it stalls every other request of the process for
 * that long (measured: /healthz p99 went from ~1 ms to the render time while
 * cards rendered; see docs/PERFORMANCE.md). In a worker the main thread keeps
 * answering while the card is drawn.
 *
 * Bounded: at most `size` renders at once, at most `maxQueue` waiting (past
 * that a 503 with Retry-After), each render at most `timeoutMs` (a stuck
 * worker is replaced). Where workers cannot start, cards render in process.
 */
import { HttpError } from "../errors.ts";
import { renderShareCard as renderInProcess, type ShareCard } from "./card.ts";
import type { RenderRequest, RenderResponse } from "./worker.ts";

/** Options of a {@linkcode RenderPool}. */
export interface RenderPoolOptions {
  /**
   * Workers rendering at once; default: cores - 1, at least 1, at most 2
   * (each worker holds its own copy of satori, resvg and the fonts: about
   * 250 MiB once it has rendered a few cards).
   */
  size?: number;
  /** Renders that may wait for a worker; more are refused with a 503. */
  maxQueue?: number;
  /** The longest one render may take before its worker is replaced. */
  timeoutMs?: number;
}

/** What the pool is doing, for tests and the benchmark. */
export interface RenderPoolStats {
  workers: number;
  busy: number;
  queued: number;
  rendered: number;
  /** Renders done on the main thread because no worker could start. */
  inProcess: number;
}

interface Job {
  card: ShareCard;
  resolve: (png: Uint8Array) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  /** Set once the worker has loaded its modules (the timeout counts renders only). */
  ready: boolean;
  startTimer?: ReturnType<typeof setTimeout>;
  job?: Job & { id: number; timer: ReturnType<typeof setTimeout> };
}

/** A worker that has not loaded its modules by then is replaced. */
const START_TIMEOUT_MS = 60_000;

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/** Thrown when more renders wait than the pool accepts. */
export class RenderQueueFullError extends HttpError {
  override name = "RenderQueueFullError";
  constructor() {
    super(
      503,
      "Servicio no disponible",
      "Hay muchas imágenes en preparación; inténtalo de nuevo en unos segundos",
      { headers: { "Retry-After": "5" } },
    );
  }
}

/** Thrown when a render took longer than the pool allows. */
export class RenderTimeoutError extends HttpError {
  override name = "RenderTimeoutError";
  constructor() {
    super(
      503,
      "Servicio no disponible",
      "La imagen tardó demasiado en prepararse; inténtalo de nuevo",
      { headers: { "Retry-After": "5" } },
    );
  }
}

/** Workers that render share cards, started on first use. */
export class RenderPool {
  readonly size: number;
  readonly maxQueue: number;
  readonly timeoutMs: number;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #rendered = 0;
  #inProcess = 0;
  #workersFailed = false;
  #closed = false;

  constructor(options: RenderPoolOptions = {}) {
    const cores = navigator.hardwareConcurrency || 1;
    this.size = options.size ?? Math.max(1, Math.min(2, cores - 1));
    this.maxQueue = options.maxQueue ?? 64;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    if (!Number.isInteger(this.size) || this.size < 1) {
      throw new RangeError("size must be a positive integer");
    }
  }

  /** Renders `card` as a 1200x630 PNG in a worker. */
  render(card: ShareCard): Promise<Uint8Array> {
    if (this.#closed) {
      return Promise.reject(new Error("The render pool is closed"));
    }
    if (this.#workersFailed) {
      this.#inProcess++;
      return renderInProcess(card);
    }
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
      busy: this.#slots.filter((slot) => slot.job).length,
      queued: this.#queue.length,
      rendered: this.#rendered,
      inProcess: this.#inProcess,
    };
  }

  /** Stops every worker; waiting and running renders are rejected. */
  close(): void {
    this.#closed = true;
    const error = new Error("The render pool is closed");
    for (const slot of this.#slots) this.#retire(slot, error);
    for (const job of this.#queue.splice(0)) job.reject(error);
  }

  #dispatch(): void {
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
      const id = this.#nextId++;
      const timer = setTimeout(
        () => this.#retire(slot, new RenderTimeoutError()),
        this.timeoutMs,
      );
      slot.job = { ...job, id, timer };
      slot.worker.postMessage({ id, card: job.card } satisfies RenderRequest);
    }
  }

  #spawn(): void {
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL.href, { type: "module" });
    } catch (error) {
      // A platform without workers: render in process from now on.
      console.warn("Share cards render in process (no workers):", error);
      this.#workersFailed = true;
      for (const job of this.#queue.splice(0)) {
        this.#inProcess++;
        renderInProcess(job.card).then(job.resolve, job.reject);
      }
      return;
    }
    const slot: Slot = { worker, ready: false };
    slot.startTimer = setTimeout(
      () => this.#retire(slot, new Error("Share card worker did not start")),
      START_TIMEOUT_MS,
    );
    worker.onmessage = (event: MessageEvent<RenderResponse>) => {
      if ("ready" in event.data) {
        clearTimeout(slot.startTimer);
        slot.ready = true;
        this.#dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== event.data.id) return;
      clearTimeout(job.timer);
      slot.job = undefined;
      if ("png" in event.data) {
        this.#rendered++;
        job.resolve(event.data.png);
      } else {
        job.reject(new Error(`Share card render failed: ${event.data.error}`));
      }
      this.#dispatch();
    };
    worker.onerror = (event) => {
      // Handled here, or the worker's error would end the whole process.
      event.preventDefault();
      this.#retire(
        slot,
        new Error(`Share card worker failed: ${event.message}`),
      );
    };
    this.#slots.push(slot);
  }

  /** Stops a worker, failing its render; the next dispatch starts a fresh one. */
  #retire(slot: Slot, error: unknown): void {
    clearTimeout(slot.startTimer);
    slot.worker.terminate();
    this.#slots = this.#slots.filter((s) => s !== slot);
    if (slot.job) {
      clearTimeout(slot.job.timer);
      slot.job.reject(error);
      slot.job = undefined;
    }
    if (!slot.ready && this.#slots.length === 0) {
      // It never started: fail what waits rather than respawn in a loop.
      for (const job of this.#queue.splice(0)) job.reject(error);
    }
    if (!this.#closed) this.#dispatch();
  }
}

let shared: RenderPool | undefined;

/**
 * Renders the share card as a 1200x630 PNG in the process's shared worker
 * pool: a drop-in for card.ts's `renderShareCard`.
 */
export function renderShareCard(card: ShareCard): Promise<Uint8Array> {
  shared ??= new RenderPool();
  return shared.render(card);
}

/** Stops the shared pool's workers (tests, shutdown); the next render starts new ones. */
export function closeSharedRenderPool(): void {
  shared?.close();
  shared = undefined;
}
