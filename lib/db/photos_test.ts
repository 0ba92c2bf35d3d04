import assert from "node:assert/strict";
import { keys } from "./keys.ts";
import {
  cleanStalePhotoUploads,
  deletePhoto,
  getPhoto,
  listPhotos,
  PHOTO_CHUNK_BYTES,
  type PhotoBytes,
  PhotoExistsError,
  readPhotoRendition,
  STALE_UPLOAD_MS,
  storePhoto,
} from "./photos.ts";

const STAFF = {
  id: "ana@example.mx",
  email: "ana@example.mx",
  role: "admin",
} as const;
const NOW = new Date("2026-12-01T12:00:00Z");

function bytesOf(length: number, seed: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * seed + 7) & 0xff);
}

/** A processed photo whose 1600 px WebP takes three parts. */
function fakePhoto(id = "a".repeat(32)): PhotoBytes {
  return {
    id,
    width: 2000,
    height: 1500,
    sourceFormat: "jpeg",
    renditions: [
      {
        width: 480,
        height: 360,
        webp: bytesOf(20_000, 3),
        jpeg: bytesOf(30_000, 5),
      },
      {
        width: 1600,
        height: 1200,
        webp: bytesOf(2 * PHOTO_CHUNK_BYTES + 123, 11),
        jpeg: bytesOf(PHOTO_CHUNK_BYTES, 13),
      },
    ],
  };
}

async function countEntries(kv: Deno.Kv): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for await (const entry of kv.list({ prefix: [] })) {
    const family = String(entry.key[0]);
    counts[family] = (counts[family] ?? 0) + 1;
  }
  return counts;
}

const INPUT = {
  alt: { es: "La plaza al atardecer", en: "The square at sunset" },
  credit: "Oficina de Turismo",
  staff: STAFF,
  now: NOW,
};

Deno.test("storePhoto: a round trip, in parts under 64 KiB, audited", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  const photo = fakePhoto();
  const stored = await storePhoto(kv, { ...INPUT, photo });
  await t.step(
    "the record names both alt texts, the credit, who and when",
    async () => {
      assert.deepEqual(await getPhoto(kv, photo.id), stored);
      assert.deepEqual(stored.alt, INPUT.alt);
      assert.equal(stored.credit, "Oficina de Turismo");
      assert.equal(stored.uploadedBy, "ana@example.mx");
      assert.equal(stored.uploadedAt, NOW.toISOString());
      assert.deepEqual(stored.renditions.map((r) => r.width), [480, 1600]);
    },
  );
  await t.step("every rendition reads back byte for byte", async () => {
    for (const rendition of photo.renditions) {
      for (const encoding of ["webp", "jpeg"] as const) {
        assert.deepEqual(
          await readPhotoRendition(kv, {
            photoId: photo.id,
            width: rendition.width,
            encoding,
          }),
          rendition[encoding],
        );
      }
    }
    assert.equal(
      await readPhotoRendition(kv, {
        photoId: photo.id,
        width: 960,
        encoding: "webp",
      }),
      null,
    );
  });
  await t.step("no value reaches 64 KiB; no marker is left", async () => {
    for await (
      const entry of kv.list<Uint8Array>({ prefix: ["photo_chunks"] })
    ) {
      assert.ok(entry.value.length <= PHOTO_CHUNK_BYTES);
    }
    const counts = await countEntries(kv);
    assert.equal(counts.photo_chunks, 1 + 1 + 3 + 1);
    assert.equal(counts.photo_uploads, undefined);
    assert.equal(counts.photos, 1);
    assert.equal(counts.photos_by_time, 1);
  });
  await t.step("the upload is audited in the same commit", async () => {
    const actions = await Array.fromAsync(
      kv.list<{ action: string; target: string }>({
        prefix: keys.staffActions(),
      }),
    );
    assert.deepEqual(
      actions.map((e) => [e.value.action, e.value.target]),
      [["photo_uploaded", photo.id]],
    );
  });
  await t.step("the library lists it, newest first", async () => {
    const other = await storePhoto(kv, {
      ...INPUT,
      photo: fakePhoto("b".repeat(32)),
      now: new Date(NOW.getTime() + 1000),
    });
    const page = await listPhotos(kv);
    assert.deepEqual(page.values.map((p) => p.id), [other.id, photo.id]);
  });
  await t.step(
    "the same photo again: PhotoExistsError, nothing written",
    async () => {
      const before = await countEntries(kv);
      await assert.rejects(
        storePhoto(kv, { ...INPUT, photo }),
        (error) =>
          error instanceof PhotoExistsError && error.photoId === photo.id,
      );
      assert.deepEqual(await countEntries(kv), before);
    },
  );
});

