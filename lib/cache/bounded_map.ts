/**
 * A map bounded by count and by bytes, without a package: the page cache
 * is on a start's first page, where lru-cache would start Deno's Node
 * layer for it (about 7 ms).
 *
 * @module
 */

/**
 * A map in insertion order bounded by count and by bytes (`sizeOf` each
 * value): past either, the oldest entries go first. A value larger than
 * the whole bound is not kept. {@linkcode BoundedMap.touch} moves an entry
 * to the newest, so that the order is of use, not of insertion, where a
 * caller wants the least recently used to go first. `onRemove` is told of
 * every value that leaves, whether deleted, replaced or pushed out.
 */
export class BoundedMap<V> {
  readonly #map = new Map<string, V>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
    readonly sizeOf: (value: V) => number,
    readonly onRemove?: (key: string, value: V) => void,
  ) {}

  get size(): number {
    return this.#map.size;
  }

  /** The bytes held by the values now. */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): V | undefined {
    return this.#map.get(key);
  }

  /** Makes `key` the newest entry, as if it had just been set. */
  touch(key: string): void {
    const value = this.#map.get(key);
    if (value === undefined) return;
    this.#map.delete(key);
    this.#map.set(key, value);
  }

  /** Sets `key` as the newest entry; a value larger than `maxBytes` is not kept. */
  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.maxBytes) return;
    this.#map.set(key, value);
    this.#sizes.set(key, size);
    this.#bytes += size;
    while (this.#map.size > this.maxEntries || this.#bytes > this.maxBytes) {
      this.delete(this.#map.keys().next().value!);
    }
  }

  delete(key: string): void {
    const size = this.#sizes.get(key);
    if (size === undefined) return;
    const value = this.#map.get(key)!;
    this.#bytes -= size;
    this.#sizes.delete(key);
    this.#map.delete(key);
    this.onRemove?.(key, value);
  }

  clear(): void {
    for (const key of [...this.#map.keys()]) this.delete(key);
  }

  entries(): IterableIterator<[string, V]> {
    return this.#map.entries();
  }
}
