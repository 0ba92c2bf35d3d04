/**
 * The share-card worker (see pool.ts): a `node:worker_threads` worker, so
 * the pool can cap its heap (`resourceLimits`), that renders cards off the
 * main thread; one render is 30-150 ms of synchronous satori, resvg and
 * deflate work that would otherwise stall every other request, and at a
 * lower CPU priority than it. The protocol is in worker_protocol.ts.
 */
import { parentPort, workerData } from "node:worker_threads";
import { currentThreadId } from "./thread_cpu.ts";
import { lowerThreadPriority } from "./thread_priority.ts";
import type { RenderResponse, WorkerOptions } from "./worker_protocol.ts";

// First, so that loading the render pipeline (satori, resvg, the fonts)
// runs at the worker's priority too, not the requests'.
await lowerThreadPriority();
const { answerRenderRequest } = await import("./worker_protocol.ts");
if ((workerData as WorkerOptions | undefined)?.warmUp) {
  const { warmUpShareCard } = await import("./render_card.ts");
  await warmUpShareCard().catch(() => {
    // A warm-up that fails costs only its time: real cards still render.
  });
}

parentPort!.on("message", answerRenderRequest);
parentPort!.postMessage(
  { ready: true, threadId: currentThreadId() } satisfies RenderResponse,
);
