/**
 * The photo library as the service uses it: an upload checked (the file,
 * both alt texts and the credit), processed in the photo worker and stored
 * (lib/db/photos.ts); a rendition served by its content-hash file name
 * (`<id>-<width>.webp` or `.jpg`), from a small byte-bounded memory cache
 * in front of KV; a photo deleted with every rendition. Created once in
 * `openDeps`, ended by its `close()`.
 *
 * Light at start: the codecs, the worker and `lru-cache` (which starts
 * Deno's Node layer) are imported with the first upload or the first photo
 * served, never by a start.
 */
import type { LRUCache } from "lru-cache";
import type { ApiMessage } from "@/lib/errors/mod.ts";
import { apiMessage, HttpError } from "@/lib/errors/mod.ts";
import {
  deletePhoto,
  getPhoto,
  getPhotos,
  listPhotos,
  type PhotoEncoding,
  PhotoExistsError,
  readPhotoRendition,
  type StoredPhoto,
  storePhoto,
} from "@/lib/db/photos.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import type { PhotoWorkers } from "./pool.ts";

/** The longest alt text, in each language. */
export const ALT_MAX = 300;
/** The longest credit. */
export const CREDIT_MAX = 120;
/** The memory the served renditions may take per instance. */
const CACHE_BYTES = 24 * 1024 * 1024;
/**
 * How long a rendition kept in memory is served before its record is read
 * again: a photo deleted on another instance stops being served here
 * within this time (on the deleting instance at once). One small read per
 * file and interval, never one per request.
 */
export const PHOTO_FILE_CHECK_MS = 30_000;

/** The form's fields, as the console names them. */
export type PhotoField = "archivo" | "altEs" | "altEn" | "credito";

/**
 * An upload refused: a message per field (the file's reason, an alt text
 * or the credit missing or too long), said beside each field on the
 * console; an API client gets `{error, details, field, fields}`. The status
 * is the file's refusal's (413, 415, 400) or 400.
 */
export class PhotoUploadError extends HttpError {
  override name = "PhotoUploadError";
  constructor(
    readonly fields: Partial<Record<PhotoField, ApiMessage>>,
    status = 400,
  ) {
    // The file's error first: the form's order.
    const field = (["archivo", "altEs", "altEn", "credito"] as const).find(
      (name) => fields[name],
    )!;
    const first = fields[field]!;
    super(status, apiMessage(`error.${status}`), first, {
      body: { field },
    });
  }
}

/** The text fields of an upload, checked: trimmed, each present and not too long. */
export function checkPhotoFields(
  input: { altEs?: string; altEn?: string; credit?: string },
): Partial<Record<PhotoField, ApiMessage>> {
  const errors: Partial<Record<PhotoField, ApiMessage>> = {};
  const check = (
    field: PhotoField,
    value: string | undefined,
    max: number,
    missingKey: string,
  ) => {
    const text = value?.trim() ?? "";
    if (text === "") errors[field] = { key: missingKey };
    else if (text.length > max) {
      errors[field] = { key: "panel_photos.field.tooLong", values: { max } };
    }
  };
  check("altEs", input.altEs, ALT_MAX, "panel_photos.field.altEs.missing");
  check("altEn", input.altEn, ALT_MAX, "panel_photos.field.altEn.missing");
  check(
    "credito",
    input.credit,
    CREDIT_MAX,
    "panel_photos.field.credit.missing",
  );
  return errors;
}

/** An upload as the console's form sent it. */
export interface PhotoUploadInput {
  file?: { bytes: Uint8Array; name?: string; mediaType?: string };
  altEs?: string;
  altEn?: string;
  credit?: string;
  staff: StaffMember;
}

/** A served rendition. */
export interface PhotoFile {
  bytes: Uint8Array;
  contentType: "image/webp" | "image/jpeg";
  /** Strong: the file name is the content's hash and width. */
  etag: string;
}

const FILE_NAME = /^([0-9a-f]{32})-(\d{1,5})\.(webp|jpg)$/;

/** A rendition in memory and when its record was last seen. */
interface CachedFile {
  file: PhotoFile;
  checkedAt: number;
}

/** The photo library of one instance. */
export class PhotoLibrary {
  readonly #kv: Deno.Kv;
  readonly #now: () => Date;
  #workers?: Promise<PhotoWorkers>;
  #cache?: Promise<LRUCache<string, CachedFile>>;

  constructor({ kv, now }: { kv: Deno.Kv; now: () => Date }) {
    this.#kv = kv;
    this.#now = now;
  }

