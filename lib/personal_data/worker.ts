/**
 * The background work of personal data, owned by `openDeps` and stopped by
 * its `close()`: at start, the one-time index backfill, every unfinished
 * erasure (one cut short by a crash) and the retention rule; then a timer
 * that runs the erasures whose retry is due and, once a day, the retention
 * rule again. Every instance runs it; the work is idempotent, so two
 * instances at once only repeat a deletion.
 */
import { listPendingErasures } from "@/lib/db/erasures.ts";
import {
  getUseDay,
  listGuestPassportsUnusedSince,
} from "@/lib/db/passport_activity.ts";
import { backfillPersonalIndexes } from "@/lib/db/personal_indexes.ts";
import { type ErasureDeps, requestErasure, runErasure } from "./erase.ts";

/** How often the timer looks for erasures whose retry is due. */
export const ERASURE_TICK_MS = 5_000;
/** How often the retention rule runs (and once at start). */
export const RETENTION_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * The last day of use that is too old for `months` of retention: a guest
 * passport last used before this day (`YYYY-MM-DD`) is erased.
 */
export function getRetentionCutoffDay(now: Date, months: number): string {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return getUseDay(cutoff);
}

/**
 * Erases every guest passport unused for `months` (recorded, its steps
 * run; each ends once other instances' caches have expired, by the retry
 * schedule). Returns how many erasures it started.
 */
export async function eraseUnusedGuestPassports(
  deps: ErasureDeps,
  { months, signal }: { months: number; signal?: AbortSignal },
): Promise<number> {
  const cutoff = getRetentionCutoffDay(deps.now(), months);
  const seen = new Set<string>();
  let started = 0;
  while (!signal?.aborted) {
    const batch = (await listGuestPassportsUnusedSince(deps.kv, cutoff, {
      limit: 100,
    })).filter(({ userId }) => !seen.has(userId));
    if (batch.length === 0) break;
    for (const { userId } of batch) {
      if (signal?.aborted) break;
      seen.add(userId);
      const erasure = await requestErasure(deps, {
        userId,
        origin: "retention",
      });
      await runErasure(deps, erasure.id, { signal, waitForCaches: false });
      started++;
    }
  }
  if (started > 0) {
    console.info(
      `Retention: erasing ${started} guest passports unused for ${months} months`,
    );
  }
  return started;
}

/** The timer and start-up work; see the module. */
export class PersonalDataWorker {
  readonly #deps: ErasureDeps;
  readonly #months: number;
  readonly #stop = new AbortController();
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #busy = false;
  #lastRetentionAt = 0;

  constructor(
    deps: ErasureDeps,
    { guestPassportRetentionMonths }: { guestPassportRetentionMonths: number },
  ) {
    this.#deps = deps;
    this.#months = guestPassportRetentionMonths;
  }

  /** Starts the start-up work in the background and the timer. */
  start(): void {
    this.#enqueue(async () => {
      await backfillPersonalIndexes(this.#deps.kv, {
        now: this.#deps.now,
        signal: this.#stop.signal,
      });
      await this.runPending({ all: true });
      await this.runRetention();
    });
    this.#timer = setInterval(() => {
      if (this.#busy) return; // The previous tick is still at work.
      this.#enqueue(async () => {
        await this.runPending();
        if (Date.now() - this.#lastRetentionAt >= RETENTION_EVERY_MS) {
          await this.runRetention();
        }
      });
    }, ERASURE_TICK_MS);
  }

  /**
   * Runs the unfinished erasures whose retry is due (`all`: every one, as
   * at start); returns how many it ran.
   */
  async runPending({ all = false }: { all?: boolean } = {}): Promise<number> {
    const erasures = await listPendingErasures(this.#deps.kv, {
      now: this.#deps.now(),
      dueOnly: !all,
    });
    for (const erasure of erasures) {
      if (this.#stop.signal.aborted) break;
      await runErasure(this.#deps, erasure.id, {
        signal: this.#stop.signal,
        waitForCaches: false,
      });
    }
    return erasures.length;
  }

  /** Runs the retention rule now; returns how many erasures it started. */
  async runRetention(): Promise<number> {
    this.#lastRetentionAt = Date.now();
    return await eraseUnusedGuestPassports(this.#deps, {
      months: this.#months,
      signal: this.#stop.signal,
    });
  }

  /** One piece of work after the other: a slow tick never overlaps the next. */
  #enqueue(work: () => Promise<unknown>): void {
    if (this.#stop.signal.aborted) return;
    this.#busy = true;
    this.#running = this.#running.then(work).catch((error) => {
      if (!this.#stop.signal.aborted) {
        console.error("Personal data: background work failed:", error);
      }
    }).finally(() => this.#busy = false);
  }

  /** Stops the timer and waits for the work in flight (it stops between steps). */
  async close(): Promise<void> {
    this.#stop.abort();
    clearInterval(this.#timer);
    await this.#running;
  }
}
