/**
 * The photo library in KV: each photo's renditions (every width, WebP and
 * JPEG) in parts under the 64 KiB value limit, and its record (alt texts,
 * credit, widths, who uploaded it and when), so that every instance serves
 * it and a backup holds it.
 *
 * A photo is written so that a failure leaves nothing visible and nothing
 * behind: a `photo_uploads` marker first (which also stops a second upload
 * of the same photo), then the parts in atomics of a few hundred KB (one
 * photo is larger than one atomic may be), then the record, the library's
 * index entry and the audit entry in one last atomic that also deletes the
 * marker. Only that last commit makes the photo visible. A write that fails
 * deletes its parts and its marker; one cut short (the process stopped)
 * leaves a marker, and the next upload deletes a marker older than
 * {@linkcode STALE_UPLOAD_MS} with its parts ({@linkcode cleanStalePhotoUploads}).
 *
 * A deletion runs the other way ({@linkcode deletePhoto}): one atomic
 * deletes the record and its index entry, writes the audit entry and a
 * `photo_uploads` marker (so the photo is gone at once for every page and
 * instance), then the parts go in batches and the marker last. A deletion
 * cut short leaves a marker with no record: the same cleanup deletes its
 * parts.
 */
import type { StaffMember } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys } from "./keys.ts";
import { commit, listFromCursor } from "./kv.ts";

/** Bytes of a rendition per KV value, with room under the 64 KiB limit. */
export const PHOTO_CHUNK_BYTES = 60_000;
/** Parts per atomic: about 600 KB, under KV's limit on one atomic's size. */
const CHUNKS_PER_ATOMIC = 10;
/** A marker this old belongs to a write that was cut short. */
export const STALE_UPLOAD_MS = 10 * 60_000;

/** The encodings a rendition is stored in. */
export type PhotoEncoding = "webp" | "jpeg";

/** One stored width of a photo. */
export interface StoredRendition {
  width: number;
  height: number;
  /** Bytes and parts of each encoding. */
  webp: { bytes: number; chunks: number };
  jpeg: { bytes: number; chunks: number };
}

/** A photo's record. */
export interface StoredPhoto {
  /** The hash of the uploaded file (lib/photos): its URLs' name. */
  id: string;
  /** As shown (after the EXIF orientation). */
  width: number;
  height: number;
  /** The uploaded file's format. */
  sourceFormat: string;
  /** Narrowest first. */
  renditions: StoredRendition[];
  /** The alternative text in each language, both required. */
  alt: { es: string; en: string };
  /** Who took the photo or owns it, shown with it. */
  credit: string;
  /** Who uploaded it: the staff member's e-mail (or id). */
  uploadedBy: string;
  /** ISO 8601. */
  uploadedAt: string;
}

/** A processed photo's bytes, as lib/photos gives them. */
export interface PhotoBytes {
  id: string;
  width: number;
  height: number;
  sourceFormat: string;
  renditions: {
    width: number;
    height: number;
    webp: Uint8Array;
    jpeg: Uint8Array;
  }[];
}

/** Thrown when the photo is already in the library (or being written right now). */
export class PhotoExistsError extends Error {
  override name = "PhotoExistsError";
  constructor(readonly photoId: string) {
    super(`Photo ${photoId} is already in the library`);
  }
}

function split(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += PHOTO_CHUNK_BYTES) {
    parts.push(bytes.subarray(at, at + PHOTO_CHUNK_BYTES));
  }
  return parts.length ? parts : [new Uint8Array()];
}

/** Deletes every part of `photoId` and its marker (best effort, in batches). */
async function deletePhotoParts(kv: Deno.Kv, photoId: string): Promise<void> {
  let batch = kv.atomic();
  let size = 0;
  for await (const entry of kv.list({ prefix: keys.photoChunks(photoId) })) {
    batch.delete(entry.key);
    if (++size >= 100) {
      await commit(batch);
      batch = kv.atomic();
      size = 0;
    }
  }
  batch.delete(keys.photoUpload(photoId));
  await commit(batch);
}