  /**
   * Checks, processes and stores an upload; throws
   * {@linkcode PhotoUploadError} with every field's error (nothing stored).
   */
  async upload(input: PhotoUploadInput): Promise<StoredPhoto> {
    const errors = checkPhotoFields(input);
    let status = 400;
    const workers = await this.#getWorkers();
    const { PhotoRefusedError } = await import("./refusal.ts");
    const refuse = (error: InstanceType<typeof PhotoRefusedError>) => {
      errors.archivo = {
        key: `panel_photos.refusal.${error.reason}`,
        values: error.values,
      };
      status = error.status;
    };
    if (!input.file || input.file.bytes.length === 0) {
      errors.archivo = { key: "panel_photos.refusal.missing" };
    } else {
      const { checkPhotoUpload } = await import("./process.ts");
      try {
        checkPhotoUpload(input.file, workers.limits);
      } catch (error) {
        if (!(error instanceof PhotoRefusedError)) throw error;
        refuse(error);
      }
    }
    if (Object.keys(errors).length > 0) {
      throw new PhotoUploadError(errors, status);
    }
    let photo;
    try {
      photo = await workers.process(input.file!);
    } catch (error) {
      if (!(error instanceof PhotoRefusedError)) throw error;
      refuse(error);
      throw new PhotoUploadError(errors, status);
    }
    try {
      return await storePhoto(this.#kv, {
        photo,
        alt: { es: input.altEs!.trim(), en: input.altEn!.trim() },
        credit: input.credit!.trim(),
        staff: input.staff,
        now: this.#now(),
      });
    } catch (error) {
      if (!(error instanceof PhotoExistsError)) throw error;
      throw new PhotoUploadError({
        archivo: {
          key: "panel_photos.refusal.exists",
          values: { id: error.photoId },
        },
      }, 409);
    }
  }

  /** The records of `photoIds` that the library holds, in their order. */
  getPhotos(photoIds: readonly string[]): Promise<StoredPhoto[]> {
    return getPhotos(this.#kv, photoIds);
  }

  /**
   * Deletes a photo and every rendition of it (audited); this instance
   * stops serving its files at once. `null` when the library does not hold
   * it. The caller drops the pages that showed it (`photo_deleted`).
   */
  async delete(
    photoId: string,
    staff: StaffMember,
  ): Promise<StoredPhoto | null> {
    const deleted = await deletePhoto(this.#kv, {
      photoId,
      staff,
      now: this.#now(),
    });
    if (deleted && this.#cache) {
      const cache = await this.#cache;
      for (const rendition of deleted.renditions) {
        for (const extension of ["webp", "jpg"]) {
          cache.delete(`${photoId}-${rendition.width}.${extension}`);
        }
      }
    }
    return deleted;
  }

  /** One page of the library, newest first. */
  list(
    options: { limit?: number; cursor?: string } = {},
  ): Promise<{ values: StoredPhoto[]; cursor: string }> {
    return listPhotos(this.#kv, options);
  }

  /**
   * The rendition a file name names (`<id>-<width>.webp|.jpg`), `null` for
   * a name of no stored photo or width. Kept in memory once read: a name's
   * bytes never change, only whether the photo is still in the library
   * (read again after {@linkcode PHOTO_FILE_CHECK_MS}).
   */
  async readFile(name: string): Promise<PhotoFile | null> {
    const match = FILE_NAME.exec(name);
    if (!match) return null;
    const [, photoId, width, extension] = match;
    const cache = await this.#getCache();
    const cached = cache.get(name);
    const now = this.#now().getTime();
    if (cached) {
      if (now - cached.checkedAt < PHOTO_FILE_CHECK_MS) return cached.file;
      if (await getPhoto(this.#kv, photoId)) {
        cached.checkedAt = now;
        return cached.file;
      }
      cache.delete(name);
      return null;
    }
    const encoding: PhotoEncoding = extension === "webp" ? "webp" : "jpeg";
    const bytes = await readPhotoRendition(this.#kv, {
      photoId,
      width: Number(width),
      encoding,
    });
    if (!bytes) return null;
    const file: PhotoFile = {
      bytes,
      contentType: encoding === "webp" ? "image/webp" : "image/jpeg",
      etag: `"${photoId}-${width}-${extension}"`,
    };
    cache.set(name, { file, checkedAt: now });
    return file;
  }

  /** Stops the photo worker. */
  async close(): Promise<void> {
    const workers = this.#workers;
    this.#workers = undefined;
    (await workers?.catch(() => undefined))?.close();
  }

  #getWorkers(): Promise<PhotoWorkers> {
    this.#workers ??= import("./pool.ts").then(({ PhotoWorkers }) =>
      new PhotoWorkers()
    );
    return this.#workers;
  }

  #getCache(): Promise<LRUCache<string, CachedFile>> {
    this.#cache ??= import("lru-cache").then(({ LRUCache }) =>
      new LRUCache<string, CachedFile>({
        maxSize: CACHE_BYTES,
        sizeCalculation: ({ file }) => Math.max(1, file.bytes.length),
      })
    );
    return this.#cache;
  }
}
