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

/** A slot's numbers in a generation's table: fingerprint (0: empty), window, counts. */
const FINGERPRINT = 0, BUCKET = 1, CURRENT = 2, PREVIOUS = 3, STRIDE = 4;

/**
 * A per-instance sliding-window limit: the previous fixed window's count,
 * weighted by the part of it still inside the sliding window, plus the
 * current one's (the usual approximation). Synchronous and O(1) per hit,
 * whatever the number of subjects: no KV, no timer. Refused hits are not
 * counted. A subject idle for two windows counts nothing and is forgotten
 * first.
 *
 * Each instance counts alone, so N instances allow a subject about N times
 * the limit: right for a coarse abuse budget, wrong for an exact limit (the
 * chat's 20 a minute and the guide-code limits stay in KV).
 *
 * The subjects are kept in two generations of fixed tables of numbers (a
 * `Float64Array` each, open addressing): a hit finds its subject in the new
 * one, or copies it there from the old one, and a full new one becomes the
 * old one, dropping the old. Nothing a hit allocates outlives it, and no
 * subject's text is kept: each is its 53-bit fingerprint, with a seed drawn at start
 * so that no one can aim an address at another's count. Two subjects share
 * a count only if their fingerprints meet, about once in 10^7 tables of
 * 50,000. Memory is fixed by `maxSubjects` (32 bytes a slot, two slots a
 * subject: about 3 MiB at the default, its pages touched as they fill).
 *
 * Under a flood of one-off addresses (a new client every request) a `Map`
 * of subjects, as `quick-lru` keeps them, allocated an entry and an object
 * per new address and dropped a generation of them at a time: old-generation
 * garbage that was 34 MiB of the service's peak in the read rounds
 * (docs/PERFORMANCE.md, "Memory"). A single `Map` in last-hit order
 * dropping its oldest key by `keys().next()` was worse still: V8 walks
 * deleted entries again until the table is rebuilt, 25-30 µs a hit.
 */
export class SlidingWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  /** Subjects a generation holds before it becomes the old one. */
  readonly #perGeneration: number;
  /** Slots of a table, a power of two (at most half of them used). */
  readonly #slots: number;
  #fresh: Float64Array;
  #old: Float64Array;
  #freshCount = 0;
  readonly #seed: number;

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
    this.#perGeneration = Math.max(1, Math.floor(maxSubjects / 2));
    this.#slots = 2 ** Math.ceil(Math.log2(this.#perGeneration * 2));
    this.#fresh = new Float64Array(this.#slots * STRIDE);
    this.#old = new Float64Array(this.#slots * STRIDE);
    this.#seed = crypto.getRandomValues(new Uint32Array(1))[0];
  }

  /**
   * Counts a hit of `subject` if the limit allows it, and says whether it
   * did. With `limit`, that many hits a window instead of the limiter's own
   * (a part of it that only some hits may use).
   */
  hit(subject: string, limit: number = this.limit): RateLimitResult {
    const now = this.#now();
    const counts = this.#counts(subject, now);
    // Kept as recently hit even when refused: a flood of other addresses
    // must not make room for a subject over its limit to start again.
    const at = this.#remember(counts);
    const estimate = this.#estimate(counts, now);
    if (estimate + 1 > limit) {
      return {
        allowed: false,
        retryAfterMs: this.#retryAfter(counts, now, limit),
        remaining: 0,
      };
    }
    this.#fresh[at + CURRENT] = counts.current + 1;
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
    let size = this.#freshCount;
    for (let slot = 0; slot < this.#slots; slot++) {
      const fingerprint = this.#old[slot * STRIDE + FINGERPRINT];
      if (fingerprint !== 0 && this.#find(this.#fresh, fingerprint) < 0) size++;
    }
    return size;
  }

  /**
   * Keeps a subject's counts as the most recently hit (the least recently
   * hit go first past the bound); returns where they are in the new table.
   */
  #remember(counts: Counts & { fingerprint: number }): number {
    let at = this.#find(this.#fresh, counts.fingerprint);
    if (at < 0) {
      if (this.#freshCount >= this.#perGeneration) {
        [this.#old, this.#fresh] = [this.#fresh, this.#old];
        this.#fresh.fill(0);
        this.#freshCount = 0;
      }
      at = ~this.#find(this.#fresh, counts.fingerprint);
      this.#fresh[at + FINGERPRINT] = counts.fingerprint;
      this.#freshCount++;
    }
    this.#fresh[at + BUCKET] = counts.bucket;
    this.#fresh[at + CURRENT] = counts.current;
    this.#fresh[at + PREVIOUS] = counts.previous;
    return at;
  }

  /** The subject's counts, moved on to the window `now` is in. */
  #counts(subject: string, now: number): Counts & { fingerprint: number } {
    const bucket = Math.floor(now / this.windowMs);
    const fingerprint = this.#fingerprint(subject);
    const counts = { fingerprint, bucket, current: 0, previous: 0 };
    for (const table of [this.#fresh, this.#old]) {
      const at = this.#find(table, fingerprint);
      if (at < 0) continue;
      const seen = table[at + BUCKET];
      const current = table[at + CURRENT];
      if (seen === bucket) {
        counts.current = current;
        counts.previous = table[at + PREVIOUS];
      } else if (seen === bucket - 1) {
        counts.previous = current;
      }
      break;
    }
    return counts;
  }

  /**
   * Where `fingerprint` is in `table` (the index of its slot's first
   * number), or, when it is not there, the bitwise NOT of the empty slot
   * it would take (negative).
   */
  #find(table: Float64Array, fingerprint: number): number {
    const mask = this.#slots - 1;
    for (let slot = fingerprint & mask;; slot = (slot + 1) & mask) {
      const at = slot * STRIDE;
      const there = table[at + FINGERPRINT];
      if (there === fingerprint) return at;
      if (there === 0) return ~at;
    }
  }

  /**
   * A 53-bit fingerprint of `subject` (never 0, the empty slot's): two
   * 32-bit multiplicative hashes of its UTF-16 units, from the seed, each
   * finished with murmur3's mixer.
   */
  #fingerprint(subject: string): number {
    let a = this.#seed ^ 0x811c9dc5;
    let b = this.#seed ^ 0x9e3779b9;
    for (let i = 0; i < subject.length; i++) {
      const unit = subject.charCodeAt(i);
      a = Math.imul(a ^ unit, 0x01000193);
      b = Math.imul(b ^ unit, 0x5bd1e995);
    }
    a = mix32(a ^ subject.length);
    b = mix32(b ^ a);
    return ((b & 0x1fffff) * 0x100000000 + (a >>> 0)) || 1;
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

/** murmur3's 32-bit finaliser: every bit of the input moves every bit of the output. */
function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}
