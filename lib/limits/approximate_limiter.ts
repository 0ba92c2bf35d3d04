/**
 * A per-subject request limit shared by every instance through KV without a
 * KV round trip per request: each instance counts locally, adds its counts to
 * KV in one atomic commit every flush interval, and reads back the totals of
 * the subjects it is serving. See {@linkcode ApproximateRateLimiter}.
 */
import {
  getRateLimitTotals,
  MAX_COUNTS_PER_COMMIT,
  type RateLimitCount,
  type RateLimitResult,
  setRateLimitCounts,
} from "@/lib/db/rate_limits.ts";

export interface ApproximateRateLimiterOptions {
  kv: Deno.Kv;
  /** What is limited; one KV key space per scope. */
  scope: string;
  /** Hits allowed per window and subject. */
  limit: number;
  windowMs: number;
  /** The clock hits are counted by (the app's, so tests can move it). */
  now: () => number;
  /** How often counts go to KV and totals come back (default 500 ms). */
  flushIntervalMs?: number;
  /** Subjects remembered (default 10,000); idle ones are dropped first. */
  maxSubjects?: number;
  /** Subjects whose totals one flush reads back (default 100). */
  maxReadsPerFlush?: number;
}

/** One fixed window of one subject as this instance knows it. */
interface Slot {
  bucket: number;
  /** Hits this instance allowed in the window. */
  own: number;
  /** The part of `own` KV holds (what this instance last wrote). */
  written: number;
  /** Other instances' hits in the window, as of the last read-back. */
  others: number;
}

interface Subject {
  id: string;
  /** Names this memory of the subject in KV: counts of an earlier one, dropped from memory, stay there as they were. */
  writer: string;
  /** Indexed by bucket parity: the current and the previous window. */
  slots: [Slot, Slot];
  /** `now()` of the last hit. */
  lastHit: number;
  /** Flushes that will still read this subject's totals back. */
  readRounds: number;
}

/** Flushes that refresh a subject's totals after its last hit here. */
const READ_ROUNDS = 3;
/**
 * The fewest unshared hits of a subject worth a write: a subject hit once
 * here is neither written nor read back (see below), so a flood of one-off
 * addresses costs no KV work.
 */
const MIN_HITS_TO_SHARE = 2;
/** Longer subjects are cut (an IPv6 /64 prefix is about 25 characters). */
const MAX_SUBJECT_LENGTH = 100;
/** Subjects with unwritten hits that start a flush before the interval ends. */
const EARLY_FLUSH_SUBJECTS = 10_000;
/** Subjects with unwritten hits kept while KV fails; beyond, the oldest are lost. */
const MAX_UNWRITTEN_SUBJECTS = 50_000;
/** Bytes of keys one flush commits: KV refuses more than 80 KiB per commit. */
const MAX_KEY_BYTES_PER_COMMIT = 48 * 1024;

/**
 * A sliding-window limit per subject (an IP) that every instance shares,
 * approximately, for the cost of one KV commit and a few reads per flush
 * interval instead of one compare-and-set per request.
 *
 * - Counting: hits are counted in fixed windows (minute buckets for a
 *   per-minute limit). A hit is allowed when the estimate plus one stays
 *   within the limit, the estimate being the previous window's total
 *   weighted by the part of it still inside the sliding window, plus the
 *   current window's total (the usual sliding-window approximation). Refused
 *   hits are not counted. Within one instance the decision and the count
 *   happen together, synchronously, so concurrent requests count exactly.
 * - Sharing: every `flushIntervalMs` the instance writes its counts that
 *   changed, in one atomic commit of `set`s on keys of its own
 *   (`["rate_limit_counts", scope, subject, bucket, writer]`, expiring after
 *   three windows), so instances never conflict; then, for the subjects hit
 *   here in the last few flushes, it lists the window's keys of every
 *   instance: the others' hits are the sum of the keys that are not its own.
 *   While a subject's estimate is below half the limit, its count is written
 *   only once it has grown by the share step, δ = max(2, ⌈limit / 50⌉) (6
 *   for 300), and read back only once δ hits were seen here or elsewhere;
 *   from half the limit on, every change is written at the next flush. So a
 *   flood of one-off addresses costs no KV work, and a client far from the
 *   limit costs one write per δ requests.
 * - The bound: a hit another instance allowed becomes visible here at most
 *   two flush intervals later (its flush, then this instance's read-back),
 *   and an instance keeps fewer than δ hits of a subject to itself while the
 *   subject is below half the limit. Across N instances a subject therefore
 *   gets at most: the limit, plus what the instances allowed it within the
 *   last two flush intervals, plus N × (δ - 1). Hits allowed since the last
 *   flush of an instance that is killed are never shared ({@linkcode close}
 *   writes them all).
 * - Memory: at most `maxSubjects` subjects (10 % more before a batch of the
 *   least recently hit is dropped); a subject seen once is only a number, and
 *   those idle for two windows go at the next flush. A dropped subject's
 *   counts stay in KV under its old writer name, so when it comes back its
 *   earlier hits count as "others" after a read-back. Unwritten counts are
 *   kept for at most 50,000 subjects while KV fails.
 * - Cost: under 1 µs of JavaScript per hit; per flush, one commit with one
 *   key per subject due for a write (more commits only for floods), and one
 *   `list` per subject read back, at most `maxReadsPerFlush`.
 *
 * The flush timer runs only while there is something to write or read back
 * and never keeps the process alive; {@linkcode close} stops it.
 */
