/**
 * What the render pool (pool.ts) and its workers (worker.ts) say to each
 * other: `{ready: true, threadId}` from a worker once its modules are
 * loaded (the thread whose CPU time its renders' timeout counts); then
 * `{id, card}` in, `{id, png}` (the buffer transferred) or `{id, error}` out.
 */
import { parentPort } from "node:worker_threads";
import type { AnyCard } from "./card_types.ts";
import { renderCard } from "./render_card.ts";

/** What the pool tells a worker it starts (`workerData`). */
export interface WorkerOptions {
  /** Draw a warm-up card before taking work (a worker started ahead of any card). */
  warmUp: boolean;
}

/** A render request from the pool. */
export interface RenderRequest {
  id: number;
  card: AnyCard;
}

/** A worker's answer to one {@linkcode RenderRequest}. */
export type RenderResponse =
  | { ready: true; threadId?: number }
  | { id: number; png: Uint8Array }
  | { id: number; error: string };

/** In a worker: renders one request and posts the answer to the pool. */
export async function answerRenderRequest(
  { id, card }: RenderRequest,
  { beforeAnswer }: {
    /** Awaited after the render, before the answer is posted. */
    beforeAnswer?: () => Promise<unknown>;
  } = {},
): Promise<void> {
  try {
    let png = await renderCard(card);
    await beforeAnswer?.();
    // Transfer, not copy: only a view of a whole buffer can be handed over.
    if (png.byteOffset !== 0 || png.byteLength !== png.buffer.byteLength) {
      png = png.slice();
    }
    parentPort!.postMessage(
      { id, png } satisfies RenderResponse,
      [png.buffer as ArrayBuffer],
    );
  } catch (error) {
    parentPort!.postMessage(
      { id, error: String(error) } satisfies RenderResponse,
    );
  }
}
