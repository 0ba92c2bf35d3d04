/**
 * Bounded in-memory LRU for rendered images, with "single flight": while a
 * key is being rendered, every other caller for that key awaits the same
 * promise instead of rendering again.
 */

export interface RenderCacheOptions {
  /** Maximum number of cached entries (default 256). */
  maxEntries?: number;
  /** Maximum total size of cached values in bytes (default 32 MiB). */
  maxBytes?: number;
}

export interface RenderCacheStats {
  /** Served from the cache. */
  hits: number;
  /** Not cached and not in flight: a render was started. */
  misses: number;
  /** Joined a render already in flight for the same key. */
  coalesced: number;
  /** Entries dropped to respect maxEntries / maxBytes. */
  evictions: number;
  /** Renders that threw (nothing is cached for them). */
  errors: number;
  /** Current number of cached entries. */
  entries: number;
  /** Current total bytes of cached values. */
  bytes: number;
  /** Renders currently in flight. */
  inFlight: number;
}

export class RenderCache {
  readonly maxEntries: number;
  readonly maxBytes: number;

  /** Insertion order doubles as recency order (oldest first). */
  #entries = new Map<string, Uint8Array>();
  #inFlight = new Map<string, Promise<Uint8Array>>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  #coalesced = 0;
  #evictions = 0;
  #errors = 0;

  constructor(options: RenderCacheOptions = {}) {
    const { maxEntries = 256, maxBytes = 32 * 1024 * 1024 } = options;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError("maxEntries must be a positive integer");
    }
    if (!Number.isFinite(maxBytes) || maxBytes < 1) {
      throw new RangeError("maxBytes must be a positive number");
    }
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  /**
   * The cached value for `key`, or the result of `render()` (stored for next
   * time). Concurrent calls for a key that is being rendered share that
   * render. A failed render is not cached; all of its waiters see the error.
   * Values larger than `maxBytes` are returned but not cached.
   */
  getOrRender(
    key: string,
    render: () => Promise<Uint8Array>,
  ): Promise<Uint8Array> {
    const cached = this.#entries.get(key);
    if (cached) {
      this.#hits++;
      this.#entries.delete(key); // move to most-recent position
      this.#entries.set(key, cached);
      return Promise.resolve(cached);
    }
    const pending = this.#inFlight.get(key);
    if (pending) {
      this.#coalesced++;
      return pending;
    }
    this.#misses++;
    const promise = (async () => {
      // Yield first so the in-flight entry below is registered before
      // `render` runs (and before `finally` could remove it, even when
      // `render` throws synchronously).
      await null;
      try {
        const value = await render();
        this.#store(key, value);
        return value;
      } catch (err) {
        this.#errors++;
        throw err;
      } finally {
        this.#inFlight.delete(key);
      }
    })();
    this.#inFlight.set(key, promise);
    return promise;
  }

  /** Cached value without rendering (does not count as a hit or miss). */
  peek(key: string): Uint8Array | undefined {
    return this.#entries.get(key);
  }

  /** Remove one key; returns whether it was cached. */
  delete(key: string): boolean {
    const value = this.#entries.get(key);
    if (!value) return false;
    this.#entries.delete(key);
    this.#bytes -= value.byteLength;
    return true;
  }

  /** Drop every cached entry (renders in flight still complete and store). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get stats(): RenderCacheStats {
    return {
      hits: this.#hits,
      misses: this.#misses,
      coalesced: this.#coalesced,
      evictions: this.#evictions,
      errors: this.#errors,
      entries: this.#entries.size,
      bytes: this.#bytes,
      inFlight: this.#inFlight.size,
    };
  }

  #store(key: string, value: Uint8Array): void {
    this.delete(key);
    if (value.byteLength > this.maxBytes) return;
    this.#entries.set(key, value);
    this.#bytes += value.byteLength;
    while (
      this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes
    ) {
      const oldest = this.#entries.keys().next().value!;
      this.delete(oldest);
      this.#evictions++;
    }
  }
}
