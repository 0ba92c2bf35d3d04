/**
 * Uploads processed in one `node:worker_threads` worker, as the share
 * cards are (lib/og/pool.ts): decoding, resizing and encoding a phone photo
 * is 1-3 s of WebAssembly that never yields, which on the main thread would
 * stall every other request of the instance for that long.
 *
 * Bounded: one photo at a time, at most `maxQueue` waiting (past that a 503
 * with Retry-After), each at most `timeoutMs` (its worker is then replaced).
 * The worker starts with the first upload and stops after `idleMs` without
 * one, so an instance that only serves pages holds no codec. Where the
 * platform runs no workers, photos are processed in process, still one at a
 * time. The cheap checks (size, type, declared pixels) run before anything
 * is queued, so a refused file never starts the worker.
 */
import type { Worker } from "node:worker_threads";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";
import {
  checkPhotoUpload,
  type PhotoLimits,
  type PhotoUpload,
  type ProcessedPhoto,
} from "./process.ts";
import { PhotoRefusedError } from "./refusal.ts";
import type { PhotoJobRequest, PhotoJobResponse } from "./worker_protocol.ts";

/** Thrown when more photos wait than the pool takes, or one ran out of time. */
export class PhotoBusyError extends HttpError {
  override name = "PhotoBusyError";
  constructor() {
    super(
      503,
      apiMessage("error.503"),
      { key: "panel_photos.refusal.busy" },
      { retryAfterSeconds: 10, body: { field: "archivo", reason: "busy" } },
    );
  }
}

/** Options of {@linkcode PhotoWorkers}. */
export interface PhotoWorkersOptions {
  /** Photos that may wait; more are refused with a 503 (default 4). */
  maxQueue?: number;
  /** The longest one photo may take before its worker is replaced (default 60 s). */
  timeoutMs?: number;
  /** A worker with nothing to do for this long is stopped (default 30 s). */
  idleMs?: number;
  /** The worker's V8 heap cap in MiB (the pixels live in WebAssembly memory, outside it). */
  heapMiB?: number;
  /** `false`: process in process (tests of the fallback). */
  useWorkers?: boolean;
  /** The limits every upload is checked against. */
  limits?: PhotoLimits;
}

interface Job {
  upload: PhotoUpload;
  resolve: (photo: ProcessedPhoto) => void;
  reject: (error: unknown) => void;
}

const WORKER_URL = new URL("./worker.ts", import.meta.url);

/** The photo worker and its queue; `close()` stops it. */
export class PhotoWorkers {
  readonly maxQueue: number;
  readonly timeoutMs: number;
  readonly idleMs: number;
  readonly heapMiB: number;
  readonly limits: PhotoLimits;
  #useWorkers: boolean;
  #worker?: Worker;
  #ready = false;
  #queue: Job[] = [];
  #running?: Job & { id: number; timer?: ReturnType<typeof setTimeout> };
  #idleTimer?: ReturnType<typeof setTimeout>;
  /** Set while a worker starts: keeps the process alive, and gives up on a worker that never gets ready. */
  #startTimer?: ReturnType<typeof setTimeout>;
  #nextId = 1;
  #closed = false;
  /** Photos processed, in a worker and in process. */
  processed = 0;

  constructor(options: PhotoWorkersOptions = {}) {
    this.maxQueue = options.maxQueue ?? 4;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.idleMs = options.idleMs ?? 30_000;
    this.heapMiB = options.heapMiB ?? 96;
    this.limits = options.limits ?? {};
    this.#useWorkers = options.useWorkers ?? true;
  }

