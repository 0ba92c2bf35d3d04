import assert from "node:assert/strict";
import type { AssetManifest } from "@/lib/pages/assets.ts";
import {
  composeIconSvg,
  drawAppIcon,
  isBuiltFrom,
  listAppIcons,
} from "./app_icons.ts";

const BRANDING = {
  logoSvg:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#c00000"/></svg>',
  colors: { background: "#0e6e5c" },
};

/** The `<image>` box of an icon's SVG: x, y, width, height. */
function readLogoBox(svg: string): number[] {
  const match =
    /<image x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/
      .exec(svg);
  assert.ok(match, svg);
  return match.slice(1).map(Number);
}

Deno.test("a maskable icon keeps the logo inside the launcher's safe zone", () => {
  const svg = composeIconSvg(BRANDING, 512, "maskable");
  assert.match(svg, /<rect width="512" height="512" fill="#0e6e5c"\/>/);
  const [x, y, width] = readLogoBox(svg);
  // The box's corner lies inside the centred circle of 80% of the side.
  const corner = Math.hypot(256 - x, 256 - y);
  assert.ok(corner <= 0.4 * 512, `corner at ${corner} px from the centre`);
  assert.ok(width > 0.5 * 512, `logo ${width} px wide`);
});

Deno.test("an `any` icon is the logo alone on transparency, an Apple one opaque", () => {
  const any = composeIconSvg(BRANDING, 192, "any");
  assert.doesNotMatch(any, /<rect/);
  assert.deepEqual(readLogoBox(any), [0, 0, 192, 192]);
  assert.match(composeIconSvg(BRANDING, 180, "apple-touch-icon"), /<rect /);
});

Deno.test("an icon is a PNG of its size", async () => {
  const png = await drawAppIcon(BRANDING, 192, "maskable");
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
  assert.equal(view.getUint32(16), 192); // IHDR width
  assert.equal(view.getUint32(20), 192); // IHDR height
});

Deno.test("the build's icons are named only while the logo and background are the ones it drew", () => {
  const built = [{
    src: "/static/build/icons/any-192.abc.png",
    size: 192,
    purpose: "any",
  }];
  const assets = {
    icons: built,
    iconsFrom: { logoSvg: BRANDING.logoSvg, background: "#0e6e5c" },
  } as unknown as AssetManifest;
  assert.ok(isBuiltFrom(assets, BRANDING));
  assert.deepEqual(listAppIcons(assets, BRANDING, "v1"), built);

  const recoloured = { ...BRANDING, colors: { background: "#000000" } };
  assert.ok(!isBuiltFrom(assets, recoloured));
  assert.ok(!isBuiltFrom(null, BRANDING));
  const drawn = listAppIcons(assets, recoloured, "v7");
  assert.equal(drawn.length, 5);
  assert.ok(drawn.every((icon) => icon.src.startsWith("/icons/")));
  assert.ok(drawn.every((icon) => icon.src.endsWith(".png?v=v7")));
});
