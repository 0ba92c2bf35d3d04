/**
 * How long the photo library takes to prepare a 12-megapixel phone photo
 * (4032 x 3024, a JPEG with EXIF): decode, three widths, WebP and JPEG each
 * (`deno bench -A bench/photos_bench.ts`; figures in docs/PERFORMANCE.md).
 * In process, as the photo worker runs it (lib/photos/worker.ts).
 */
import { processPhoto } from "@/lib/photos/process.ts";
import { makeJpeg } from "@/tests/photo_fixtures.ts";

const phonePhoto = await makeJpeg(4032, 3024);
// Compile the codecs once, as a worker does before its first photo.
await processPhoto({ bytes: await makeJpeg(64, 48) });

Deno.bench("processPhoto: 12 MP phone JPEG to 480/960/1600 WebP + JPEG", {
  n: 3,
  warmup: 0,
}, async () => {
  await processPhoto({ bytes: phonePhoto, mediaType: "image/jpeg" });
});
