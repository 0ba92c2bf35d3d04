/**
 * The share-card worker (see pool.ts): a `node:worker_threads` worker, so
 * the pool can cap its heap (`resourceLimits`), that renders cards off the
 * main thread; one render is 30-150 ms of synchronous satori, resvg and
 * deflate work that would otherwise stall every other request, and at a
 * lower CPU priority than it. The protocol is in worker_protocol.ts.
 */
import { parentPort } from "node:worker_threads";
import { lowerThreadPriority } from "./thread_priority.ts";
import { answerRenderRequest, type RenderResponse } from "./worker_protocol.ts";

await lowerThreadPriority();

parentPort!.on("message", answerRenderRequest);
parentPort!.postMessage({ ready: true } satisfies RenderResponse);
