import QuickLRU from "quick-lru";
import type { RateLimitResult } from "@/lib/db/rate_limits.ts";

/** One subject's counts in the current and the previous fixed window. */
interface Counts {
  bucket: number;
  current: number;
  previous: number;
}

export interface SlidingWindowOptions {
  /** Hits allowed per window and subject. */
  limit: number;
  windowMs: number;
  /** The clock (the app's, so tests can move it). */
  now: () => number;
  /** Subjects remembered at once, at most (default 50,000); the least recently hit go first. */
  maxSubjects?: number;
}

/**
 * A per-instance sliding-window limit: the previous fixed window's count,
 * weighted by the part of it still inside the sliding window, plus the
 * current one's (the usual approximation). Synchronous and O(1) per hit,
 * whatever the number of subjects: no KV, no timer. Refused hits are not
 * counted. Memory is bounded by `maxSubjects` (about 100 bytes each); a
 * subject idle for two windows counts nothing and is forgotten first.
 *
 * Each instance counts alone, so N instances allow a subject about N times
 * the limit: right for a coarse abuse budget, wrong for an exact limit (the
 * chat's 20 a minute and the guide-code limits stay in KV).
 *
 * The subjects are in `quick-lru` (two generations of `Map`s: a hit
 * finds its subject in the new one or moves it there from the old one,
 * and a full new one becomes the old one, dropping the old), which is O(1)
 * per hit. A single `Map` in last-hit order whose oldest key is dropped by
 * `keys().next()` is not: V8 leaves each deleted entry as a hole that a
 * new iterator walks past again until the table is rebuilt, so with 50,000
 * addresses each hit cost 25-30 µs and halved the pages' throughput under
 * a flood of addresses. Nor `lru-cache`, as the other caches: this limiter
 * is built at start for the app's core, and importing lru-cache starts
 * Deno's Node layer (its Node build reads `node:diagnostics_channel`).
 */
export class SlidingWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #subjects: QuickLRU<string, Counts>;

  constructor(
    { limit, windowMs, now, maxSubjects = 50_000 }: SlidingWindowOptions,
  ) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError("limit must be a positive integer");
    }
    if (!(windowMs > 0)) throw new RangeError("windowMs must be positive");
    this.limit = limit;
    this.windowMs = windowMs;
    this.#now = now;
    // Each of quick-lru's two generations holds up to maxSize.
    this.#subjects = new QuickLRU({
      maxSize: Math.max(1, Math.floor(maxSubjects / 2)),
    });
  }

  /**
   * Counts a hit of `subject` if the limit allows it, and says whether it
   * did. With `limit`, that many hits a window instead of the limiter's own
   * (a part of it that only some hits may use).
   */
  hit(subject: string, limit: number = this.limit): RateLimitResult {
    const now = this.#now();
    const counts = this.#counts(subject, now);
    this.#remember(subject, counts);
    const estimate = this.#estimate(counts, now);
    if (estimate + 1 > limit) {
      return {
        allowed: false,
        retryAfterMs: this.#retryAfter(counts, now, limit),
        remaining: 0,
      };
    }
    counts.current++;
    return {
      allowed: true,
      retryAfterMs: 0,
      remaining: Math.max(0, Math.floor(limit - estimate - 1)),
    };
  }

  /** The sliding-window estimate of `subject`'s hits now. */
  estimate(subject: string): number {
    const now = this.#now();
    return this.#estimate(this.#counts(subject, now), now);
  }

  /** Subjects remembered. */
  get size(): number {
    // quick-lru's own size stops at one generation's bound; count them all.
    let size = 0;
    for (const _ of this.#subjects.keys()) size++;
    return size;
  }

  /** Keeps `subject` as the most recently hit (the least recently hit go first past the bound). */
  #remember(subject: string, counts: Counts): void {
    this.#subjects.set(subject, counts);
  }

  /** The subject's counts, moved on to the window `now` is in. */
  #counts(subject: string, now: number): Counts {
    const bucket = Math.floor(now / this.windowMs);
    const counts = this.#subjects.get(subject) ??
      { bucket, current: 0, previous: 0 };
    if (counts.bucket !== bucket) {
      counts.previous = counts.bucket === bucket - 1 ? counts.current : 0;
      counts.current = 0;
      counts.bucket = bucket;
    }
    return counts;
  }

  #estimate({ bucket, current, previous }: Counts, now: number): number {
    const elapsed = (now - bucket * this.windowMs) / this.windowMs;
    return previous * (1 - elapsed) + current;
  }

  /** How long until one more hit fits, at the rate the estimate decays. */
  #retryAfter(
    { bucket, current, previous }: Counts,
    now: number,
    limit: number,
  ): number {
    const w = this.windowMs;
    const elapsed = (now - bucket * w) / w;
    const room = limit - 1;
    let wait: number;
    if (current <= room && previous > 0) {
      // Within this window, once enough of the previous one has slid out.
      wait = (1 - (room - current) / previous - elapsed) * w;
    } else {
      // In the next window, once enough of this one has slid out.
      wait = (1 - elapsed) * w + Math.max(0, 1 - room / current) * w;
    }
    return Math.min(w, Math.max(1, Math.ceil(wait)));
  }
}
