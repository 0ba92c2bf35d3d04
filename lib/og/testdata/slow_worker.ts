/**
 * The real share-card worker, except on three card names: "💤" waits 3 s
 * without running before it renders (a thread the machine gave no core to),
 * "🛌" waits for ever without running, "🔁" runs for ever.
 */
import { parentPort } from "node:worker_threads";
import { currentThreadId } from "@/lib/og/thread_cpu.ts";
import {
  answerRenderRequest,
  type RenderRequest,
  type RenderResponse,
} from "@/lib/og/worker_protocol.ts";

/** Blocks this thread without using CPU time (for ever without `ms`). */
function sleep(ms?: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

parentPort!.on("message", (request: RenderRequest) => {
  const name = "name" in request.card ? request.card.name : "";
  if (name === "💤") sleep(3_000);
  if (name === "🛌") sleep();
  // deno-lint-ignore no-empty
  if (name === "🔁") { for (;;) {} }
  return answerRenderRequest(request);
});
parentPort!.postMessage(
  { ready: true, threadId: currentThreadId() } satisfies RenderResponse,
);
