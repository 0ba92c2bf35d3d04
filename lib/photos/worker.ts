/**
 * A photo worker (see pool.ts): a `node:worker_threads` worker, so the pool
 * can cap its heap, that decodes, resizes and encodes uploads off the main
 * thread (1-3 s of WebAssembly per phone photo that never yields).
 */
import { parentPort } from "node:worker_threads";
import { initCodecs } from "./codecs.ts";
import { processPhoto } from "./process.ts";
import { PhotoRefusedError } from "./refusal.ts";
import type { PhotoJobRequest, PhotoJobResponse } from "./worker_protocol.ts";

await initCodecs();

parentPort!.on("message", async ({ id, upload, limits }: PhotoJobRequest) => {
  try {
    const photo = await processPhoto(upload, limits);
    const buffers = photo.renditions.flatMap((r) => [
      r.webp.buffer as ArrayBuffer,
      r.jpeg.buffer as ArrayBuffer,
    ]);
    parentPort!.postMessage(
      { id, photo } satisfies PhotoJobResponse,
      buffers,
    );
  } catch (error) {
    parentPort!.postMessage(
      (error instanceof PhotoRefusedError
        ? {
          id,
          refusal: {
            reason: error.reason,
            values: error.values as Record<string, string | number>,
          },
        }
        : { id, error: String(error) }) satisfies PhotoJobResponse,
    );
  }
});
parentPort!.postMessage({ ready: true } satisfies PhotoJobResponse);
