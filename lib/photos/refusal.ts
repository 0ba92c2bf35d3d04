/**
 * Why an uploaded file is refused, each reason with its status and its
 * words (`locales/<lang>/panel_photos.json`, `refusal.<reason>`): the
 * console shows the sentence beside the file field, an API client gets it
 * as `{error, details}`.
 */
import { apiMessage, type ApiValue, HttpError } from "@/lib/errors/mod.ts";

/** The largest file taken: 15 MiB, more than any phone's JPEG. */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** The most pixels a header may declare: 40 megapixels (about 160 MB once decoded). */
export const MAX_PHOTO_PIXELS = 40_000_000;

/** A reason a file is refused. */
export type PhotoRefusalReason =
  /** No file in the form, or an empty one. */
  | "missing"
  /** More bytes than the limit. */
  | "too_large"
  /** A header declaring more pixels than the limit (a decompression bomb). */
  | "too_many_pixels"
  /** An SVG: a drawing that can carry scripts, never taken. */
  | "svg"
  /** Neither JPEG, PNG nor WebP by its first bytes. */
  | "unsupported"
  /** A name or declared type that says another format than the bytes are. */
  | "type_mismatch"
  /** A header or pixel data that cannot be read (a truncated or broken file). */
  | "corrupt";

const STATUS: Readonly<Record<PhotoRefusalReason, number>> = {
  missing: 400,
  too_large: 413,
  too_many_pixels: 413,
  svg: 415,
  unsupported: 415,
  type_mismatch: 415,
  corrupt: 400,
};

/** A file the photo library does not take; nothing of it is stored. */
export class PhotoRefusedError extends HttpError {
  override name = "PhotoRefusedError";
  constructor(
    readonly reason: PhotoRefusalReason,
    readonly values?: Record<string, ApiValue>,
  ) {
    super(
      STATUS[reason],
      apiMessage(`error.${STATUS[reason]}`),
      { key: `panel_photos.refusal.${reason}`, values },
      { body: { field: "archivo", reason } },
    );
  }
}
