/**
 * What lets an instance serve route pages and cards from memory and still
 * show a rename or an erasure made on another instance within a second:
 * one small KV counter, `route_changes`, that every write changing what a
 * ticket shows (a rename, an erasure's tombstones, the ticket's deletion, a
 * passport merged into an account) moves in its own atomic
 * ({@linkcode markRoutesChanged}), and one watcher per instance
 * ({@linkcode watchRouteChanges}) that tells the caches when it moved.
 *
 * The watcher (lib/db/key_watch.ts) follows the key with `kv.watch` and,
 * as the bounded fallback for several processes on one file, reads it
 * every `pollMs`: one read per interval per instance, never one per request.
 */
import { type KeyWatcher, watchKey } from "./key_watch.ts";
import { keys } from "./keys.ts";

/** How often the watcher reads the counter itself (the fallback for several processes on one file). */
export const ROUTE_CHANGES_POLL_MS = 250;

/** Adds the counter's move to `operation`: a `sum`, so no two writers ever conflict on it. */
export function markRoutesChanged(
  operation: Deno.AtomicOperation,
): Deno.AtomicOperation {
  return operation.sum(keys.routeChanges(), 1n);
}

/** A running watcher of the counter (see {@linkcode watchKey}). */
export type RouteChangesWatcher = KeyWatcher;

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
  return watchKey(kv, keys.routeChanges(), { onChange, pollMs });
}
