/**
 * The app icons follow the logo the office publishes: with the logo the
 * build drew them from, the manifest and the page's head name the build's
 * hashed files; once another logo is published, they name `/icons/…` of
 * that version, drawn from it (a phone adding the portal to its home
 * screen gets the new logo), and publishing the old logo again brings the
 * build's files back.
 */
import assert from "node:assert/strict";
import { publishText } from "@/lib/content/mod.ts";
import { decodePixels } from "@/lib/photos/codecs.ts";
import { ensureBuild } from "@/scripts/build.ts";
import {
  createTestContext,
  mutateShipped,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

await ensureBuild();

const RED_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' +
  '<rect width="10" height="10" fill="#c00000"/></svg>';

async function readIcons(ctx: TestContext) {
  const manifest = await (await ctx.app.request("/manifest.webmanifest"))
    .json() as { icons: { src: string; sizes: string; purpose: string }[] };
  const html = await (await ctx.app.request("/")).text();
  const apple = /<link rel="apple-touch-icon" href="([^"]+)"/.exec(html)?.[1];
  return { manifest: manifest.icons, apple };
}

/** The RGB at the icon's centre. */
async function centreOf(ctx: TestContext, src: string) {
  const res = await ctx.app.request(src);
  assert.equal(res.status, 200, src);
  assert.equal(res.headers.get("content-type"), "image/png");
  const pixels = await decodePixels(
    new Uint8Array(await res.arrayBuffer()),
    "png",
  );
  const i = ((pixels.height >> 1) * pixels.width + (pixels.width >> 1)) * 4;
  return {
    size: `${pixels.width}x${pixels.height}`,
    rgb: [...pixels.data.slice(i, i + 3)],
    cache: res.headers.get("cache-control"),
  };
}

Deno.test("the app icons follow a published logo, and come back to the build's", async (t) => {
  await using ctx = await createTestContext({ data: undefined });
  const publish = async (text: string) =>
    await publishText({ ...ctx.deps, check: ctx.deps.checkContent }, {
      text,
      source: "console",
      by: "ana@municipio.gob.mx",
    });

  await t.step("the shipped logo: the build's files", async () => {
    const { manifest, apple } = await readIcons(ctx);
    assert.equal(manifest.length, 4);
    for (const icon of manifest) {
      assert.match(icon.src, /^\/static\/build\/icons\/[a-z]+-\d+-\w+\.png$/);
    }
    assert.match(apple!, /^\/static\/build\/icons\/apple-touch-icon-180-/);
  });

  await t.step(
    "a new logo published: icons of that version, drawn from it",
    async () => {
      await publish(mutateShipped((data) => {
        data.branding.logoSvg = RED_LOGO;
      }));
      const version = ctx.deps.data.current().version;
      const { manifest, apple } = await readIcons(ctx);
      assert.deepEqual(
        manifest.map((icon) => icon.src),
        [
          `/icons/any-192.png?v=${version}`,
          `/icons/any-512.png?v=${version}`,
          `/icons/maskable-192.png?v=${version}`,
          `/icons/maskable-512.png?v=${version}`,
        ],
      );
      assert.equal(apple, `/icons/apple-touch-icon-180.png?v=${version}`);
      for (const src of [...manifest.map((icon) => icon.src), apple!]) {
        const icon = await centreOf(ctx, src);
        assert.deepEqual(icon.rgb, [0xc0, 0, 0], src);
        assert.equal(icon.cache, "public, max-age=31536000, immutable");
      }
      assert.equal((await centreOf(ctx, manifest[1].src)).size, "512x512");
      // An old version's URL gets today's icon, briefly cached.
      const old = await centreOf(ctx, "/icons/any-192.png?v=old");
      assert.deepEqual(old.rgb, [0xc0, 0, 0]);
      assert.equal(old.cache, "public, max-age=60");
      for (const bad of ["/icons/any-193.png", "/icons/evil-192.png"]) {
        const res = await ctx.app.request(bad);
        assert.equal(res.status, 404, bad);
        await res.body?.cancel();
      }
    },
  );

  await t.step("the shipped logo again: the build's files again", async () => {
    await publish(JSON.stringify(SHIPPED));
    const { manifest, apple } = await readIcons(ctx);
    assert.match(manifest[0].src, /^\/static\/build\/icons\//);
    assert.match(apple!, /^\/static\/build\/icons\//);
  });
});
