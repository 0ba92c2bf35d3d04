/**
 * Follows one KV key across instances: `kv.watch` (instant on Deno Deploy,
 * across isolates, and between the handles of one process) and, as the
 * bounded fallback, one read every `pollMs`, because Deno's local SQLite KV
 * does not notify another process on the same file. That is one read per
 * interval per instance, never one per request.
 */

/** A running watcher: {@linkcode close} ends the watch and the polling. */
export interface KeyWatcher {
  /** Resolves once the watch and the polling are stopped (before KV is closed). */
  close(): Promise<void>;
  /** Resolves once the key's first value was read. */
  readonly ready: Promise<void>;
}

/**
 * Calls `onChange` whenever the key's versionstamp moves after the first
 * read (by this instance's writes too: callers that dropped their caches
 * already lose nothing by dropping them twice).
 */
export function watchKey(
  kv: Deno.Kv,
  key: Deno.KvKey,
  { onChange, pollMs }: { onChange: () => void; pollMs: number },
): KeyWatcher {
  let known: string | null | undefined;
  let closed = false;
  const seen = (versionstamp: string | null) => {
    if (closed) return;
    const moved = known !== undefined && versionstamp !== known;
    known = versionstamp;
    if (moved) onChange();
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
