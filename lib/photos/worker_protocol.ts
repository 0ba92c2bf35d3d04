/**
 * What the photo workers (pool.ts) and a worker (worker.ts) say to each
 * other: `{ready: true}` once its codecs are loaded; then `{id, upload,
 * limits}` in and `{id, photo}`, `{id, refusal}` (a file refused, with its
 * reason's values) or `{id, error}` out.
 */
import type { PhotoRefusalReason } from "./refusal.ts";
import type { PhotoLimits, PhotoUpload, ProcessedPhoto } from "./process.ts";

/** One file to process. */
export interface PhotoJobRequest {
  id: number;
  upload: PhotoUpload;
  limits: PhotoLimits;
}

/** A worker's answer. */
export type PhotoJobResponse =
  | { ready: true }
  | { id: number; photo: ProcessedPhoto }
  | {
    id: number;
    refusal: {
      reason: PhotoRefusalReason;
      values?: Record<string, string | number>;
    };
  }
  | { id: number; error: string };
