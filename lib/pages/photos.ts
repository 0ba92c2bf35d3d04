/**
 * The photos a public page shows (attractions, events, routes, providers
 * name library ids in their `photos` lists): read in one `getMany` per ten
 * ids while the page renders, so a page served from the page cache reads
 * nothing. Each id is tagged before the read, so deleting a photo drops the
 * cached pages that show it (`photo_deleted`, {@linkcode pageTags.photo}).
 */
import { type PhotoSources, photoSources } from "@/lib/photos/mod.ts";
import type { StoredPhoto } from "@/lib/photos/mod.ts";
import { pageTags } from "./page_cache.ts";

/** What reads photo records: the photo library (`deps.photos`). */
export interface PhotoReader {
  getPhotos(photoIds: readonly string[]): Promise<StoredPhoto[]>;
}

/** A page's photos by id, in the page's language. */
export interface PagePhotos {
  /** The sources of `photoIds` the library holds, in their order (an unknown id shows nothing). */
  of(photoIds: readonly string[] | undefined): PhotoSources[];
}

/**
 * Reads every photo of `lists` at once (each id once) and answers each
 * item's list from memory.
 */
export async function loadPagePhotos(
  photos: PhotoReader,
  lists: readonly (readonly string[] | undefined)[],
  { lang, tag }: { lang: string; tag: (name: string) => void },
): Promise<PagePhotos> {
  const ids = [...new Set(lists.flatMap((list) => list ?? []))];
  for (const id of ids) tag(pageTags.photo(id));
  const stored = ids.length === 0 ? [] : await photos.getPhotos(ids);
  const byId = new Map(
    stored.map((photo) => [photo.id, photoSources(photo, lang)]),
  );
  return {
    of: (photoIds) =>
      (photoIds ?? []).flatMap((id) => {
        const found = byId.get(id);
        return found ? [found] : [];
      }),
  };
}
