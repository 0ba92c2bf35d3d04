import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import type { OfflineConfig } from "@/client/offline_config.ts";
import { sha256Hex } from "@/lib/crypto/mod.ts";
import { getIslandMessages, getLangs, localizePath } from "@/lib/i18n/mod.ts";
import { SESSION_TTL_MS } from "@/lib/oauth/mod.ts";
import { getAssets, STATIC_DIR } from "@/lib/pages/mod.ts";
import { OFFLINE_PATH } from "./sin-conexion.tsx";

/**
 * `/sw.js`: the service worker (client/service_worker.ts, bundled by
 * `deno task build`), at the root so its scope is the whole portal. Before
 * the bundle, one line of configuration from the data set in force: the
 * attraction pages to keep, the theme's and logo's addresses, the offline
 * pages' revision. A new build or data set changes these bytes, which is
 * how browsers learn of a new worker (`no-cache`: they always ask).
 */
export default function serviceWorker(deps: AppDeps) {
  return new Hono().get("/", async (c) => {
    const assets = getAssets();
    if (!assets?.serviceWorker) return c.notFound();
    const bundle = await Deno.readTextFile(
      `${STATIC_DIR}${assets.serviceWorker.slice("/static".length)}`,
    );
    const config = await getOfflineConfig(deps, assets.serviceWorker);
    return c.body(
      `self.__OFFLINE_CONFIG=${JSON.stringify(config)};\n${bundle}`,
      200,
      {
        "Content-Type": "text/javascript; charset=utf-8",
        "Cache-Control": "no-cache",
      },
    );
  });
}

/** The worker's configuration for the data set in force (client/offline_config.ts). */
async function getOfflineConfig(
  deps: AppDeps,
  bundle: string,
): Promise<OfflineConfig> {
  const loaded = deps.data.current();
  const v = encodeURIComponent(loaded.version);
  const langs = getLangs();
  // The offline pages show the data set, the build's files and their words;
  // 24 hex digits (96 bits) of their SHA-256 tell one version from another.
  const revision = (await sha256Hex(
    [
      loaded.version,
      bundle,
      ...langs.map((lang) =>
        JSON.stringify(getIslandMessages(lang, "offline").messages)
      ),
    ].join("\n"),
  )).slice(0, 24);
  return {
    version: `${bundle.replace(/^.*\/sw-|\.js$/g, "")}.${loaded.version}`,
    langs: langs.map((lang) => ({ lang, prefix: localizePath(lang, "") })),
    pages: [
      "/",
      "/turismo/atractivos",
      "/turismo/mapa",
      ...loaded.data.attractions.map((attraction) =>
        `/turismo/atractivos/${encodeURIComponent(attraction.slug)}`
      ),
    ],
    passportPath: "/mi-pasaporte",
    personalMaxAgeSeconds: SESSION_TTL_MS / 1000,
    offlinePath: OFFLINE_PATH,
    assets: [`/theme.css?v=${v}`, `/logo.svg?v=${v}`],
    precache: langs.map((lang) => ({
      url: localizePath(lang, OFFLINE_PATH),
      revision,
    })),
  };
}
