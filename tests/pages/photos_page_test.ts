import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { makeJpeg, makePng } from "@/tests/photo_fixtures.ts";
import { createTestContext, mutateShipped, SHIPPED } from "../test_utils.ts";

const STAFF = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
} as const;

Deno.test("an attraction page shows its photos as <picture> with srcset, sizes and room kept", async (t) => {
  const slug = SHIPPED.attractions[0].slug;
  // Ids are content hashes: upload first, then name them in the data set.
  await using setup = await createTestContext();
  const first = await setup.deps.photos.upload({
    file: { bytes: await makeJpeg(2000, 1500), name: "a.jpg" },
    altEs: "La fachada al amanecer",
    altEn: "The facade at dawn",
    credit: "Oficina de Turismo",
    staff: STAFF,
  });
  const second = await setup.deps.photos.upload({
    file: { bytes: await makePng(800, 600), name: "b.png" },
    altEs: "El patio",
    altEn: "The courtyard",
    credit: "Ana López",
    staff: STAFF,
  });
  const missing = "f".repeat(32);
  await using ctx = await createTestContext({
    kv: setup.deps.kv,
    data: new DataStore(
      await parseTourismData(mutateShipped((data) => {
        data.attractions[0].photos = [first.id, missing, second.id];
      })),
    ),
  });

  await t.step(
    "Spanish: both photos, the first eager, the unknown id nothing",
    async () => {
      const res = await ctx.app.request(`/turismo/atractivos/${slug}`);
      assert.equal(res.status, 200);
      const html = await res.text();
      const pictures = html.match(/<picture>[\s\S]*?<\/picture>/g) ?? [];
      assert.equal(pictures.length, 2);
      assert.ok(
        pictures[0].includes(
          `srcset="/fotos/${first.id}-480.webp 480w, /fotos/${first.id}-960.webp 960w, /fotos/${first.id}-1600.webp 1600w"`,
        ),
      );
      assert.match(pictures[0], /type="image\/webp"/);
      assert.match(pictures[0], /sizes="/);
      assert.match(pictures[0], /width="960" height="720"/);
      assert.match(pictures[0], /loading="eager"/);
      assert.match(pictures[0], /alt="La fachada al amanecer"/);
      assert.match(pictures[1], /loading="lazy"/);
      assert.match(pictures[1], /width="800" height="600"/);
      assert.ok(!html.includes(missing), "an id with no photo renders nothing");
      assert.match(html, /Foto: Oficina de Turismo/);
      assert.match(html, /Foto: Ana López/);
    },
  );

  await t.step("English: the English alt text and credit line", async () => {
    const html = await (await ctx.app.request(`/en/turismo/atractivos/${slug}`))
      .text();
    assert.match(html, /alt="The facade at dawn"/);
    assert.match(html, /Photo: Oficina de Turismo/);
  });

  await t.step("a page with no photos shows no picture", async () => {
    const other = SHIPPED.attractions[1].slug;
    const html = await (await ctx.app.request(`/turismo/atractivos/${other}`))
      .text();
    assert.ok(!html.includes("<picture>"));
  });
});