/**
 * Deletes what writes cut short left behind: each `photo_uploads` marker
 * older than {@linkcode STALE_UPLOAD_MS} whose photo has no record, with its
 * parts. Returns the photo ids cleaned.
 */
export async function cleanStalePhotoUploads(
  kv: Deno.Kv,
  { now }: { now: Date },
): Promise<string[]> {
  const cleaned: string[] = [];
  for await (
    const entry of kv.list<{ startedAt: string }>({
      prefix: keys.photoUploads(),
    })
  ) {
    const photoId = entry.key[1] as string;
    const age = now.getTime() - Date.parse(entry.value.startedAt);
    if (!(age >= STALE_UPLOAD_MS)) continue;
    const record = await kv.get(keys.photo(photoId));
    if (record.value !== null) {
      await kv.atomic().check(entry).delete(entry.key).commit();
      continue;
    }
    await deletePhotoParts(kv, photoId);
    cleaned.push(photoId);
  }
  return cleaned;
}

/** What {@linkcode storePhoto} is told besides the bytes. */
export interface StorePhotoInput {
  photo: PhotoBytes;
  alt: { es: string; en: string };
  credit: string;
  staff: StaffMember;
  now: Date;
}

/**
 * Stores a processed photo (see the module's doc for the order of the
 * writes) and audits it in the commit that makes it visible. Throws
 * {@linkcode PhotoExistsError} when the photo is already in the library;
 * any other failure deletes what was written and is thrown again.
 */
export async function storePhoto(
  kv: Deno.Kv,
  input: StorePhotoInput,
): Promise<StoredPhoto> {
  const { photo, now } = input;
  await cleanStalePhotoUploads(kv, { now });
  const marker = await kv.atomic()
    .check({ key: keys.photo(photo.id), versionstamp: null })
    .check({ key: keys.photoUpload(photo.id), versionstamp: null })
    .set(keys.photoUpload(photo.id), { startedAt: now.toISOString() })
    .commit();
  if (!marker.ok) throw new PhotoExistsError(photo.id);
  try {
    const renditions: StoredRendition[] = [];
    let batch: [Deno.KvKey, Uint8Array][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const op = kv.atomic();
      for (const [key, value] of batch) op.set(key, value);
      const result = await op.commit();
      if (!result.ok) throw new Error("A photo's parts were not written");
      batch = [];
    };
    for (const rendition of photo.renditions) {
      const stored: StoredRendition = {
        width: rendition.width,
        height: rendition.height,
        webp: { bytes: 0, chunks: 0 },
        jpeg: { bytes: 0, chunks: 0 },
      };
      for (const encoding of ["webp", "jpeg"] as const) {
        const parts = split(rendition[encoding]);
        stored[encoding] = {
          bytes: rendition[encoding].length,
          chunks: parts.length,
        };
        for (const [index, part] of parts.entries()) {
          batch.push([
            keys.photoChunk(photo.id, rendition.width, encoding, index),
            part,
          ]);
          if (batch.length >= CHUNKS_PER_ATOMIC) await flush();
        }
      }
      renditions.push(stored);
    }
    await flush();
    const record: StoredPhoto = {
      id: photo.id,
      width: photo.width,
      height: photo.height,
      sourceFormat: photo.sourceFormat,
      renditions: renditions.sort((a, b) => a.width - b.width),
      alt: input.alt,
      credit: input.credit,
      uploadedBy: input.staff.email || input.staff.id,
      uploadedAt: now.toISOString(),
    };
    const markerEntry = await kv.get(keys.photoUpload(photo.id));
    const done = await addStaffActionTo(
      kv.atomic()
        .check({ key: keys.photo(photo.id), versionstamp: null })
        .check(markerEntry)
        .set(keys.photo(photo.id), record)
        .set(keys.photoByTime(now.getTime(), photo.id), photo.id)
        .delete(keys.photoUpload(photo.id)),
      {
        staff: input.staff,
        action: "photo_uploaded",
        target: photo.id,
        at: now,
      },
    ).commit();
    if (!done.ok) throw new Error("The photo's record was not written");
    return record;
  } catch (error) {
    await deletePhotoParts(kv, photo.id).catch(() => {});
    throw error;
  }
}

