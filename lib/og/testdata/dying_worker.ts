/**
 * The real share-card worker, except that it dies (an uncaught error, as an
 * out-of-memory kill or a crash would end it) on a card whose name is "💥".
 */
import { parentPort } from "node:worker_threads";
import {
  answerRenderRequest,
  type RenderRequest,
  type RenderResponse,
} from "@/lib/og/worker_protocol.ts";

parentPort!.on("message", (request: RenderRequest) => {
  const { card } = request;
  if ("name" in card && card.name === "💥") throw new Error("worker crashed");
  return answerRenderRequest(request);
});
parentPort!.postMessage({ ready: true } satisfies RenderResponse);