export class ApproximateRateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly flushIntervalMs: number;
  readonly #kv: Deno.Kv;
  readonly #scope: string;
  readonly #now: () => number;
  /** This instance's name in the KV keys (short: keys count against a commit's 80 KiB). */
  readonly #instance = crypto.randomUUID().slice(0, 12);
  /** Numbers each memory of a subject, so a forgotten one is never overwritten. */
  #writers = 0;
  readonly #maxSubjects: number;
  readonly #maxReads: number;
  /** Unshared hits of a subject worth a write while it is far from the limit. */
  readonly #shareStep: number;
  /**
   * Insertion order is recency: least recently hit first. A subject hit once
   * here is only the time of that hit (most of a flood of addresses).
   */
  readonly #subjects = new Map<string, Subject | number>();
  /** Subjects with hits not yet in KV. */
  readonly #dirty = new Set<Subject>();
  /** Subjects whose totals the next flushes read back. */
  readonly #reading = new Set<Subject>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #flushing: Promise<void> | undefined;
  #closed = false;
  #loggedError = false;

  constructor(options: ApproximateRateLimiterOptions) {
    const { limit, windowMs } = options;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError("limit must be a positive integer");
    }
    if (!Number.isFinite(windowMs) || windowMs <= 0) {
      throw new RangeError("windowMs must be a positive number");
    }
    this.limit = limit;
    this.windowMs = windowMs;
    this.flushIntervalMs = options.flushIntervalMs ?? 500;
    this.#kv = options.kv;
    this.#scope = options.scope;
    this.#now = options.now;
    this.#maxSubjects = options.maxSubjects ?? 10_000;
    this.#maxReads = options.maxReadsPerFlush ?? 100;
    this.#shareStep = getShareStep(limit);
  }

  /**
   * Counts a hit of `subject` if the limit allows it, and says whether it
   * did. Synchronous: no KV access on the request path.
   */
  hit(subject: string): RateLimitResult {
    // Bounded KV keys: a longer "address" only comes from a broken proxy.
    if (subject.length > MAX_SUBJECT_LENGTH) {
      subject = subject.slice(0, MAX_SUBJECT_LENGTH);
    }
    const now = this.#now();
    const bucket = Math.floor(now / this.windowMs);
    const known = this.#subjects.get(subject);
    if (known === undefined) {
      // A first hit (the limit is at least 1): remembered by its time only,
      // and shared with the second.
      this.#remember(subject, now);
      return { allowed: true, retryAfterMs: 0, remaining: this.limit - 1 };
    }
    this.#subjects.delete(subject);
    const s = typeof known === "number" ? this.#promote(subject, known) : known;
    s.lastHit = now;
    this.#remember(subject, s);
    const estimate = this.#estimate(s, now);
    s.readRounds = READ_ROUNDS;
    this.#reading.add(s);
    if (estimate + 1 > this.limit) {
      this.#schedule();
      return {
        allowed: false,
        retryAfterMs: this.#retryAfter(s, now),
        remaining: 0,
      };
    }
    this.#slot(s, bucket).own++;
    this.#dirty.add(s);
    this.#schedule();
    return {
      allowed: true,
      retryAfterMs: 0,
      remaining: Math.max(0, Math.floor(this.limit - estimate - 1)),
    };
  }

  /** The sliding-window estimate of `subject`'s hits as this instance knows it. */
  estimate(subject: string): number {
    const s = this.#subjects.get(subject);
    if (s === undefined) return 0;
    return this.#estimate(
      typeof s === "number" ? this.#promote(subject, s) : s,
      this.#now(),
    );
  }

  /** Subjects remembered, and how many have hits not yet in KV. */
  get stats(): { subjects: number; dirty: number; scheduled: boolean } {
    return {
      subjects: this.#subjects.size,
      dirty: this.#dirty.size,
      scheduled: this.#timer !== undefined,
    };
  }

  /**
   * Writes the hits counted since the last flush to KV (with `all`, also
   * those of subjects far from the limit that would wait for more) and reads
   * back the totals of the subjects being served. One flush at a time: a
   * call during a flush waits for it and then flushes again.
   */
  async flush({ all = false }: { all?: boolean } = {}): Promise<void> {
    while (this.#flushing) await this.#flushing;
    this.#flushing = this.#flushOnce(all).finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  /**
   * Stops the timer after a last flush that writes every unshared hit; hits
   * are then counted locally only.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Hits a periodic flush left unwritten (too few to share yet) go too.
    const bucket = Math.floor(this.#now() / this.windowMs);
    for (const s of this.#subjects.values()) {
      if (
        typeof s !== "number" &&
        s.slots.some((slot) =>
          slot.bucket >= bucket - 1 && slot.own !== slot.written
        )
      ) {
        this.#dirty.add(s);
      }
    }
    try {
      await this.flush({ all: true });
    } catch {
      // Shutting down: what was not flushed is lost (at most one interval).
    }
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #remember(id: string, value: Subject | number): void {
    this.#subjects.set(id, value);
    // In batches: one pass over a Map's oldest entries costs as much as one
    // eviction, since deleted entries stay at its front until it is rebuilt.
    if (this.#subjects.size > this.#maxSubjects * 1.1) this.#evict();
  }

  /** A full record of a subject hit once before, at `firstHit`. */
  #promote(id: string, firstHit: number): Subject {
    const s: Subject = {
      id,
      writer: `${this.#instance}.${(this.#writers++).toString(36)}`,
      slots: [emptySlot(-2), emptySlot(-1)],
      lastHit: firstHit,
      readRounds: 0,
    };
    const bucket = Math.floor(firstHit / this.windowMs);
    if (bucket >= Math.floor(this.#now() / this.windowMs) - 1) {
      this.#slot(s, bucket).own = 1;
    }
    return s;
  }

  /**
   * Drops the least recently hit subjects. Their hits not yet in KV still
   * go there (the flush holds them), so no count is lost, only this
   * instance's memory of them.
   */
  #evict(): void {
    for (const [id, s] of this.#subjects) {
      if (this.#subjects.size <= this.#maxSubjects) break;
      this.#subjects.delete(id);
      if (typeof s !== "number") this.#reading.delete(s);
    }
    // Hits never written because KV keeps failing: the oldest go.
    for (const s of this.#dirty) {
      if (this.#dirty.size <= MAX_UNWRITTEN_SUBJECTS) break;
      this.#dirty.delete(s);
    }
  }

  /** The slot of `bucket`, emptied first if it still holds an older window. */
  #slot(s: Subject, bucket: number): Slot {
    const index = bucket & 1;
    let slot = s.slots[index];
    if (slot.bucket !== bucket) {
      slot = s.slots[index] = emptySlot(bucket);
    }
    return slot;
  }

  #total(s: Subject, bucket: number): number {
    const slot = s.slots[bucket & 1];
    return slot.bucket === bucket ? slot.own + slot.others : 0;
  }

  #estimate(s: Subject, now: number): number {
    const bucket = Math.floor(now / this.windowMs);
    const elapsed = (now - bucket * this.windowMs) / this.windowMs;
    return this.#total(s, bucket - 1) * (1 - elapsed) + this.#total(s, bucket);
  }

  /** How long until one more hit fits, at the rate the estimate decays. */
  #retryAfter(s: Subject, now: number): number {
    const w = this.windowMs;
    const bucket = Math.floor(now / w);
    const elapsed = (now - bucket * w) / w;
    const previous = this.#total(s, bucket - 1);
    const current = this.#total(s, bucket);
    const room = this.limit - 1;
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

  #schedule(): void {
    if (this.#closed) return;
    if (this.#dirty.size >= EARLY_FLUSH_SUBJECTS && !this.#flushing) {
      // A flood of subjects: flush now rather than hold them all.
      clearTimeout(this.#timer);
      this.#timer = undefined;
      void this.#runFlush();
      return;
    }
    if (this.#timer !== undefined) return;
    const timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#runFlush();
    }, this.flushIntervalMs);
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  async #runFlush(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      if (
        this.#closed || error instanceof Deno.errors.BadResource ||
        (error instanceof Error && /closed/i.test(error.message))
      ) {
        // Shutting down, or the KV was closed: nothing more to do.
        this.#closed = true;
        return;
      }
      if (!this.#loggedError) {
        this.#loggedError = true;
        console.error(`Flushing the ${this.#scope} limiter failed:`, error);
      }
    }
    if (this.#dirty.size > 0 || this.#reading.size > 0) this.#schedule();
  }

  async #flushOnce(all: boolean): Promise<void> {
    const now = this.#now();
    const bucket = Math.floor(now / this.windowMs);
    // One commit, unless a flood of subjects needs more.
    while (this.#dirty.size > 0 && await this.#write(now, all));
    await this.#readBack(bucket);
    // Forget subjects idle for two windows: they count nothing any more.
    for (const [id, s] of this.#subjects) {
      if (now - (typeof s === "number" ? s : s.lastHit) < 2 * this.windowMs) {
        break;
      }
      this.#subjects.delete(id);
      if (typeof s !== "number") this.#reading.delete(s);
    }
  }

  /** Writes one commit's worth of changed counts; false when the commit failed. */
  async #write(now: number, all: boolean): Promise<boolean> {
    const bucket = Math.floor(now / this.windowMs);
    const taken: {
      s: Subject;
      slot: Slot;
      bucket: number;
      previous: number;
    }[] = [];
    const counts: RateLimitCount[] = [];
    let keyBytes = 0;
    for (const s of this.#dirty) {
      const changed = s.slots.filter((slot) =>
        slot.bucket >= bucket - 1 && slot.own !== slot.written
      );
      const unshared = changed.reduce(
        (sum, slot) => sum + slot.own - slot.written,
        0,
      );
      if (
        unshared === 0 ||
        (!all && unshared < this.#shareStep &&
          this.#estimate(s, now) < this.limit / 2)
      ) {
        // Far from the limit, a few hits wait for more (hit() marks the
        // subject again); past half the limit, every change goes at once.
        this.#dirty.delete(s);
        continue;
      }
      // A key: the scope, the subject (UTF-8), the bucket, the writer and
      // their encoding.
      const bytes = changed.length *
        (48 + this.#scope.length + 3 * s.id.length + s.writer.length);
      if (
        counts.length + changed.length > MAX_COUNTS_PER_COMMIT ||
        keyBytes + bytes > MAX_KEY_BYTES_PER_COMMIT
      ) break;
      keyBytes += bytes;
      this.#dirty.delete(s);
      for (const slot of changed) {
        taken.push({ s, slot, bucket: slot.bucket, previous: slot.written });
        counts.push({
          subject: s.id,
          bucket: slot.bucket,
          writer: s.writer,
          count: slot.own,
        });
        slot.written = slot.own;
      }
    }
    if (counts.length === 0) return false;
    let ok = false;
    try {
      ok = await setRateLimitCounts(this.#kv, {
        scope: this.#scope,
        expireInMs: 3 * this.windowMs,
      }, counts);
    } finally {
      if (!ok) {
        for (const { s, slot, bucket, previous } of taken) {
          if (slot.bucket !== bucket) continue; // that window is over anyway
          slot.written = previous;
          this.#dirty.add(s);
        }
      }
    }
    return ok;
  }

  /** Reads the shared totals of the subjects being served here. */
  async #readBack(bucket: number): Promise<void> {
    const subjects: Subject[] = [];
    for (const s of this.#reading) {
      if (--s.readRounds <= 0) this.#reading.delete(s);
      if (subjects.length >= this.#maxReads) continue;
      const seen = this.#ownHits(s, bucket) >= this.#shareStep ||
        this.#others(s, bucket) > 0;
      if (seen) subjects.push(s);
    }
    await Promise.all(subjects.map(async (s) => {
      const totals = await getRateLimitTotals(this.#kv, {
        scope: this.#scope,
        subject: s.id,
        writer: s.writer,
        fromBucket: bucket - 1,
        toBucket: bucket,
      });
      for (const b of [bucket - 1, bucket]) {
        if (s.slots[b & 1].bucket > b) continue; // moved on meanwhile
        const found = totals.get(b);
        this.#slot(s, b).others = found ? found.total - found.own : 0;
      }
    }));
  }

  #ownHits(s: Subject, bucket: number): number {
    return s.slots.reduce(
      (sum, slot) => slot.bucket >= bucket - 1 ? sum + slot.own : sum,
      0,
    );
  }

  #others(s: Subject, bucket: number): number {
    return s.slots.reduce(
      (sum, slot) => slot.bucket >= bucket - 1 ? sum + slot.others : sum,
      0,
    );
  }
}

/**
 * The share step δ of a limit: fewer unshared hits of a subject than this
 * stay on one instance while the subject is below half the limit.
 */
export function getShareStep(limit: number): number {
  return Math.max(MIN_HITS_TO_SHARE, Math.ceil(limit / 50));
}

function emptySlot(bucket: number): Slot {
  return { bucket, own: 0, written: 0, others: 0 };
}
