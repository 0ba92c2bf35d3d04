import assert from "node:assert/strict";
import { getPhotos, type PhotoBytes, storePhoto } from "@/lib/db/photos.ts";
import { loadPagePhotos } from "./photos.ts";

const STAFF = { id: "ana", email: "ana@example.mx", role: "admin" } as const;

function photoBytes(id: string): PhotoBytes {
  return {
    id,
    width: 1200,
    height: 900,
    sourceFormat: "jpeg",
    renditions: [480, 960, 1200].map((width) => ({
      width,
      height: width * 3 / 4,
      webp: new Uint8Array(10),
      jpeg: new Uint8Array(10),
    })),
  };
}

Deno.test("loadPagePhotos: one read for the page, each id tagged, the lists' order, unknown ids nothing", async () => {
  await using kv = await Deno.openKv(":memory:");
  const [a, b] = ["a".repeat(32), "b".repeat(32)];
  for (const id of [a, b]) {
    await storePhoto(kv, {
      photo: photoBytes(id),
      alt: { es: `Foto ${id[0]}`, en: `Photo ${id[0]}` },
      credit: "Oficina",
      staff: STAFF,
      now: new Date("2026-12-01T12:00:00Z"),
    });
  }
  const reads: string[][] = [];
  const reader = {
    getPhotos: (ids: readonly string[]) => {
      reads.push([...ids]);
      return getPhotos(kv, ids);
    },
  };
  const tags: string[] = [];
  const missing = "c".repeat(32);
  const photos = await loadPagePhotos(
    reader,
    [[b, missing], undefined, [a, b]],
    {
      lang: "en",
      tag: (name) => tags.push(name),
    },
  );
  assert.deepEqual(reads, [[b, missing, a]], "each id once, in one read");
  assert.deepEqual(tags, [`photo:${b}`, `photo:${missing}`, `photo:${a}`]);
  assert.deepEqual(photos.of([b, missing]).map((p) => p.alt), ["Photo b"]);
  assert.deepEqual(photos.of([a, b]).map((p) => p.id), [a, b]);
  assert.deepEqual(photos.of(undefined), []);
  assert.equal(
    photos.of([a])[0].webpSrcset,
    `/fotos/${a}-480.webp 480w, /fotos/${a}-960.webp 960w, /fotos/${a}-1200.webp 1200w`,
  );

  const none = await loadPagePhotos(reader, [undefined, []], {
    lang: "es",
    tag: (name) => tags.push(name),
  });
  assert.equal(reads.length, 1, "a page without photos reads nothing");
  assert.deepEqual(none.of(undefined), []);
});
