/**
 * An attraction's share card shows its first photo (issue 42 item 4): drawn
 * at run time from the library, beside the card's text; an id the library
 * does not hold draws the card without one, and deleting the photo draws
 * the card again without it: at once on the instance that deleted it,
 * within {@linkcode PAGE_CARD_PHOTO_CHECK_MS} on another on the same KV.
 */
import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { makeJpeg } from "@/tests/photo_fixtures.ts";
import { ensureBuild } from "@/scripts/build.ts";
import { PAGE_CARD_PHOTO_CHECK_MS } from "@/lib/og/share_cards.ts";
import { readCardPhotoContrast } from "../card_pixels.ts";
import {
  createTestContext,
  mutateShipped,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

await ensureBuild();

const STAFF = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
} as const;

/** The card the page's `og:image` names: how far its photo box is from plain. */
async function readCard(ctx: TestContext, page: string) {
  return {
    photoContrast: await readCardPhotoContrast(
      (path) => ctx.app.request(path),
      page,
    ),
  };
}

Deno.test("an attraction's card shows its first photo; without it, or once deleted, none", async (t) => {
  await using setup = await createTestContext();
  const photo = await setup.deps.photos.upload({
    file: { bytes: await makeJpeg(1200, 900), name: "plaza.jpg" },
    altEs: "La plaza principal",
    altEn: "The main square",
    credit: "Oficina de Turismo",
    staff: STAFF,
  });
  const [withPhoto, withUnknown, without] = SHIPPED.attractions;
  await using ctx = await createTestContext({
    kv: setup.deps.kv,
    data: new DataStore(
      await parseTourismData(mutateShipped((data) => {
        data.attractions[0].photos = [photo.id];
        data.attractions[1].photos = ["e".repeat(32)];
      })),
    ),
  });
  const page = (slug: string) => `/turismo/atractivos/${slug}`;

  await t.step(
    "the photo is drawn beside the text, in both languages",
    async () => {
      for (const prefix of ["", "/en"]) {
        const card = await readCard(ctx, `${prefix}${page(withPhoto.slug)}`);
        assert.ok(
          card.photoContrast > 150,
          `photo drawn: ${card.photoContrast}`,
        );
      }
    },
  );

  await t.step(
    "a card whose photo id the library lacks, or with no photo, is plain",
    async () => {
      for (const slug of [withUnknown.slug, without.slug]) {
        const card = await readCard(ctx, page(slug));
        assert.ok(card.photoContrast < 10, `${slug}: ${card.photoContrast}`);
      }
    },
  );

  // Another instance on the same KV, which has drawn the card with the photo.
  await using other = await createTestContext({
    kv: setup.deps.kv,
    data: new DataStore(
      await parseTourismData(mutateShipped((data) => {
        data.attractions[0].photos = [photo.id];
      })),
    ),
  });
  const otherCard = () => readCard(other, page(withPhoto.slug));
  assert.ok((await otherCard()).photoContrast > 150);

  await t.step(
    "deleting the photo in the console draws the card without it",
    async () => {
      const admin = await signInStaff(ctx, { role: "admin" });
      const res = await ctx.app.request(`/panel/fotos/${photo.id}/borrar`, {
        method: "POST",
        headers: { cookie: admin, origin: "http://localhost" },
      });
      assert.equal(res.status, 303);
      const card = await readCard(ctx, page(withPhoto.slug));
      assert.ok(card.photoContrast < 10, `no photo: ${card.photoContrast}`);
    },
  );

  await t.step(
    "another instance's card drops it within PAGE_CARD_PHOTO_CHECK_MS",
    async () => {
      other.clock.advance(PAGE_CARD_PHOTO_CHECK_MS - 1_000);
      assert.ok(
        (await otherCard()).photoContrast > 150,
        "kept in memory until its check is due",
      );
      other.clock.advance(1_000);
      const card = await otherCard();
      assert.ok(card.photoContrast < 10, `no photo: ${card.photoContrast}`);
    },
  );
});
