/**
 * The offline mode's files over HTTP: the service worker at `/sw.js`, the
 * web app manifest of each language, the offline page, the icons, the
 * pages' links to them, and the sign-out's and erasure's `Clear-Site-Data`.
 * What a browser does with them: tests/browser/offline_browser_test.ts.
 */
import assert from "node:assert/strict";
import type { OfflineConfig } from "@/client/offline_config.ts";
import { CONTENT_SECURITY_POLICY } from "@/lib/http/security_headers.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  assertJson,
  createTestContext,
  postJson,
  SHIPPED,
} from "../test_utils.ts";

const ORIGIN = "http://localhost";

Deno.test("the offline mode's files", async (t) => {
  await ensureBuild();
  await using ctx = await createTestContext();

  await t.step(
    "GET /sw.js: the worker, never cached by HTTP, with every attraction page to keep and no staff or API path",
    async () => {
      const res = await ctx.app.request("/sw.js");
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get("content-type"),
        "text/javascript; charset=utf-8",
      );
      assert.equal(res.headers.get("cache-control"), "no-cache");
      assert.equal(res.headers.get("service-worker-allowed"), null);
      const body = await res.text();
      const config = JSON.parse(
        /^self\.__OFFLINE_CONFIG=(.*);\n/.exec(body)![1],
      ) as OfflineConfig;
      assert.deepEqual(
        config.pages,
        [
          "/",
          "/turismo/atractivos",
          "/turismo/mapa",
          ...SHIPPED.attractions.map((a) => `/turismo/atractivos/${a.slug}`),
        ],
      );
      assert.deepEqual(config.langs, [
        { lang: "es", prefix: "" },
        { lang: "en", prefix: "/en" },
      ]);
      assert.deepEqual(
        config.precache.map((entry) => entry.url),
        ["/sin-conexion", "/en/sin-conexion"],
      );
      assert.ok(!body.includes("__WB_MANIFEST"), "the precache list is in");
      assert.match(body, /"\/static\/build\/client-[A-Z2-7]{8}\.js"/);
      assert.doesNotMatch(
        JSON.stringify(config),
        /"\/(?:en\/)?(?:panel|api|auth)\//,
      );
    },
  );

  await t.step(
    "GET /manifest.webmanifest and /en/manifest.webmanifest: installable, at the passport, in the language",
    async () => {
      for (
        const [path, lang, start] of [
          ["/manifest.webmanifest", "es-MX", "/mi-pasaporte"],
          ["/en/manifest.webmanifest", "en-US", "/en/mi-pasaporte"],
        ]
      ) {
        const res = await ctx.app.request(path);
        assert.equal(res.status, 200);
        assert.equal(
          res.headers.get("content-type"),
          "application/manifest+json; charset=utf-8",
        );
        const manifest = await res.json();
        assert.equal(manifest.lang, lang);
        assert.equal(manifest.start_url, start);
        assert.equal(manifest.display, "standalone");
        assert.equal(manifest.theme_color, SHIPPED.branding.colors.primary);
        assert.ok(manifest.name && manifest.short_name);
        const sizes = manifest.icons.map((
          icon: { sizes: string; purpose: string },
        ) => `${icon.sizes} ${icon.purpose}`);
        for (
          const wanted of [
            "192x192 any",
            "512x512 any",
            "192x192 maskable",
            "512x512 maskable",
          ]
        ) {
          assert.ok(sizes.includes(wanted), wanted);
        }
        for (const icon of manifest.icons) {
          const png = await ctx.app.request(icon.src);
          assert.equal(png.status, 200);
          assert.equal(png.headers.get("content-type"), "image/png");
          assert.equal(
            png.headers.get("cache-control"),
            "public, max-age=31536000, immutable",
          );
          const bytes = new Uint8Array(await png.arrayBuffer());
          const view = new DataView(bytes.buffer);
          const side = Number(icon.sizes.split("x")[0]);
          assert.equal(view.getUint32(16), side, `${icon.src} width`);
          assert.equal(view.getUint32(20), side, `${icon.src} height`);
        }
      }
    },
  );

  await t.step(
    "pages link their language's manifest and the Apple icon; the CSP names the worker and the manifest",
    async () => {
      for (
        const [path, manifest] of [
          ["/", "/manifest.webmanifest"],
          ["/en/turismo/atractivos", "/en/manifest.webmanifest"],
        ]
      ) {
        const res = await ctx.app.request(path);
        const html = await res.text();
        assert.ok(html.includes(`<link rel="manifest" href="${manifest}"/>`));
        assert.match(
          html,
          /<link rel="apple-touch-icon" href="\/static\/build\/icons\/apple-touch-icon-180-[A-Z2-7]{8}\.png"\/>/,
        );
        assert.match(html, /<meta name="theme-color" content="#[0-9A-F]{6}"/i);
      }
      assert.match(CONTENT_SECURITY_POLICY, /worker-src 'self'/);
      assert.match(CONTENT_SECURITY_POLICY, /manifest-src 'self'/);
    },
  );

  await t.step(
    "GET /sin-conexion and /en/sin-conexion: the offline page in each language, not indexed",
    async () => {
      const es = await (await ctx.app.request("/sin-conexion")).text();
      assert.match(es, /<h1 id="offline-title">Sin conexión<\/h1>/);
      assert.match(es, /Los 17 atractivos/);
      assert.match(es, /<meta name="robots" content="noindex"/);
      const en = await (await ctx.app.request("/en/sin-conexion")).text();
      assert.match(
        en,
        /<h1 id="offline-title">You(?:'|&#39;|&#x27;)re offline<\/h1>/,
      );
      assert.match(en, /All 17 attractions/);
    },
  );

  await t.step(
    "sign-out and erasure tell the browser to clear the device: Clear-Site-Data",
    async () => {
      for (const path of ["/auth/signout", "/mi-pasaporte/borrar"]) {
        const opened = await postJson(ctx, "/api/session-token", {
          guest: true,
        }, { origin: ORIGIN });
        await assertJson(opened, 200);
        const cookie = opened.headers.getSetCookie()[0].split(";")[0];
        const res = await ctx.app.request(path, {
          method: "POST",
          headers: {
            cookie,
            origin: ORIGIN,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "",
        });
        assert.equal(res.status, 303, path);
        assert.equal(
          res.headers.get("clear-site-data"),
          '"cache", "storage"',
          path,
        );
      }
    },
  );
});
