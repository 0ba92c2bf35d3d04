/**
 * The real share-card worker, except that it dies (an uncaught error, as an
 * out-of-memory kill or a crash would end it) on a card whose name is "💥".
 */
/// <reference lib="deno.worker" />
import "@/lib/og/worker.ts";
import type { RenderRequest } from "@/lib/og/worker.ts";

const render = self.onmessage!;
self.onmessage = (event: MessageEvent<RenderRequest>) => {
  const { card } = event.data;
  if ("name" in card && card.name === "💥") throw new Error("worker crashed");
  return render.call(self, event);
};
