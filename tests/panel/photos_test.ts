import assert from "node:assert/strict";
import exifr from "exifr";
import { keys } from "@/lib/db/keys.ts";
import { makeJpeg, makePng, SVG_WITH_SCRIPT } from "@/tests/photo_fixtures.ts";
import {
  createTestContext,
  signInStaff,
  type TestContext,
} from "../test_utils.ts";

function form(
  file: { bytes: Uint8Array; name: string; type: string } | undefined,
  fields: Record<string, string> = {
    altEs: "La plaza principal al atardecer",
    altEn: "The main square at sunset",
    credito: "Oficina de Turismo",
  },
): FormData {
  const body = new FormData();
  if (file) {
    body.append(
      "archivo",
      new File([file.bytes as BlobPart], file.name, { type: file.type }),
    );
  }
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

async function upload(
  ctx: TestContext,
  cookie: string,
  body: FormData,
  { json = false } = {},
): Promise<Response> {
  return await ctx.app.request("/panel/fotos", {
    method: "POST",
    headers: {
      cookie,
      origin: "http://localhost",
      ...(json ? { accept: "application/json" } : {}),
    },
    body,
  });
}

/** KV entries of the photo families. */
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

async function photoActions(ctx: TestContext): Promise<string[]> {
  const entries = await Array.fromAsync(
    ctx.deps.kv.list<{ action: string; target: string }>({
      prefix: keys.staffActions(),
    }),
  );
  return entries.filter((e) => e.value.action === "photo_uploaded")
    .map((e) => e.value.target);
}

Deno.test("/panel/fotos: upload, refusals, permissions, serving", async (t) => {
  await using ctx = await createTestContext();
  const admin = await signInStaff(ctx, { role: "admin" });
  const viewer = await signInStaff(ctx, {
    email: "vero@municipio.gob.mx",
    role: "viewer",
  });
  const jpeg = await makeJpeg(1800, 1200);
  let photoId = "";

  await t.step(
    "an admin uploads a phone photo: 303, stored, audited",
    async () => {
      const res = await upload(
        ctx,
        admin,
        form({ bytes: jpeg, name: "IMG_1.jpg", type: "image/jpeg" }),
      );
      assert.equal(res.status, 303, await res.text());
      photoId = new URL(res.headers.get("location")!, "http://x").searchParams
        .get("subida")!;
      assert.match(photoId, /^[0-9a-f]{32}$/);
      assert.deepEqual(await photoActions(ctx), [photoId]);
      const page = await ctx.app.request(`/panel/fotos?subida=${photoId}`, {
        headers: { cookie: admin },
      });
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.ok(
        html.includes(`Foto guardada. Su identificador es ${photoId}.`),
      );
      assert.ok(html.includes(`/fotos/${photoId}-480.webp`), "the thumbnail");
      assert.match(html, /La plaza principal al atardecer/);
      assert.match(html, /Oficina de Turismo/);
    },
  );

  await t.step(
    "the renditions are served immutable, with an ETag, and no GPS",
    async () => {
      for (const width of [480, 960, 1600]) {
        for (
          const [ext, type] of [["webp", "image/webp"], ["jpg", "image/jpeg"]]
        ) {
          const res = await ctx.app.request(
            `/fotos/${photoId}-${width}.${ext}`,
          );
          assert.equal(res.status, 200);
          assert.equal(res.headers.get("content-type"), type);
          assert.equal(
            res.headers.get("cache-control"),
            "public, max-age=31536000, immutable",
          );
          const etag = res.headers.get("etag");
          assert.equal(etag, `"${photoId}-${width}-${ext}"`);
          const bytes = new Uint8Array(await res.arrayBuffer());
          if (ext === "jpg") assert.equal(await exifr.gps(bytes), undefined);
          const again = await ctx.app.request(
            `/fotos/${photoId}-${width}.${ext}`,
            {
              headers: { "if-none-match": etag! },
            },
          );
          assert.equal(again.status, 304);
        }
      }
    },
  );

  await t.step("unknown names are 404", async () => {
    for (
      const path of [
        `/fotos/${"0".repeat(32)}-480.webp`,
        `/fotos/${photoId}-700.webp`,
        `/fotos/${photoId}-480.png`,
        "/fotos/../deno.json",
      ]
    ) {
      const res = await ctx.app.request(path);
      assert.equal(res.status, 404, path);
      await res.body?.cancel();
    }
  });

  await t.step(
    "a viewer sees the library but may not upload: 403, nothing written",
    async () => {
      const page = await ctx.app.request("/panel/fotos", {
        headers: { cookie: viewer },
      });
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.ok(!html.includes('enctype="multipart/form-data"'), "no form");
      const before = await countPhotoEntries(ctx.deps.kv);
      const res = await upload(
        ctx,
        viewer,
        form({
          bytes: await makePng(40, 40),
          name: "a.png",
          type: "image/png",
        }),
      );
      assert.equal(res.status, 403);
      await res.body?.cancel();
      assert.equal(await countPhotoEntries(ctx.deps.kv), before);
    },
  );

  await t.step(
    "a stranger gets the 404 page, a cross-site post the 403",
    async () => {
      const stranger = await ctx.app.request("/panel/fotos");
      assert.equal(stranger.status, 404);
      await stranger.body?.cancel();
      const crossSite = await ctx.app.request("/panel/fotos", {
        method: "POST",
        headers: { cookie: admin, origin: "https://evil.example" },
        body: form({
          bytes: await makePng(40, 40),
          name: "a.png",
          type: "image/png",
        }),
      });
      assert.equal(crossSite.status, 403);
      await crossSite.body?.cancel();
    },
  );

  const png = await makePng(64, 64);
  const bomb = await makePng(1, 1, {
    declare: { width: 50_000, height: 50_000 },
  });
  const big = new Uint8Array(15 * 1024 * 1024 + 10);
  big.set(jpeg);
  const cases: [string, FormData, number, RegExp, string][] = [
    [
      "an SVG with a script",
      form({ bytes: SVG_WITH_SCRIPT, name: "logo.svg", type: "image/svg+xml" }),
      415,
      /Los archivos SVG no se aceptan/,
      "archivo",
    ],
    [
      "a PNG renamed .jpg sent as image/jpeg",
      form({ bytes: png, name: "foto.jpg", type: "image/jpeg" }),
      415,
      /dice ser JPEG, pero su contenido es PNG/,
      "archivo",
    ],
    [
      "a decompression bomb",
      form({ bytes: bomb, name: "b.png", type: "image/png" }),
      413,
      /más de 40 megapíxeles/,
      "archivo",
    ],
    [
      "a file over 15 MB",
      form({ bytes: big, name: "big.jpg", type: "image/jpeg" }),
      413,
      /pesa más de 15 MB/,
      "archivo",
    ],
    [
      "a truncated JPEG",
      form({
        bytes: jpeg.subarray(0, 5000),
        name: "t.jpg",
        type: "image/jpeg",
      }),
      400,
      /incompleto o dañado/,
      "archivo",
    ],
    [
      "a text file",
      form({
        bytes: new TextEncoder().encode("hola"),
        name: "a.txt",
        type: "text/plain",
      }),
      415,
      /no es una foto JPEG, PNG ni WebP/,
      "archivo",
    ],
    ["no file", form(undefined), 400, /Elige una foto para subir/, "archivo"],
    [
      "no alt text in English",
      form({ bytes: png, name: "a.png", type: "image/png" }, {
        altEs: "Una plaza",
        altEn: " ",
        credito: "Yo",
      }),
      400,
      /Escribe el texto alternativo en inglés/,
      "altEn",
    ],
    [
      "no credit",
      form({ bytes: png, name: "a.png", type: "image/png" }, {
        altEs: "Una plaza",
        altEn: "A square",
      }),
      400,
      /Escribe el crédito de la foto/,
      "credito",
    ],
  ];
  for (const [what, body, status, message, field] of cases) {
    await t.step(
      `${what}: ${status} beside its field, nothing stored`,
      async () => {
        const before = await countPhotoEntries(ctx.deps.kv);
        const actions = await photoActions(ctx);
        const res = await upload(ctx, admin, body);
        assert.equal(res.status, status);
        const html = await res.text();
        assert.match(html, message);
        assert.ok(
          html.includes(`id="foto-${field}-error"`),
          "beside the field",
        );
        assert.equal(await countPhotoEntries(ctx.deps.kv), before);
        assert.deepEqual(await photoActions(ctx), actions);
      },
    );
  }

  await t.step(
    "an API client gets {error, details, field, fields}",
    async () => {
      const res = await upload(
        ctx,
        admin,
        form({ bytes: SVG_WITH_SCRIPT, name: "x.svg", type: "image/svg+xml" }, {
          altEs: "",
          altEn: "A",
          credito: "B",
        }),
        { json: true },
      );
      assert.equal(res.status, 415);
      assert.match(res.headers.get("content-type")!, /application\/json/);
      const body = await res.json();
      assert.equal(body.error, "Tipo de contenido no admitido");
      assert.match(body.details, /SVG/);
      assert.equal(typeof body.fields.archivo, "string");
      assert.match(body.fields.altEs, /español/);
    },
  );

  await t.step("the same photo again: 409, said beside the file", async () => {
    const res = await upload(
      ctx,
      admin,
      form({ bytes: jpeg, name: "IMG_1.jpg", type: "image/jpeg" }),
    );
    assert.equal(res.status, 409);
    assert.ok((await res.text()).includes(`con el identificador ${photoId}`));
  });
});
