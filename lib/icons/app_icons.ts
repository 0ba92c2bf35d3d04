/**
 * The app icons (the web app manifest's and iOS's home-screen icon), drawn
 * from the data set's SVG logo with resvg: `any` on a transparent
 * background, the maskable and Apple ones on the data set's background
 * colour, the logo inside the safe zone. The build draws them for the data
 * set it finds (static/build/icons/, hashed names); once the office
 * publishes another logo or background, the pages name `/icons/…` instead,
 * drawn here once per published version (routes/icons.ts).
 */
import type { AssetManifest } from "@/lib/pages/assets.ts";

export const APP_ICONS = [
  { size: 192, purpose: "any" },
  { size: 512, purpose: "any" },
  { size: 192, purpose: "maskable" },
  { size: 512, purpose: "maskable" },
  // iOS's home screen: opaque, it rounds the corners itself.
  { size: 180, purpose: "apple-touch-icon" },
] as const;

export type AppIconPurpose = (typeof APP_ICONS)[number]["purpose"];

/** What the icons are drawn from. */
export interface IconBranding {
  logoSvg: string;
  colors: { background: string };
}

/** An icon as the manifest and the page's head name it. */
export interface AppIcon {
  src: string;
  size: number;
  purpose: string;
}

/**
 * Of a maskable icon's side, the logo's box: the safe zone is the centred
 * circle of 80% of the side, and a square inside it is 80% / √2 ≈ 56.6%,
 * so no logo shape is cut by a launcher's circle or squircle.
 */
const MASKABLE_LOGO = 0.56;

/** The SVG of one icon: the logo as an image in its box, on its background. */
export function composeIconSvg(
  { logoSvg, colors }: IconBranding,
  size: number,
  purpose: string,
): string {
  const logo = `data:image/svg+xml;base64,${
    btoa(String.fromCharCode(...new TextEncoder().encode(logoSvg)))
  }`;
  const opaque = purpose !== "any";
  const box = purpose === "maskable"
    ? size * MASKABLE_LOGO
    : opaque
    ? size * 0.8
    : size;
  const at = (size - box) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" ` +
    `height="${size}" viewBox="0 0 ${size} ${size}">${
      opaque
        ? `<rect width="${size}" height="${size}" fill="${colors.background}"/>`
        : ""
    }<image x="${at}" y="${at}" width="${box}" height="${box}" ` +
    `preserveAspectRatio="xMidYMid meet" href="${logo}"/></svg>`;
}

/** One icon's PNG (resvg-wasm, loaded with the first icon drawn). */
export async function drawAppIcon(
  branding: IconBranding,
  size: number,
  purpose: string,
): Promise<Uint8Array> {
  const [{ Resvg }, { initResvg }] = await Promise.all([
    import("@resvg/resvg-wasm"),
    import("@/lib/og/resvg.ts"),
  ]);
  await initResvg();
  const resvg = new Resvg(composeIconSvg(branding, size, purpose), {
    font: { loadSystemFonts: false },
  });
  const image = resvg.render();
  const png = image.asPng();
  image.free();
  resvg.free();
  return png;
}

/** Whether the build drew its icons from this logo and background. */
export function isBuiltFrom(
  assets: AssetManifest | null,
  branding: IconBranding,
): boolean {
  const from = assets?.iconsFrom;
  return from !== undefined && from.logoSvg === branding.logoSvg &&
    from.background === branding.colors.background;
}

/**
 * The icons to name for the published data set (`version`): the build's
 * when it drew them from the same logo, else `/icons/<purpose>-<size>.png`
 * of this version.
 */
export function listAppIcons(
  assets: AssetManifest | null,
  branding: IconBranding,
  version: string,
): AppIcon[] {
  if (isBuiltFrom(assets, branding)) return assets?.icons ?? [];
  return APP_ICONS.map(({ size, purpose }) => ({
    src: `/icons/${purpose}-${size}.png?v=${version}`,
    size,
    purpose,
  }));
}
