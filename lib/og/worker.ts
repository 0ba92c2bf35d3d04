/**
 * A Web Worker that renders share cards off the main thread (see pool.ts):
 * one render is 60-150 ms of synchronous satori, resvg and deflate work that
 * would otherwise stall every other request of the process.
 *
 * Protocol: `{ready: true}` out once the modules are loaded; then `{id,
 * card}` in, `{id, png}` (the buffer transferred) or `{id, error}` out.
 */
/// <reference lib="deno.worker" />
import type { AnyCard } from "./card_types.ts";
import { renderCard } from "./render_card.ts";

/** A render request from the pool. */
export interface RenderRequest {
  id: number;
  card: AnyCard;
}

/** The worker's answer to one {@linkcode RenderRequest}. */
export type RenderResponse =
  | { ready: true }
  | { id: number; png: Uint8Array }
  | { id: number; error: string };

self.onmessage = async (event: MessageEvent<RenderRequest>) => {
  const { id, card } = event.data;
  try {
    let png = await renderCard(card);
    // Transfer, not copy: only a view of a whole buffer can be handed over.
    if (png.byteOffset !== 0 || png.byteLength !== png.buffer.byteLength) {
      png = png.slice();
    }
    self.postMessage({ id, png } satisfies RenderResponse, [png.buffer]);
  } catch (error) {
    self.postMessage(
      { id, error: String(error) } satisfies RenderResponse,
    );
  }
};

self.postMessage({ ready: true } satisfies RenderResponse);
