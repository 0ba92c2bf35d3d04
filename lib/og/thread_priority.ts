/**
 * Lowers the calling thread's CPU priority (Linux `nice`), where the
 * platform allows it: a share-card worker rendering flat out then yields
 * the core to the thread that answers requests instead of sharing it evenly
 * (on one core, 8 cards in flight: `/healthz` p99 6-7 ms at equal priority,
 * 5.2-5.4 ms at niceness 5, 4-5 ms at 10; docs/PERFORMANCE.md). Not lower:
 * under a load that keeps the main thread busy, cards still render (about
 * 2.3 a second at 10) instead of starving into their timeout.
 * Elsewhere (no `/proc`, no `renice`, no permission to run it, as on Deno
 * Deploy) it does nothing.
 */
export async function lowerThreadPriority(niceness = 10): Promise<boolean> {
  try {
    // The thread's own id: the first field of its stat line. Read
    // synchronously, on this thread: an async read happens on a helper
    // thread, whose id /proc/thread-self would give.
    const tid = Deno.readTextFileSync("/proc/thread-self/stat").split(" ")[0];
    const { success } = await new Deno.Command("renice", {
      args: ["-n", String(niceness), "-p", tid],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
