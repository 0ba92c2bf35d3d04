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

const warmUp = (workerData as WorkerOptions | undefined)?.warmUp;
/**
 * The worker's lower priority. A worker started ahead of any card takes it
 * first, so that loading the pipeline runs below the requests. A worker
 * started for a card loads the pipeline and draws that card at the
 * requests' priority, since someone may be waiting for it (a link preview
 * right after a write): on a core kept busy by requests, a lowered worker
 * takes seconds for the load. Every later card is drawn lower.
 */
let lowering: Promise<unknown> | undefined;
if (warmUp) await (lowering = lowerThreadPriority());
const { answerRenderRequest } = await import("./worker_protocol.ts");
if (warmUp) {
  const { warmUpShareCard } = await import("./render_card.ts");
  await warmUpShareCard().catch(() => {
    // A warm-up that fails costs only its time: real cards still render.
  });
}

parentPort!.on(
  "message",
  (request) =>
    answerRenderRequest(request, {
      beforeAnswer: () => lowering ??= lowerThreadPriority(),
    }),
);
parentPort!.postMessage(
  { ready: true, threadId: currentThreadId() } satisfies RenderResponse,
);
