import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import {
  APP_ICONS,
  type AppIconPurpose,
  drawAppIcon,
} from "@/lib/icons/mod.ts";
import { PAGE_SECURITY_HEADERS } from "@/lib/http/mod.ts";

/**
 * `/icons/<purpose>-<size>.png?v=<data version>`: the app icons of a logo
 * the office published after the build (the build's own are under
 * /static/build/icons/), drawn once per published version and kept in
 * memory (five small PNGs). An old `v` gets today's icon, cached briefly.
 */
export default function appIcons(deps: AppDeps) {
  let drawn: { version: string; icons: Map<string, Promise<Uint8Array>> } = {
    version: "",
    icons: new Map(),
  };
  return new Hono().get("/:file", async (c) => {
    const match = /^([a-z-]+)-(\d+)\.png$/.exec(c.req.param("file"));
    const icon = match &&
      APP_ICONS.find((i) =>
        i.purpose === match[1] as AppIconPurpose && i.size === Number(match[2])
      );
    if (!icon) return c.notFound();
    const loaded = deps.data.current();
    if (drawn.version !== loaded.version) {
      drawn = { version: loaded.version, icons: new Map() };
    }
    const key = `${icon.purpose}-${icon.size}`;
    let png = drawn.icons.get(key);
    if (!png) {
      png = drawAppIcon(loaded.data.branding, icon.size, icon.purpose);
      drawn.icons.set(key, png);
      png.catch(() => drawn.icons.delete(key));
    }
    const current = c.req.query("v") === loaded.version;
    return c.body(await png as Uint8Array<ArrayBuffer>, 200, {
      ...PAGE_SECURITY_HEADERS,
      "Content-Type": "image/png",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": current
        ? "public, max-age=31536000, immutable"
        : "public, max-age=60",
    });
  });
}
