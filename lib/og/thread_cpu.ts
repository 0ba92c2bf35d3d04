/**
 * A thread's CPU time, read from Linux's `/proc`: what the render pool
 * counts a render's timeout in. Its workers run at a lower priority
 * (thread_priority.ts), so on a busy machine a render may wait seconds for
 * a core; counted in wall time, such a starved render looked stuck, and its
 * warm worker was replaced by a cold one whose first render waited longer
 * still, every card after it timing out too (docs/PERFORMANCE.md).
 * Elsewhere (no `/proc`) both functions answer `undefined`.
 */

/** Linux's clock ticks per second (`USER_HZ`), the unit of `/proc`'s CPU times: 100 on every architecture Deno runs on. */
const TICKS_PER_SECOND = 100;

/** The calling thread's id (Linux's TID), or `undefined` where there is no `/proc`. */
export function currentThreadId(): number | undefined {
  // Read synchronously, on this thread: an async read happens on a helper
  // thread, whose id /proc/thread-self would give.
  const stat = readStat("/proc/thread-self/stat");
  return stat ? Number(stat.split(" ", 1)[0]) : undefined;
}

/**
 * The CPU time, user and system, that thread `threadId` of this process
 * has used, in milliseconds (10 ms steps); `undefined` where it cannot be
 * read.
 */
export function readThreadCpuMs(threadId: number): number | undefined {
  const stat = readStat(`/proc/self/task/${threadId}/stat`);
  if (stat === undefined) return undefined;
  // After the parenthesised name (which may hold spaces): the state is
  // field 3, utime field 14 and stime field 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks * 1000 / TICKS_PER_SECOND : undefined;
}

function readStat(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}
