/**
 * What lets an instance serve route pages and cards from memory and still
 * show a rename or an erasure made on another instance within a second:
 * one small KV counter, `route_changes`, that every write changing what a
 * ticket shows (a rename, an erasure's tombstones, the ticket's deletion, a
 * passport merged into an account) moves in its own atomic
 * ({@linkcode markRoutesChanged}), and one watcher per instance
 * ({@linkcode watchRouteChanges}) that tells the caches when it moved.
 *
 * The watcher follows the key with `kv.watch` (instant on Deno Deploy,
 * across isolates, and between the handles of one process) and, as the
 * bounded fallback, reads it every `pollMs`: Deno's local SQLite KV does not
 * notify another process on the same file. That is one read per interval
 * per instance, never one per request.
 */
import { keys } from "./keys.ts";

/** How often the watcher reads the counter itself (the fallback for several processes on one file). */
export const ROUTE_CHANGES_POLL_MS = 250;

/** Adds the counter's move to `operation`: a `sum`, so no two writers ever conflict on it. */
export function markRoutesChanged(
  operation: Deno.AtomicOperation,
): Deno.AtomicOperation {
  return operation.sum(keys.routeChanges(), 1n);
}

/** A running watcher: {@linkcode close} ends the watch and the polling. */
export interface RouteChangesWatcher {
  /** Resolves once the watch and the polling are stopped (before KV is closed). */
  close(): Promise<void>;
  /** Resolves once the counter's first value was read (tests). */
  readonly ready: Promise<void>;
}

/**
 * Calls `onChange` whenever the counter moves after the first read (by
 * this instance's writes too: the caller's caches dropped those already).
 */
export function watchRouteChanges(
  kv: Deno.Kv,
  { onChange, pollMs = ROUTE_CHANGES_POLL_MS }: {
    onChange: () => void;
    pollMs?: number;
  },
): RouteChangesWatcher {
  const key = keys.routeChanges();
  let known: string | null | undefined;
  let closed = false;
  const seen = (versionstamp: string | null) => {
    if (closed) return;
    if (known !== undefined && versionstamp !== known) {
      known = versionstamp;
      onChange();
    } else {
      known = versionstamp;
    }
  };

  let markReady: () => void;
  const ready = new Promise<void>((resolve) => markReady = resolve);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading: Promise<void> | undefined;
  const poll = () => {
    reading = kv.get(key).then(
      (entry) => seen(entry.versionstamp),
      () => {}, // KV closed under us, or a hiccup: the next poll reads again.
    ).finally(() => {
      markReady();
      if (closed) return;
      timer = setTimeout(poll, pollMs);
      // The watcher never keeps a process alive on its own.
      Deno.unrefTimer(timer);
    });
  };
  poll();

  const reader = kv.watch([key]).getReader();
  const watching = (async () => {
    try {
      while (!closed) {
        const { done, value } = await reader.read();
        if (done) return;
        seen(value[0].versionstamp);
      }
    } catch {
      // The watch ended (KV closed): the polling is enough until close().
    }
  })();

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      await reader.cancel().catch(() => {});
      await Promise.all([watching, reading]);
    },
  };
}