/**
 * Deletes a photo, every rendition and part of it, and audits it in the
 * commit that hides it (see the module's doc). Returns the deleted record,
 * `null` when the library does not hold `photoId` (nothing written).
 */
export async function deletePhoto(
  kv: Deno.Kv,
  { photoId, staff, now }: { photoId: string; staff: StaffMember; now: Date },
): Promise<StoredPhoto | null> {
  if (!/^[0-9a-f]{32}$/.test(photoId)) return null;
  await cleanStalePhotoUploads(kv, { now });
  for (;;) {
    const entry = await kv.get<StoredPhoto>(keys.photo(photoId));
    if (entry.value === null) return null;
    const photo = entry.value;
    const hidden = await addStaffActionTo(
      kv.atomic()
        .check(entry)
        .delete(keys.photo(photoId))
        .delete(keys.photoByTime(Date.parse(photo.uploadedAt), photoId))
        .set(keys.photoUpload(photoId), { startedAt: now.toISOString() }),
      { staff, action: "photo_deleted", target: photoId, at: now },
    ).commit();
    // A concurrent deletion of the same photo: the next read finds none.
    if (!hidden.ok) continue;
    await deletePhotoParts(kv, photoId);
    return photo;
  }
}

/** A photo's record, `null` for an id the library does not hold. */
export async function getPhoto(
  kv: Deno.Kv,
  photoId: string,
): Promise<StoredPhoto | null> {
  if (!/^[0-9a-f]{32}$/.test(photoId)) return null;
  return (await kv.get<StoredPhoto>(keys.photo(photoId))).value;
}

/** The records of `photoIds` (in their order, unknown ids left out), in as few reads as KV allows. */
export async function getPhotos(
  kv: Deno.Kv,
  photoIds: readonly string[],
): Promise<StoredPhoto[]> {
  const wanted = photoIds.filter((id) => /^[0-9a-f]{32}$/.test(id));
  const out: StoredPhoto[] = [];
  for (let at = 0; at < wanted.length; at += 10) {
    const entries = await kv.getMany<StoredPhoto[]>(
      wanted.slice(at, at + 10).map((id) => keys.photo(id)),
    );
    for (const entry of entries) if (entry.value) out.push(entry.value);
  }
  return out;
}

/**
 * One rendition's bytes, `null` when the photo, the width or a part is
 * missing.
 */
export async function readPhotoRendition(
  kv: Deno.Kv,
  { photoId, width, encoding }: {
    photoId: string;
    width: number;
    encoding: PhotoEncoding;
  },
): Promise<Uint8Array | null> {
  const photo = await getPhoto(kv, photoId);
  const rendition = photo?.renditions.find((r) => r.width === width);
  if (!rendition) return null;
  const { bytes, chunks } = rendition[encoding];
  const out = new Uint8Array(bytes);
  let at = 0;
  let count = 0;
  for await (
    const entry of kv.list<Uint8Array>({
      prefix: keys.photoRenditionChunks(photoId, width, encoding),
    })
  ) {
    if (at + entry.value.length > bytes) return null;
    out.set(entry.value, at);
    at += entry.value.length;
    count++;
  }
  return count === chunks && at === bytes ? out : null;
}

/** One page of the library, newest first; `cursor` goes on to older photos. */
export async function listPhotos(
  kv: Deno.Kv,
  { limit = 50, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: StoredPhoto[]; cursor: string }> {
  const page = await listFromCursor<string>(
    kv,
    { prefix: keys.photosByTime() },
    { reverse: true, limit, cursor: cursor || undefined },
  );
  const values = await getPhotos(kv, page.entries.map((e) => e.value));
  return { values, cursor: page.entries.length < limit ? "" : page.cursor };
}
