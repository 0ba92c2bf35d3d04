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
 *
 * On Linux 6.12 and later (the EEVDF scheduler) the thread also asks for
 * the shortest time slice, 100 µs instead of about 3 ms: a request that
 * arrives while the worker holds the core waits for the end of its slice,
 * so a short one keeps the requests' tail near an idle server's
 * (docs/PERFORMANCE.md, "A shorter slice for the worker"). Both are
 * set with one `sched_setattr` through libc (`--allow-ffi`, which the start
 * task's `-A` gives); where that cannot run, `renice` sets the niceness
 * alone; elsewhere (no `/proc`, no permission, as on Deno Deploy) nothing
 * changes.
 */
export async function lowerThreadPriority(niceness = 10): Promise<boolean> {
  if (setNicenessAndSlice(niceness, SHORTEST_SLICE_NS)) return true;
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

/** The shortest slice Linux lets a normal thread ask for. */
const SHORTEST_SLICE_NS = 100_000n;

/** `sched_setattr`'s number on the architectures Deno runs on under Linux. */
const SCHED_SETATTR: Partial<Record<typeof Deno.build.arch, bigint>> = {
  x86_64: 314n,
  aarch64: 274n,
};

/**
 * `sched_setattr(0, attr, 0)` for the calling thread: policy SCHED_OTHER,
 * `niceness`, and `sliceNs` as its runtime, which kernels before EEVDF's
 * custom slices ignore for this policy. False where it cannot be called.
 */
function setNicenessAndSlice(niceness: number, sliceNs: bigint): boolean {
  const call = SCHED_SETATTR[Deno.build.arch];
  if (Deno.build.os !== "linux" || call === undefined) return false;
  let libc;
  try {
    libc = Deno.dlopen("libc.so.6", {
      syscall: { parameters: ["i64", "i64", "buffer", "i64"], result: "i64" },
    });
  } catch {
    return false; // no FFI permission, or no glibc
  }
  try {
    // struct sched_attr, its first version (48 bytes, little-endian on both).
    const attr = new DataView(new ArrayBuffer(48));
    attr.setUint32(0, 48, true); // size
    attr.setUint32(4, 0, true); // sched_policy: SCHED_OTHER
    attr.setInt32(16, niceness, true); // sched_nice
    attr.setBigUint64(24, sliceNs, true); // sched_runtime: the slice
    const result = libc.symbols.syscall(
      call,
      0n,
      new Uint8Array(attr.buffer),
      0n,
    );
    return result === 0n;
  } finally {
    libc.close();
  }
}
