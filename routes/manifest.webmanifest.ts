import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { listAppIcons } from "@/lib/icons/mod.ts";
import { localizeData } from "@/lib/data/mod.ts";
import { type AppEnv, getLang } from "@/lib/http/mod.ts";
import { getLangMeta, localizePath, t } from "@/lib/i18n/mod.ts";
import { getAssets } from "@/lib/pages/mod.ts";

/**
 * `/manifest.webmanifest` (and `/en/manifest.webmanifest`): the web app
 * manifest in the page's language, so a phone can put the passport on its
 * home screen: it opens at the passport, standalone, in the data set's
 * colours, with the icons drawn from its logo (the build's, or
 * `/icons/…` once another logo is published).
 */
export default function webAppManifest(deps: AppDeps) {
  return new Hono<AppEnv>().get("/", (c) => {
    const lang = getLang(c);
    const { branding, municipality } = localizeData(
      deps.data.current().data,
      lang,
    );
    const loaded = deps.data.current();
    const icons = listAppIcons(
      getAssets(),
      loaded.data.branding,
      loaded.version,
    )
      .filter((icon) => icon.purpose === "any" || icon.purpose === "maskable")
      .map(({ src, size, purpose }) => ({
        src,
        sizes: `${size}x${size}`,
        type: "image/png",
        purpose,
      }));
    const manifest = {
      id: localizePath(lang, "/mi-pasaporte"),
      name: t(lang, "offline.appName", { brand: branding.name }),
      short_name: municipality.name,
      description: branding.tagline,
      lang: getLangMeta(lang).intlLocale,
      dir: "ltr",
      start_url: localizePath(lang, "/mi-pasaporte"),
      scope: "/",
      display: "standalone",
      theme_color: branding.colors.primary,
      background_color: branding.colors.background,
      icons,
    };
    return c.body(JSON.stringify(manifest), 200, {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "no-cache",
    });
  });
}
