import assert from "node:assert/strict";
import { currentThreadId, readThreadCpuMs } from "./thread_cpu.ts";

Deno.test({
  name: "a thread's CPU time grows while it runs, not while it waits",
  ignore: Deno.build.os !== "linux",
  fn() {
    const threadId = currentThreadId();
    assert.ok(Number.isInteger(threadId) && threadId! > 0, String(threadId));
    const before = readThreadCpuMs(threadId!)!;

    // Runs until its CPU time says 200 ms more (another process may hold
    // the core a while: at most 30 s).
    let afterRunning = before;
    const started = performance.now();
    while (
      afterRunning - before < 200 && performance.now() - started < 30_000
    ) {
      afterRunning = readThreadCpuMs(threadId!)!;
    }
    assert.ok(afterRunning - before >= 200, `${afterRunning - before} ms`);

    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    const afterWaiting = readThreadCpuMs(threadId!)!;
    assert.ok(
      afterWaiting - afterRunning <= 30,
      `${afterWaiting - afterRunning} ms`,
    );
  },
});

Deno.test("no such thread: no CPU time", () => {
  assert.equal(readThreadCpuMs(2 ** 31 - 1), undefined);
});
