import assert from "node:assert/strict";
import exifr from "exifr";
import ExifReader from "exifreader";
import {
  makeJpeg,
  makePng,
  makeWebp,
  SVG_WITH_SCRIPT,
  TEST_GPS,
} from "@/tests/photo_fixtures.ts";
import { sniffImageType } from "./formats.ts";
import {
  checkPhotoUpload,
  MAX_PHOTO_BYTES,
  processPhoto,
  renditionWidths,
} from "./process.ts";
import { type PhotoRefusalReason, PhotoRefusedError } from "./refusal.ts";
import { PhotoWorkers } from "./pool.ts";

async function refusal(
  run: () => unknown,
): Promise<{ reason: PhotoRefusalReason; status: number; details: string }> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof PhotoRefusedError, String(error));
    return {
      reason: error.reason,
      status: error.status,
      details: error.details,
    };
  }
  assert.fail("the file was taken");
}

/** The RIFF chunks of a WebP, by their four-letter names. */
function webpChunks(bytes: Uint8Array): string[] {
  const names: string[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  for (let at = 12; at + 8 <= bytes.length;) {
    names.push(new TextDecoder().decode(bytes.subarray(at, at + 4)));
    const size = view.getUint32(at + 4, true);
    at += 8 + size + (size % 2);
  }
  return names;
}

Deno.test("processPhoto: a phone JPEG with GPS comes out without any EXIF, in every size", async () => {
  const source = await makeJpeg(2000, 1500);
  // The fixture really carries the position, as a phone's photo does.
  const gps = await exifr.gps(source);
  assert.ok(Math.abs(gps.latitude - TEST_GPS.latitude) < 1e-3);
  const photo = await processPhoto({
    bytes: source,
    name: "IMG_0001.JPG",
    mediaType: "image/jpeg",
  });
  assert.deepEqual(photo.renditions.map((r) => r.width), [480, 960, 1600]);
  assert.deepEqual(photo.renditions.map((r) => r.height), [360, 720, 1200]);
  for (const rendition of photo.renditions) {
    assert.equal(await exifr.gps(rendition.jpeg), undefined);
    const jpegTags = await exifr.parse(rendition.jpeg, {
      tiff: true,
      exif: true,
      gps: true,
      xmp: true,
      icc: false,
      jfif: false,
    });
    assert.equal(
      jpegTags,
      undefined,
      `EXIF left in the ${rendition.width} JPEG`,
    );
    const webpTags = ExifReader.load(rendition.webp.buffer as ArrayBuffer, {
      expanded: true,
    });
    assert.equal(webpTags.gps, undefined);
    assert.equal(webpTags.exif, undefined);
    assert.equal(webpTags.xmp, undefined);
    assert.ok(
      !webpChunks(rendition.webp).some((c) => c === "EXIF" || c === "XMP "),
      `metadata chunk in the ${rendition.width} WebP`,
    );
    assert.equal(sniffImageType(rendition.webp), "webp");
    assert.equal(sniffImageType(rendition.jpeg), "jpeg");
  }
});

Deno.test("processPhoto: sizes, never enlarged, from each format", async (t) => {
  await t.step("a PNG 700 px wide gives 480 and 700", async () => {
    const photo = await processPhoto({ bytes: await makePng(700, 400) });
    assert.deepEqual(photo.renditions.map((r) => r.width), [480, 700]);
    assert.equal(photo.sourceFormat, "png");
  });
  await t.step("a transparent PNG gets a JPEG laid on white", async () => {
    const photo = await processPhoto({
      bytes: await makePng(64, 64, { alpha: true }),
    });
    assert.deepEqual(photo.renditions.map((r) => r.width), [64]);
    assert.equal(sniffImageType(photo.renditions[0].jpeg), "jpeg");
  });
  await t.step(
    "a WebP 1000 px wide gives 480, 960 and its own 1000",
    async () => {
      const photo = await processPhoto({
        bytes: await makeWebp(1000, 500),
        name: "plaza.webp",
        mediaType: "image/webp",
      });
      assert.deepEqual(photo.renditions.map((r) => r.width), [480, 960, 1000]);
      assert.deepEqual(photo.renditions.map((r) => r.height), [240, 480, 500]);
    },
  );
  await t.step(
    "a JPEG turned by its EXIF orientation is shown upright",
    async () => {
      const photo = await processPhoto({
        bytes: await makeJpeg(600, 400, { orientation: 6 }),
      });
      assert.equal(photo.width, 400);
      assert.equal(photo.height, 600);
    },
  );
  await t.step("the widths", () => {
    assert.deepEqual(renditionWidths(4032), [480, 960, 1600]);
    assert.deepEqual(renditionWidths(1600), [480, 960, 1600]);
    assert.deepEqual(renditionWidths(300), [300]);
  });
  await t.step("the same bytes are the same id", async () => {
    const bytes = await makePng(20, 20);
    const [a, b] = [
      await processPhoto({ bytes }),
      await processPhoto({ bytes }),
    ];
    assert.equal(a.id, b.id);
    assert.match(a.id, /^[0-9a-f]{32}$/);
  });
});

Deno.test("checkPhotoUpload: hostile and broken files are refused before decoding", async (t) => {
  const jpeg = await makeJpeg(64, 48, { exif: false });
  const png = await makePng(32, 32);
  await t.step("over the byte limit: 413", async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set(jpeg);
    const r = await refusal(() => checkPhotoUpload({ bytes: big }));
    assert.equal(r.reason, "too_large");
    assert.equal(r.status, 413);
    assert.match(r.details, /15 MB/);
  });
  await t.step("an SVG with a script: 415, named as an SVG", async () => {
    const r = await refusal(() =>
      checkPhotoUpload({
        bytes: SVG_WITH_SCRIPT,
        name: "logo.svg",
        mediaType: "image/svg+xml",
      })
    );
    assert.equal(r.reason, "svg");
    assert.equal(r.status, 415);
    assert.match(r.details, /SVG/);
  });
  await t.step(
    "an SVG named photo.jpg and sent as image/jpeg is still an SVG",
    async () => {
      const r = await refusal(() =>
        checkPhotoUpload({
          bytes: SVG_WITH_SCRIPT,
          name: "photo.jpg",
          mediaType: "image/jpeg",
        })
      );
      assert.equal(r.reason, "svg");
    },
  );
  await t.step(
    "a PNG renamed .jpg and sent as image/jpeg: the lie is refused",
    async () => {
      const r = await refusal(() =>
        checkPhotoUpload({
          bytes: png,
          name: "foto.jpg",
          mediaType: "image/jpeg",
        })
      );
      assert.equal(r.reason, "type_mismatch");
      assert.equal(r.status, 415);
      assert.match(r.details, /JPEG/);
      assert.match(r.details, /PNG/);
    },
  );
  await t.step("a JPEG sent as image/png is refused too", async () => {
    const r = await refusal(() =>
      checkPhotoUpload({ bytes: jpeg, name: "foto", mediaType: "image/png" })
    );
    assert.equal(r.reason, "type_mismatch");
  });
  await t.step(
    "a PNG with no claim (octet-stream, no extension) is detected",
    () => {
      assert.equal(
        checkPhotoUpload({
          bytes: png,
          name: "foto",
          mediaType: "application/octet-stream",
        }).format,
        "png",
      );
    },
  );
  await t.step(
    "a decompression bomb: 50,000 x 50,000 declared, refused from its header",
    async () => {
      const bomb = await makePng(1, 1, {
        declare: { width: 50_000, height: 50_000 },
      });
      assert.ok(bomb.length < 200, `the bomb is ${bomb.length} bytes`);
      const started = performance.now();
      const r = await refusal(() =>
        processPhoto({ bytes: bomb, name: "b.png", mediaType: "image/png" })
      );
      assert.equal(r.reason, "too_many_pixels");
      assert.equal(r.status, 413);
      assert.match(r.details, /50[,.\u00a0 ]?000/);
      assert.ok(performance.now() - started < 1000);
    },
  );
  await t.step(
    "a truncated JPEG: 400, never decoded into a grey half",
    async () => {
      const cut = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
      const r = await refusal(() => processPhoto({ bytes: cut }));
      assert.equal(r.reason, "corrupt");
      assert.equal(r.status, 400);
    },
  );
  await t.step("a truncated PNG and a header alone", async () => {
    assert.equal(
      (await refusal(() => processPhoto({ bytes: png.subarray(0, 40) })))
        .reason,
      "corrupt",
    );
    assert.equal(
      (await refusal(() => processPhoto({ bytes: jpeg.subarray(0, 3) })))
        .reason,
      "corrupt",
    );
  });
  await t.step(
    "a JPEG whose data is garbage after a valid header",
    async () => {
      const broken = jpeg.slice();
      // Keep the headers (the first 600 bytes), scramble the scan.
      for (let i = 600; i < broken.length - 2; i++) broken[i] = (i * 31) & 0xff;
      broken[broken.length - 2] = 0xff;
      broken[broken.length - 1] = 0xd9;
      const outcome = await processPhoto({ bytes: broken }).then(
        () => "taken",
        (e) => e instanceof PhotoRefusedError ? e.reason : String(e),
      );
      // Either refused as corrupt or decoded into pixels: never a crash.
      assert.ok(outcome === "taken" || outcome === "corrupt", outcome);
    },
  );
  await t.step("a GIF, a PDF, text: unsupported, 415", async () => {
    for (
      const bytes of [
        new TextEncoder().encode("GIF89a\x01\x00\x01\x00"),
        new TextEncoder().encode("%PDF-1.7\n"),
        new TextEncoder().encode("hola"),
      ]
    ) {
      const r = await refusal(() => checkPhotoUpload({ bytes }));
      assert.equal(r.reason, "unsupported");
      assert.equal(r.status, 415);
    }
  });
  await t.step("an empty file: missing", async () => {
    assert.equal(
      (await refusal(() => checkPhotoUpload({ bytes: new Uint8Array() })))
        .reason,
      "missing",
    );
  });
});

