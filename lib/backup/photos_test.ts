import assert from "node:assert/strict";
import { KEY_FAMILIES } from "@/lib/db/keys.ts";
import {
  getPhoto,
  type PhotoBytes,
  readPhotoRendition,
  storePhoto,
} from "@/lib/db/photos.ts";
import { createBackup } from "./backup.ts";
import { getExportLifetimeMs } from "./expiry.ts";
import { restoreBackup } from "./restore.ts";

const PHOTO: PhotoBytes = {
  id: "d".repeat(32),
  width: 700,
  height: 500,
  sourceFormat: "png",
  renditions: [480, 700].map((width) => ({
    width,
    height: Math.round(width * 5 / 7),
    webp: Uint8Array.from({ length: 70_000 + width }, (_, i) => i & 0xff),
    jpeg: Uint8Array.from({ length: 90_000 + width }, (_, i) => (i * 3) & 0xff),
  })),
};

Deno.test("backup and restore: the photo library comes back whole", async (t) => {
  await t.step(
    "its families are kept, never given an expiry by an export",
    () => {
      for (
        const family of [
          "photos",
          "photos_by_time",
          "photo_chunks",
          "photo_uploads",
        ]
      ) {
        assert.equal(
          KEY_FAMILIES[family as keyof typeof KEY_FAMILIES].lifetime.kind,
          "kept",
        );
        assert.equal(getExportLifetimeMs([family, "x"]), undefined);
      }
    },
  );
  const dir = await Deno.makeTempDir();
  try {
    {
      await using kv = await Deno.openKv(`${dir}/source.kv`);
      await storePhoto(kv, {
        photo: PHOTO,
        alt: { es: "Agave azul", en: "Blue agave" },
        credit: "Oficina de Turismo",
        staff: { id: "ana@example.mx", email: "ana@example.mx", role: "admin" },
        now: new Date("2026-12-01T12:00:00Z"),
      });
    }
    for (const viaApi of [false, true]) {
      await t.step(
        `a ${
          viaApi ? "KV API export" : "SQLite backup"
        } restored serves every rendition`,
        async () => {
          const file = `${dir}/backup-${viaApi}.kv`;
          await createBackup({ kvPath: `${dir}/source.kv`, file, viaApi });
          const target = `${dir}/restored-${viaApi}.kv`;
          await restoreBackup({ file, kvPath: target });
          await using kv = await Deno.openKv(target);
          const photo = await getPhoto(kv, PHOTO.id);
          assert.deepEqual(photo?.alt, { es: "Agave azul", en: "Blue agave" });
          for (const rendition of PHOTO.renditions) {
            for (const encoding of ["webp", "jpeg"] as const) {
              assert.deepEqual(
                await readPhotoRendition(kv, {
                  photoId: PHOTO.id,
                  width: rendition.width,
                  encoding,
                }),
                rendition[encoding],
              );
            }
          }
        },
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