  /**
   * Checks `upload` at once (a {@linkcode PhotoRefusedError} before any
   * queue), then processes it in the worker.
   */
  process(upload: PhotoUpload): Promise<ProcessedPhoto> {
    if (this.#closed) return Promise.reject(new Error("Photo pool closed"));
    try {
      checkPhotoUpload(upload, this.limits);
    } catch (error) {
      return Promise.reject(error);
    }
    const waiting = this.#queue.length + (this.#running ? 1 : 0);
    if (waiting > this.maxQueue) return Promise.reject(new PhotoBusyError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ upload, resolve, reject });
      this.#next();
    });
  }

  /** Stops the worker; waiting photos are refused. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    const error = new Error("Photo pool closed");
    if (this.#running) {
      clearTimeout(this.#running.timer);
      this.#running.reject(error);
      this.#running = undefined;
    }
    for (const job of this.#queue.splice(0)) job.reject(error);
    this.#stopWorker();
  }

  #next(): void {
    if (this.#running || this.#queue.length === 0 || this.#closed) {
      if (!this.#running && this.#queue.length === 0) this.#stopWhenIdle();
      return;
    }
    clearTimeout(this.#idleTimer);
    if (!this.#useWorkers) {
      const job = this.#queue.shift()!;
      this.#running = { ...job, id: 0 };
      this.#processInProcess(job.upload).then(job.resolve, job.reject)
        .finally(() => {
          this.#running = undefined;
          this.#next();
        });
      return;
    }
    if (!this.#worker) {
      this.#startWorker();
      return;
    }
    if (!this.#ready) return;
    const job = this.#queue.shift()!;
    const id = this.#nextId++;
    this.#running = {
      ...job,
      id,
      timer: setTimeout(() => this.#timedOut(), this.timeoutMs),
    };
    this.#worker.postMessage(
      { id, upload: job.upload, limits: this.limits } satisfies PhotoJobRequest,
    );
  }

  async #processInProcess(upload: PhotoUpload): Promise<ProcessedPhoto> {
    const { processPhoto } = await import("./process.ts");
    const photo = await processPhoto(upload, this.limits);
    this.processed++;
    return photo;
  }

  async #startWorker(): Promise<void> {
    let threads: typeof import("node:worker_threads");
    let worker: Worker;
    try {
      threads = await import("node:worker_threads");
      worker = new threads.Worker(WORKER_URL, {
        resourceLimits: { maxOldGenerationSizeMb: this.heapMiB },
      });
    } catch (error) {
      console.warn("Photos are processed in process (no workers here):", error);
      this.#useWorkers = false;
      this.#next();
      return;
    }
    this.#worker = worker;
    this.#ready = false;
    this.#startTimer = setTimeout(() => {
      console.warn(
        "Photo worker did not start; photos are processed in process",
      );
      this.#stopWorker();
      this.#useWorkers = false;
      this.#next();
    }, this.timeoutMs);
    worker.on("message", (message: PhotoJobResponse) => {
      if ("ready" in message) {
        clearTimeout(this.#startTimer);
        this.#ready = true;
        this.#next();
        return;
      }
      const job = this.#running;
      if (!job || job.id !== message.id) return;
      clearTimeout(job.timer);
      this.#running = undefined;
      if ("photo" in message) {
        this.processed++;
        job.resolve(message.photo);
      } else if ("refusal" in message) {
        job.reject(
          new PhotoRefusedError(message.refusal.reason, message.refusal.values),
        );
      } else {
        // A codec that threw on a file its header check let through.
        console.warn(`Photo processing failed: ${message.error}`);
        job.reject(new PhotoRefusedError("corrupt"));
      }
      this.#next();
    });
    const failed = (why: string) => {
      if (this.#worker !== worker) return;
      clearTimeout(this.#startTimer);
      this.#worker = undefined;
      this.#ready = false;
      const job = this.#running;
      this.#running = undefined;
      if (job) {
        clearTimeout(job.timer);
        // Out of memory, most likely: said as busy (503), never a 500.
        console.warn(`Photo worker failed: ${why}`);
        job.reject(new PhotoBusyError());
      }
      this.#next();
    };
    worker.on("error", (error: Error) => failed(error.message));
    worker.on("exit", (code: number) => failed(`exited (code ${code})`));
    worker.unref();
  }

  #timedOut(): void {
    const job = this.#running;
    this.#running = undefined;
    this.#stopWorker();
    job?.reject(new PhotoBusyError());
    this.#next();
  }

  #stopWhenIdle(): void {
    if (!this.#worker) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#stopWorker(), this.idleMs);
    Deno.unrefTimer(this.#idleTimer);
  }

  #stopWorker(): void {
    clearTimeout(this.#startTimer);
    const worker = this.#worker;
    this.#worker = undefined;
    this.#ready = false;
    worker?.terminate().catch(() => {});
  }
}
