import { currentThreadId } from "./thread_cpu.ts";

/**
 * Lowers the calling thread's CPU priority (Linux `nice`), where the
 * platform allows it: a share-card worker rendering flat out then yields
 * the core to the thread that answers requests instead of sharing it evenly
 * (on one core, 8 cards in flight: `/healthz` p99 6-7 ms at equal priority,
 * 5.2-5.4 ms at niceness 5, 4-5 ms at 10; docs/PERFORMANCE.md). Not lower:
 * under a load that keeps the main thread busy, cards still render (about
 * 2.3 a second at 10). A render's timeout counts the worker's CPU time
 * (thread_cpu.ts), so a render starved by other busy threads is waited for,
 * not taken for a stuck one.
 * Elsewhere (no `/proc`, no `renice`, no permission to run it, as on Deno
 * Deploy) it does nothing.
 */
export async function lowerThreadPriority(niceness = 10): Promise<boolean> {
  try {
    const threadId = currentThreadId();
    if (threadId === undefined) return false;
    const { success } = await new Deno.Command("renice", {
      args: ["-n", String(niceness), "-p", String(threadId)],
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
