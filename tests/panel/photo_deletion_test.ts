import assert from "node:assert/strict";
import { DataStore } from "@/lib/data/data_store.ts";
import { parseTourismData } from "@/lib/data/tourism_data.ts";
import { keys } from "@/lib/db/keys.ts";
import { PAGE_TTL_MS } from "@/lib/pages/mod.ts";
import { PHOTO_FILE_CHECK_MS } from "@/lib/photos/library.ts";
import { makeJpeg } from "@/tests/photo_fixtures.ts";
import {
  createTestContext,
  mutateShipped,
  SHIPPED,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

const UPLOADER = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
} as const;

function post(ctx: TestContext, path: string, cookie: string) {
  return ctx.app.request(path, {
    method: "POST",
    headers: {
      cookie,
      origin: "http://localhost",
      "content-type": "application/x-www-form-urlencoded",
    },
  });
}

async function countPhotoEntries(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for (
    const family of [
      "photos",
      "photos_by_time",
      "photo_chunks",
      "photo_uploads",
    ]
  ) {
    for await (const _ of kv.list({ prefix: [family] })) n++;
  }
  return n;
}

async function pictureCount(ctx: TestContext, path: string): Promise<number> {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  return ((await res.text()).match(/<picture>/g) ?? []).length;
}

Deno.test("/panel/fotos: an admin deletes a photo; its pages stop showing it", async (t) => {
  await using setup = await createTestContext();
  const photo = await setup.deps.photos.upload({
    file: { bytes: await makeJpeg(1000, 750), name: "plaza.jpg" },
    altEs: "La plaza principal al atardecer",
    altEn: "The main square at sunset",
    credit: "Oficina de Turismo",
    staff: UPLOADER,
  });
  const attraction = SHIPPED.attractions[0];
  const provider = SHIPPED.providers[0];
  const raw = mutateShipped((data) => {
    data.attractions[0].photos = [photo.id];
    data.providers[0].photos = [photo.id];
  });
  // Two instances on one KV, each with its page cache, as the service runs.
  await using ctx = await createTestContext({
    kv: setup.deps.kv,
    cachePages: true,
    data: new DataStore(await parseTourismData(raw)),
  });
  await using other = await createTestContext({
    kv: setup.deps.kv,
    cachePages: true,
    data: new DataStore(await parseTourismData(raw)),
  });
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "vero@municipio.gob.mx",
    role: "viewer",
  });
  const attractionPage = `/turismo/atractivos/${attraction.slug}`;
  const providerPage = `/turismo/servicios/${provider.slug}`;
  const file = `/fotos/${photo.id}-480.webp`;

  await t.step(
    "the library says where the photo is shown, and offers its deletion",
    async () => {
      const html = await (await ctx.app.request("/panel/fotos", {
        headers: { cookie: admin },
      })).text();
      assert.ok(html.includes(`Atractivo: ${attraction.name}`));
      assert.ok(html.includes(`Proveedor: ${provider.name}`));
      assert.ok(html.includes(`href="${attractionPage}"`));
      assert.ok(
        html.includes(`action="/panel/fotos/${photo.id}/borrar/confirmar"`),
      );
      const forViewer = await (await ctx.app.request("/panel/fotos", {
        headers: { cookie: viewer },
      })).text();
      assert.ok(
        !forViewer.includes("/borrar/confirmar"),
        "no button for a viewer",
      );
    },
  );

  await t.step(
    "both instances show it (their caches now hold page and file)",
    async () => {
      for (const instance of [ctx, other]) {
        assert.equal(await pictureCount(instance, attractionPage), 1);
        assert.equal(await pictureCount(instance, providerPage), 1);
        const res = await instance.app.request(file);
        assert.equal(res.status, 200);
        await res.body?.cancel();
      }
    },
  );

  await t.step("a viewer may not delete: 403, nothing changed", async () => {
    const before = await countPhotoEntries(ctx.deps.kv);
    for (const path of ["borrar/confirmar", "borrar"]) {
      const res = await post(ctx, `/panel/fotos/${photo.id}/${path}`, viewer);
      assert.equal(res.status, 403, path);
      await res.body?.cancel();
    }
    const crossSite = await ctx.app.request(`/panel/fotos/${photo.id}/borrar`, {
      method: "POST",
      headers: { cookie: admin, origin: "https://evil.example" },
    });
    assert.equal(crossSite.status, 403);
    await crossSite.body?.cancel();
    assert.equal(await countPhotoEntries(ctx.deps.kv), before);
  });

  await t.step(
    "the confirmation names the pages and deletes nothing",
    async () => {
      const res = await post(
        ctx,
        `/panel/fotos/${photo.id}/borrar/confirmar`,
        admin,
      );
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.ok(
        html.includes(
          `Se borrará de la biblioteca la foto «La plaza principal al atardecer» (${photo.id}), con todos sus tamaños.`,
        ),
      );
      assert.ok(html.includes("Estas páginas dejarán de mostrarla"));
      assert.ok(html.includes(`Atractivo: ${attraction.name}`));
      assert.ok(html.includes(`action="/panel/fotos/${photo.id}/borrar"`));
      assert.ok(
        await ctx.deps.photos.getPhotos([photo.id]).then((p) => p.length),
      );
    },
  );

  await t.step(
    "the deletion: 303 to the library, audited, no KV entry left",
    async () => {
      const res = await post(ctx, `/panel/fotos/${photo.id}/borrar`, admin);
      assert.equal(res.status, 303);
      assert.equal(
        res.headers.get("location"),
        `/panel/fotos?borrada=${photo.id}`,
      );
      assert.equal(await countPhotoEntries(ctx.deps.kv), 0);
      const audit = (await Array.fromAsync(
        ctx.deps.kv.list<
          { action: string; target: string; staff: { email: string } }
        >({
          prefix: keys.staffActions(),
        }),
      )).filter((e) => e.value.action === "photo_deleted");
      assert.deepEqual(
        audit.map((e) => [e.value.target, e.value.staff.email]),
        [[photo.id, "ana@municipio.gob.mx"]],
      );
      const library =
        await (await ctx.app.request(res.headers.get("location")!, {
          headers: { cookie: admin },
        })).text();
      assert.ok(library.includes(`Foto borrada: ${photo.id}.`));
      assert.ok(library.includes("Todavía no hay fotos."));
      const log = await (await ctx.app.request("/panel/auditoria", {
        headers: { cookie: admin },
      })).text();
      assert.ok(log.includes("Borró una foto de la biblioteca"));
    },
  );

  await t.step(
    "this instance: its pages and the file stop at once",
    async () => {
      assert.equal(await pictureCount(ctx, attractionPage), 0);
      assert.equal(await pictureCount(ctx, providerPage), 0);
      assert.equal(await pictureCount(ctx, `/en${attractionPage}`), 0);
      const res = await ctx.app.request(file);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    },
  );

  await t.step(
    "the other instance: within its page TTL and its file check",
    async () => {
      other.clock.advance(Math.max(PAGE_TTL_MS, PHOTO_FILE_CHECK_MS));
      assert.equal(await pictureCount(other, attractionPage), 0);
      assert.equal(await pictureCount(other, providerPage), 0);
      const res = await other.app.request(file);
      assert.equal(res.status, 404);
      await res.body?.cancel();
    },
  );

  await t.step("deleting it again, or an id of nothing: 404", async () => {
    for (const id of [photo.id, "0".repeat(32), "nada"]) {
      const res = await post(ctx, `/panel/fotos/${id}/borrar`, admin);
      assert.equal(res.status, 404, id);
      await res.body?.cancel();
      const confirm = await post(
        ctx,
        `/panel/fotos/${id}/borrar/confirmar`,
        admin,
      );
      assert.equal(confirm.status, 404, id);
      await confirm.body?.cancel();
    }
  });
});
