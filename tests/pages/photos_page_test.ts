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

Deno.test("provider, route and event photos: on their pages, in the page's language", async (t) => {
  await using setup = await createTestContext();
  const hotel = await setup.deps.photos.upload({
    file: { bytes: await makeJpeg(1200, 800), name: "hotel.jpg" },
    altEs: "El patio del hotel con sus arcos",
    altEn: "The hotel's arched courtyard",
    credit: "Hotel Casona",
    staff: STAFF,
  });
  const fair = await setup.deps.photos.upload({
    file: { bytes: await makePng(800, 600), name: "feria.png" },
    altEs: "Los puestos de la feria de noche",
    altEn: "The fair's stalls at night",
    credit: "Oficina de Turismo",
    staff: STAFF,
  });
  const provider = SHIPPED.providers[0].slug;
  const route = SHIPPED.routes[0].slug;
  const event = SHIPPED.events[1].slug;
  await using ctx = await createTestContext({
    kv: setup.deps.kv,
    // Before the fair: it is among the coming events.
    clockStart: new Date("2026-11-20T18:00:00Z"),
    data: new DataStore(
      await parseTourismData(mutateShipped((data) => {
        data.providers[0].photos = [hotel.id, fair.id];
        data.routes[0].photos = [fair.id];
        data.events[1].photos = [fair.id, hotel.id];
      })),
    ),
  });

  await t.step(
    "a provider's page: its photos, the first eager with fetchpriority",
    async () => {
      const res = await ctx.app.request(`/turismo/servicios/${provider}`);
      assert.equal(res.status, 200);
      const html = await res.text();
      const pictures = html.match(/<picture>[\s\S]*?<\/picture>/g) ?? [];
      assert.equal(pictures.length, 2);
      assert.ok(
        pictures[0].includes(
          `srcset="/fotos/${hotel.id}-480.webp 480w, /fotos/${hotel.id}-960.webp 960w, /fotos/${hotel.id}-1200.webp 1200w"`,
        ),
        pictures[0],
      );
      assert.match(pictures[0], /sizes="\(min-width: 64rem\) 60rem, 100vw"/);
      assert.match(pictures[0], /loading="eager"/);
      assert.match(pictures[0], /fetchpriority="high"/);
      assert.match(pictures[0], /alt="El patio del hotel con sus arcos"/);
      assert.match(pictures[1], /loading="lazy"/);
      assert.doesNotMatch(pictures[1], /fetchpriority/);
      assert.match(html, /Foto: Hotel Casona/);
      const en =
        await (await ctx.app.request(`/en/turismo/servicios/${provider}`))
          .text();
      assert.match(
        en,
        /alt="The hotel&#39;s arched courtyard"|alt="The hotel's arched courtyard"/,
      );
      assert.match(en, /Photo: Hotel Casona/);
    },
  );

  await t.step(
    "a route's and an event's photos on the practical page, all lazy",
    async () => {
      const res = await ctx.app.request("/turismo/informacion-practica");
      assert.equal(res.status, 200);
      const html = await res.text();
      const routeCard = html.match(
        new RegExp(
          `<article class="route-card" id="ruta-${route}">[\\s\\S]*?</article>`,
        ),
      )?.[0] ?? "";
      const routePictures = routeCard.match(/<picture>[\s\S]*?<\/picture>/g) ??
        [];
      assert.equal(routePictures.length, 1);
      assert.match(routePictures[0], /alt="Los puestos de la feria de noche"/);
      assert.match(
        routePictures[0],
        /sizes="\(min-width: 64rem\) 45rem, 100vw"/,
      );
      const eventItem = html.match(
        new RegExp(
          `<li class="event" id="evento-${event}">[\\s\\S]*?</li>\\s*(?=<li class="event"|</ul>)`,
        ),
      )?.[0] ?? "";
      const eventPictures = eventItem.match(/<picture>[\s\S]*?<\/picture>/g) ??
        [];
      assert.equal(eventPictures.length, 2);
      assert.ok(eventPictures[0].includes(`/fotos/${fair.id}-800.webp 800w`));
      assert.ok(eventPictures[1].includes(`/fotos/${hotel.id}-480.webp 480w`));
      const all = html.match(/<img [^>]*>/g)!.filter((img) =>
        img.includes("/fotos/")
      );
      assert.equal(all.length, 3);
      for (const img of all) {
        assert.match(img, /loading="lazy"/, "below the fold");
        assert.doesNotMatch(img, /fetchpriority/);
      }
      // Only the items that name photos show them.
      assert.equal((html.match(/<picture>/g) ?? []).length, 3);
      const en =
        await (await ctx.app.request("/en/turismo/informacion-practica"))
          .text();
      assert.match(
        en,
        /alt="The fair&#39;s stalls at night"|alt="The fair's stalls at night"/,
      );
    },
  );
});
