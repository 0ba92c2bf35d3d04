import { keys } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";

/**
 * A sliding-window limit: at most `limit` hits per `windowMs` for one
 * `subject` (a user id, an IP) within one `scope` (what is limited).
 */
export interface RateLimitOptions {
  scope: string;
  subject: string;
  limit: number;
  windowMs: number;
  /** The current time; pass the app's clock so tests can slide the window. */
  now: Date | number;
}

/** The state of a limit for one subject. */
export interface RateLimitResult {
  /** Whether a hit is (or was) allowed now. */
  allowed: boolean;
  /** 0 when allowed; otherwise the wait until the oldest counted hit leaves the window. */
  retryAfterMs: number;
  /** Hits still allowed in the window after this call. */
  remaining: number;
}

/**
 * The stored value: timestamps (ms) of the hits still in the window, oldest
 * first. One value per subject, so a limit of a few thousand fits KV's 64 KiB.
 */
type StoredHits = number[];

const MAX_LIMIT = 4_000;

/**
 * Records a hit when the limit allows it and says whether it did. Exact under
 * concurrency and across instances: the recent hits are one KV value changed
 * by compare-and-set, retried on conflict, so of N simultaneous hits on an
 * empty window exactly `limit` are allowed. A refused hit is not recorded, so
 * a client hammering a closed window does not keep it closed.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  options: RateLimitOptions,
): Promise<RateLimitResult> {
  return await hitRateLimits(kv, [options]);
}

/**
 * Records a hit on every limit in one transaction when all of them allow
 * it (a user's and an address's, say), and none when any refuses: the
 * result is the tightest of them (the longest wait, the fewest left).
 */
export async function hitRateLimits(
  kv: Deno.Kv,
  limits: readonly RateLimitOptions[],
): Promise<RateLimitResult> {
  limits.forEach(checkOptions);
  const limitKeys = limits.map((o) => keys.rateLimit(o.scope, o.subject));
  return await runTransaction(async () => {
    const entries = await kv.getMany<StoredHits[]>(limitKeys);
    const evaluated = limits.map((options, i) =>
      evaluateRateLimit(entries[i].value, options)
    );
    const result = tightest(evaluated.map(({ result }) => result));
    if (!result.allowed) return result;
    const operation = kv.atomic();
    limits.forEach((options, i) => {
      operation.check(entries[i]).set(
        limitKeys[i],
        [...evaluated[i].recent, toMs(options.now)],
        { expireIn: Math.ceil(options.windowMs) },
      );
    });
    if (!(await commit(operation)).ok) return CONFLICT;
    return { allowed: true, retryAfterMs: 0, remaining: result.remaining - 1 };
  });
}

/** Says whether a hit would be allowed now, without recording one. */
export async function peekRateLimit(
  kv: Deno.Kv,
  options: RateLimitOptions,
): Promise<RateLimitResult> {
  return await peekRateLimits(kv, [options]);
}

/** Says whether a hit would be allowed now by every limit, without recording one. */
export async function peekRateLimits(
  kv: Deno.Kv,
  limits: readonly RateLimitOptions[],
): Promise<RateLimitResult> {
  limits.forEach(checkOptions);
  const entries = await kv.getMany<StoredHits[]>(
    limits.map((o) => keys.rateLimit(o.scope, o.subject)),
  );
  return tightest(
    limits.map((options, i) =>
      evaluateRateLimit(entries[i].value, options).result
    ),
  );
}

/** The result that binds: refused if any refuses, with the longest wait and the fewest left. */
export function tightest(results: readonly RateLimitResult[]): RateLimitResult {
  return {
    allowed: results.every((r) => r.allowed),
    retryAfterMs: Math.max(0, ...results.map((r) => r.retryAfterMs)),
    remaining: Math.min(...results.map((r) => r.remaining)),
  };
}

/**
 * Reads a limit's entry, for transactions of other entities that must only
 * commit while the limit allows: they `check()` the entry so a hit recorded
 * meanwhile makes them retry (see `recordVisit`).
 */
export async function getRateLimitEntry(
  kv: Deno.Kv,
  { scope, subject }: Pick<RateLimitOptions, "scope" | "subject">,
): Promise<Deno.KvEntryMaybe<StoredHits>> {
  return await kv.get<StoredHits>(keys.rateLimit(scope, subject));
}

/**
 * The limit's state for a stored value: pure, so a transaction that read the
 * value itself can decide with it. `recent` are the hits still in the window.
 */
export function evaluateRateLimit(
  stored: unknown,
  { limit, windowMs, now }: Omit<RateLimitOptions, "scope" | "subject">,
): { result: RateLimitResult; recent: StoredHits } {
  const nowMs = toMs(now);
  const recent = (Array.isArray(stored) ? stored : [])
    .filter((t): t is number =>
      // Hits "from the future" (another instance's clock runs ahead) count.
      typeof t === "number" && t > nowMs - windowMs
    )
    .sort((a, b) => a - b);
  if (recent.length < limit) {
    return {
      result: {
        allowed: true,
        retryAfterMs: 0,
        remaining: limit - recent.length,
      },
      recent,
    };
  }
  // The hit whose leaving frees one slot; with a lowered limit, a later one.
  const freeing = recent[recent.length - limit];
  return {
    result: {
      allowed: false,
      retryAfterMs: Math.max(1, freeing + windowMs - nowMs),
      remaining: 0,
    },
    recent,
  };
}

function checkOptions({ limit, windowMs }: RateLimitOptions): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new RangeError(`limit must be an integer in 1..${MAX_LIMIT}`);
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new RangeError("windowMs must be a positive number of milliseconds");
  }
}

function toMs(now: Date | number): number {
  return typeof now === "number" ? now : now.getTime();
}

/**
 * Deletes every rate-limit entry whose subject is `subject` (a user id), in
 * any scope (erasure). Entries live at most an hour, so the list is short.
 */
export async function deleteRateLimitsOfSubject(
  kv: Deno.Kv,
  subject: string,
): Promise<number> {
  let count = 0;
  for await (const entry of kv.list({ prefix: keys.rateLimits() })) {
    if (entry.key[2] === subject) {
      await kv.delete(entry.key);
      count++;
    }
  }
  return count;
}