Deno.test("PhotoWorkers: processes in a worker, refuses before queueing", async (t) => {
  const pool = new PhotoWorkers({ idleMs: 200 });
  try {
    await t.step("a photo processed in the worker", async () => {
      const photo = await pool.process({ bytes: await makeJpeg(1200, 900) });
      assert.deepEqual(photo.renditions.map((r) => r.width), [480, 960, 1200]);
      assert.equal(sniffImageType(photo.renditions[0].webp), "webp");
      assert.equal(await exifr.gps(photo.renditions[2].jpeg), undefined);
    });
    await t.step("a truncated file is refused as corrupt", async () => {
      const cut = (await makeJpeg(64, 64)).subarray(0, 2000);
      const r = await refusal(() => pool.process({ bytes: cut }));
      assert.equal(r.reason, "corrupt");
    });
    await t.step("an SVG never reaches the queue", async () => {
      const r = await refusal(() => pool.process({ bytes: SVG_WITH_SCRIPT }));
      assert.equal(r.reason, "svg");
    });
  } finally {
    pool.close();
  }
});

Deno.test("PhotoWorkers: in process where workers are not used", async () => {
  const pool = new PhotoWorkers({ useWorkers: false });
  try {
    const photo = await pool.process({ bytes: await makePng(500, 100) });
    assert.deepEqual(photo.renditions.map((r) => r.width), [480, 500]);
  } finally {
    pool.close();
  }
});