Deno.test("storePhoto: a write that fails leaves nothing behind", async (t) => {
  /** KV whose commit of an atomic writing into `family` is refused. */
  function refusing(kv: Deno.Kv, family: string): Deno.Kv {
    return new Proxy(kv, {
      get(target, prop) {
        if (prop === "atomic") {
          return () => {
            const op = target.atomic();
            let touches = false;
            const realSet = op.set.bind(op);
            op.set = (key, value, options) => {
              if (key[0] === family) touches = true;
              return realSet(key, value, options);
            };
            const realCommit = op.commit.bind(op);
            op.commit = () =>
              touches
                ? Promise.resolve({ ok: false } as Deno.KvCommitError)
                : realCommit();
            return op;
          };
        }
        const value = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
  for (const family of ["photos", "photo_chunks"]) {
    await t.step(
      `the commit writing ${family} fails: nothing is left`,
      async () => {
        await using kv = await Deno.openKv(":memory:");
        await kv.set(["tickets", "abc"], { name: "Ana" });
        const before = await countEntries(kv);
        await assert.rejects(
          storePhoto(refusing(kv, family), { ...INPUT, photo: fakePhoto() }),
        );
        assert.deepEqual(await countEntries(kv), before);
        assert.equal(await getPhoto(kv, "a".repeat(32)), null);
      },
    );
  }
  await t.step(
    "a write cut short is cleaned up by a later upload",
    async () => {
      await using kv = await Deno.openKv(":memory:");
      const id = "c".repeat(32);
      // What a process stopped mid-write leaves: a marker and some parts.
      await kv.set(keys.photoUpload(id), { startedAt: NOW.toISOString() });
      await kv.set(keys.photoChunk(id, 480, "webp", 0), bytesOf(100, 1));
      await kv.set(keys.photoChunk(id, 480, "jpeg", 0), bytesOf(100, 2));
      assert.deepEqual(await cleanStalePhotoUploads(kv, { now: NOW }), []);
      assert.equal((await countEntries(kv)).photo_chunks, 2);
      const later = new Date(NOW.getTime() + STALE_UPLOAD_MS);
      await storePhoto(kv, { ...INPUT, photo: fakePhoto(), now: later });
      const left = await Array.fromAsync(
        kv.list({ prefix: keys.photoChunks(id) }),
      );
      assert.equal(left.length, 0);
      assert.equal((await kv.get(keys.photoUpload(id))).value, null);
    },
  );
});

Deno.test("deletePhoto: nothing of the photo left, audited, the others kept", async (t) => {
  await using kv = await Deno.openKv(":memory:");
  const kept = await storePhoto(kv, {
    ...INPUT,
    photo: fakePhoto("b".repeat(32)),
  });
  const photo = fakePhoto();
  await storePhoto(kv, { ...INPUT, photo });
  const later = new Date(NOW.getTime() + 60_000);

  await t.step(
    "the record is returned, every part and index entry gone",
    async () => {
      const deleted = await deletePhoto(kv, {
        photoId: photo.id,
        staff: STAFF,
        now: later,
      });
      assert.equal(deleted?.id, photo.id);
      assert.equal(await getPhoto(kv, photo.id), null);
      const left = await Array.fromAsync(kv.list({ prefix: [] }));
      // No key of any family names the photo any more.
      const mentions = left.filter((e) => e.key.includes(photo.id));
      assert.deepEqual(mentions.map((e) => e.key), []);
      assert.equal(
        (await Array.fromAsync(kv.list({ prefix: keys.photoChunks(photo.id) })))
          .length,
        0,
      );
      assert.equal((await listPhotos(kv)).values.length, 1);
      assert.ok(
        await readPhotoRendition(kv, {
          photoId: kept.id,
          width: 1600,
          encoding: "webp",
        }),
        "the other photo is whole",
      );
    },
  );

  await t.step("the audit log says who deleted it, when", async () => {
    const actions = (await Array.fromAsync(
      kv.list<{ action: string; target: string; at: string }>({
        prefix: keys.staffActions(),
      }),
    )).map((e) => [e.value.action, e.value.target, e.value.at]);
    assert.deepEqual(actions.filter(([a]) => a === "photo_deleted"), [
      ["photo_deleted", photo.id, later.toISOString()],
    ]);
  });

  await t.step(
    "a second deletion, or an id of nothing, finds none",
    async () => {
      assert.equal(
        await deletePhoto(kv, { photoId: photo.id, staff: STAFF, now: later }),
        null,
      );
      assert.equal(
        await deletePhoto(kv, { photoId: "../x", staff: STAFF, now: later }),
        null,
      );
    },
  );

  await t.step("the same photo can be uploaded again", async () => {
    await storePhoto(kv, { ...INPUT, photo, now: later });
    assert.ok(await getPhoto(kv, photo.id));
  });
});

Deno.test("deletePhoto: a deletion cut short after hiding the photo is cleaned later", async () => {
  await using kv = await Deno.openKv(":memory:");
  const photo = fakePhoto();
  const stored = await storePhoto(kv, { ...INPUT, photo });
  // What deletePhoto's first commit leaves if the process then stops.
  await kv.atomic()
    .delete(keys.photo(photo.id))
    .delete(keys.photoByTime(Date.parse(stored.uploadedAt), photo.id))
    .set(keys.photoUpload(photo.id), { startedAt: NOW.toISOString() })
    .commit();
  assert.ok((await countEntries(kv)).photo_chunks > 0);
  const cleaned = await cleanStalePhotoUploads(kv, {
    now: new Date(NOW.getTime() + STALE_UPLOAD_MS),
  });
  assert.deepEqual(cleaned, [photo.id]);
  const counts = await countEntries(kv);
  assert.equal(counts.photo_chunks, undefined);
  assert.equal(counts.photo_uploads, undefined);
});
