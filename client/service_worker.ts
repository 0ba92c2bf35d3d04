/**
 * The service worker (`/sw.js`, scope `/`), built on Workbox: the portal's
 * passport, list and attraction pages open with no signal after one visit.
 *
 * - **Precache** (Workbox's default cache, `workbox-precache-v2-<scope>`):
 *   the build's hashed files (island chunks, the stylesheet, the fonts, the
 *   icons), listed by `deno task build` in place of `self.__WB_MANIFEST`,
 *   and the offline page of each language, whose revision `/sw.js` names.
 * - **Public pages** (home, attraction list, map page, every attraction page, in each
 *   language the tourist uses): network first, the cached copy when the
 *   network fails or is slower than {@linkcode NETWORK_TIMEOUT_S}; all of
 *   them are fetched when the worker installs, so a page never opened is
 *   there too.
 * - **Personal pages** (`/mi-pasaporte`, `/ruta/<code>`, in any language):
 *   the same, in a cache of their own that a sign-out and an erasure delete
 *   (`clearPersonalCaches()` in client/offline.ts, and the responses'
 *   `Clear-Site-Data`).
 * - **No guide code** in any cache: a sign's QR link (`…?codigo=`) is kept
 *   under the page's address without it ({@linkcode forgetGuideCode}).
 * - **Anything else a page opens** goes to the network untouched; a page
 *   that fails gets the offline page in its language. The staff console,
 *   sign-in and the API are never handled, so never cached.
 * - **Background Sync**: the check-in queue is sent on `sync` events with
 *   its tag (client/check_in_queue.ts).
 *
 * A new worker waits until no page uses the old one (no `skipWaiting`): an
 * update takes effect on the next visit, never in the middle of a page.
 * How it all fits: docs/OFFLINE.md.
 */
/// <reference lib="webworker" />
import { cacheNames, copyResponse } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from "workbox-precaching";
import { registerRoute, setCatchHandler } from "workbox-routing";
import {
  CacheFirst,
  NetworkFirst,
  NetworkOnly,
  StaleWhileRevalidate,
  type Strategy,
} from "workbox-strategies";
import type { WorkboxPlugin } from "workbox-core/types.js";
import {
  CHECK_IN_SYNC_TAG,
  syncQueuedCheckInsInBackground,
} from "./check_in_queue.ts";
import {
  ASSETS_CACHE,
  type OfflineConfig,
  PAGES_CACHE,
  PERSONAL_CACHE,
  PHOTOS_CACHE,
  WARM_UP_HEADER,
  type WorkerMessage,
} from "./offline_config.ts";

declare const self: ServiceWorkerGlobalScope & {
  /** The build's hashed files (scripts/build.ts writes the list here). */
  __WB_MANIFEST: PrecacheEntry[];
  /** The data set's pages and the offline pages, written by `/sw.js`. */
  __OFFLINE_CONFIG: OfflineConfig;
};

/** A page slower than this is answered from the cache (patchy coverage). */
const NETWORK_TIMEOUT_S = 4;

const config = self.__OFFLINE_CONFIG;

/** A path split into its language and the default-language path. */
function splitPath(pathname: string): { lang: string; path: string } {
  for (const { lang, prefix } of config.langs) {
    if (prefix && (pathname === prefix || pathname.startsWith(`${prefix}/`))) {
      return { lang, path: pathname.slice(prefix.length) || "/" };
    }
  }
  return { lang: config.langs[0].lang, path: pathname };
}

function prefixOf(lang: string): string {
  return config.langs.find((l) => l.lang === lang)?.prefix ??
    config.langs[0].prefix;
}

/** Paths the worker never answers: the staff, sign-in, the API, itself. */
function isNeverHandled(path: string): boolean {
  return /^\/(?:panel|auth|api|og)(?:\/|$)/.test(path) ||
    path === "/sw.js" || path.endsWith("/manifest.webmanifest");
}

/** The tourist's own pages: the passport and route pages. */
function isPersonalPage(path: string): boolean {
  return path === "/mi-pasaporte" || /^\/ruta\/[^/]+$/.test(path);
}

/** The public pages kept for offline use (the map's tiles are not: see docs/OFFLINE.md). */
function isPublicPage(path: string): boolean {
  return path === "/" || path === "/turismo/atractivos" ||
    path === "/turismo/mapa" ||
    /^\/turismo\/atractivos\/[^/]+$/.test(path);
}

/** Whether a response says it must not be stored. */
function isPrivate(response: Response): boolean {
  return /\b(?:private|no-store)\b/i.test(
    response.headers.get("Cache-Control") ?? "",
  );
}

/**
 * Stores only complete pages: a 200 reached without a redirect (a
 * redirected response cannot answer a navigation), and, outside the
 * personal cache, none marked `private` or `no-store`.
 */
function storeOnly({ personal }: { personal: boolean }): WorkboxPlugin {
  return {
    cacheWillUpdate: ({ response }) =>
      Promise.resolve(
        response.status === 200 && !response.redirected &&
          (personal || !isPrivate(response))
          ? response
          : null,
      ),
  };
}

/** The query parameter of a sign's QR link that carries its guide code. */
const GUIDE_CODE_PARAM = "codigo";

/** `url` without a guide code (`?codigo=`): itself when it has none. */
function withoutGuideCode(url: string): string {
  const clean = new URL(url);
  if (!clean.searchParams.has(GUIDE_CODE_PARAM)) return url;
  clean.searchParams.delete(GUIDE_CODE_PARAM);
  return clean.href;
}

/**
 * Keeps a sign's guide code out of the caches: a page opened from its QR
 * link (`…?codigo=`) is stored, and looked up, under its address without
 * the code, and stored as a copy that does not remember the address it
 * came from (a cached response keeps its URL). The page reads the code
 * from its own address (client/linked_code.ts), not from the cache; the
 * server never writes it into the page.
 */
const forgetGuideCode: WorkboxPlugin = {
  cacheKeyWillBeUsed: ({ request }) => {
    const url = withoutGuideCode(request.url);
    return Promise.resolve(
      // Its headers kept, for the cache's `Vary` matching (not its mode: a
      // navigation's cannot be copied).
      url === request.url ? request : new Request(url, {
        headers: request.headers,
        credentials: request.credentials,
      }),
    );
  },
  cacheWillUpdate: async ({ response }) =>
    response.url && withoutGuideCode(response.url) !== response.url
      ? await copyResponse(response)
      : response,
};

/**
 * When the passport page is stored, its links to the tourist's route page
 * are fetched into the personal cache too: that page then opens offline
 * although it was never opened.
 */
const warmOwnRoute: WorkboxPlugin = {
  cacheDidUpdate: async ({ request, newResponse, event }) => {
    const { path } = splitPath(new URL(request.url).pathname);
    if (path !== "/mi-pasaporte") return;
    const html = await newResponse.clone().text();
    const links = new Set(
      [...html.matchAll(/href="((?:\/[a-z]{2,3})?\/ruta\/[A-Za-z0-9_-]+)"/g)]
        .map((m) => m[1]),
    );
    await Promise.all(
      [...links].map((url) => warm(personalPages, url, event)),
    );
  },
};

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_S,
  plugins: [
    storeOnly({ personal: false }),
    forgetGuideCode,
    new ExpirationPlugin({ maxEntries: 120 }),
  ],
});
/**
 * Bumped when a page forgets the personal pages (a sign-out, an erasure):
 * a personal page fetched before it (the route page the passport warms,
 * still on its way) is not stored after it, and one stored meanwhile is
 * deleted again, so no page of the tourist outlives the sign-out.
 */
let personalGeneration = 0;
/** Whether a handler started before the personal pages were last forgotten. */
function isForgotten(state: { generation?: number } | undefined): boolean {
  return state?.generation !== undefined &&
    state.generation !== personalGeneration;
}
const keepOnlyUnforgotten: WorkboxPlugin = {
  handlerWillStart: ({ state }) => {
    if (state) state.generation = personalGeneration;
    return Promise.resolve();
  },
  cacheWillUpdate: ({ response, state }) =>
    Promise.resolve(isForgotten(state) ? null : response),
  cacheDidUpdate: async ({ cacheName, request, state }) => {
    if (isForgotten(state)) {
      await (await caches.open(cacheName)).delete(request);
    }
  },
};

const personalPages = new NetworkFirst({
  cacheName: PERSONAL_CACHE,
  networkTimeoutSeconds: NETWORK_TIMEOUT_S,
  plugins: [
    keepOnlyUnforgotten,
    storeOnly({ personal: true }),
    forgetGuideCode,
    warmOwnRoute,
    new ExpirationPlugin({
      maxEntries: 12,
      maxAgeSeconds: config.personalMaxAgeSeconds,
    }),
  ],
});
/** The theme and logo of the data set in force (`?v=` names it). */
const dataAssets = new StaleWhileRevalidate({
  cacheName: ASSETS_CACHE,
  plugins: [
    storeOnly({ personal: false }),
    new ExpirationPlugin({ maxEntries: 16 }),
  ],
});
/**
 * Hashed build files not in this worker's precache: a page cached by an
 * older or newer worker may name them; any cache that holds one answers.
 */
const hashedFiles = new CacheFirst({
  cacheName: ASSETS_CACHE,
  plugins: [
    storeOnly({ personal: false }),
    {
      cachedResponseWillBeUsed: async ({ cachedResponse, request }) =>
        cachedResponse ?? await caches.match(request) ?? null,
    },
    new ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 30 * 24 * 3600 }),
  ],
});

/**
 * The library's photos (`/fotos/<id>-<width>.webp|.jpg`: content-hash
 * names, never changed) as a page loaded them online, so the page kept for
 * offline use still shows them; bounded, the oldest dropped first.
 */
const photoFiles = new CacheFirst({
  cacheName: PHOTOS_CACHE,
  plugins: [
    storeOnly({ personal: false }),
    new ExpirationPlugin({
      maxEntries: 60,
      maxAgeSeconds: 30 * 24 * 3600,
      purgeOnQuotaError: true,
    }),
  ],
});

/** Fetches `url` through `strategy` into its cache; a failure is ignored. */
async function warm(
  strategy: Strategy,
  url: string,
  event?: ExtendableEvent,
): Promise<void> {
  try {
    const [, done] = strategy.handleAll({
      event: event ?? new ExtendableEvent("warm"),
      request: new Request(url, {
        credentials: "same-origin",
        headers: { [WARM_UP_HEADER]: "1" },
      }),
    });
    await done;
  } catch {
    // Offline or refused: that page opens once visited online.
  }
}

/**
 * Fetches a language's passport (and so the route page), the data set's
 * theme and logo, and its public pages, as workbox-recipes'
 * warmStrategyCache does, but for the languages known at run time. One
 * page at a time: a first visit's next tap is not queued behind twenty
 * pages on a phone's connection and the server's cores.
 */
async function warmLang(lang: string, event?: ExtendableEvent): Promise<void> {
  const prefix = prefixOf(lang);
  await Promise.all([
    warm(personalPages, `${prefix}${config.passportPath}`, event),
    ...config.assets.map((url) => warm(dataAssets, url, event)),
  ]);
  for (const path of config.pages) {
    await warm(pages, `${prefix}${path === "/" ? "/" : path}`, event);
  }
}

/** Whether a language's pages are all in the cache already. */
async function isWarm(lang: string): Promise<boolean> {
  const cache = await caches.open(PAGES_CACHE);
  const prefix = prefixOf(lang);
  const found = await Promise.all(
    config.pages.map((path) =>
      cache.match(new URL(`${prefix}${path}`, self.location.origin).href)
    ),
  );
  return found.every(Boolean);
}

/**
 * The languages to warm at install: those of the open pages (the one that
 * registered the worker, on the first visit) and those already cached by an
 * earlier worker; the default language when there is none.
 */
async function getLangsInUse(): Promise<string[]> {
  const langs = new Set<string>();
  const windows = await self.clients.matchAll({
    type: "window",
    includeUncontrolled: true,
  });
  for (const client of windows) {
    langs.add(splitPath(new URL(client.url).pathname).lang);
  }
  const cache = await caches.open(PAGES_CACHE);
  for (const { lang, prefix } of config.langs) {
    if (await cache.match(new URL(`${prefix}/`, self.location.origin).href)) {
      langs.add(lang);
    }
  }
  if (langs.size === 0) langs.add(config.langs[0].lang);
  return [...langs];
}

precacheAndRoute([...self.__WB_MANIFEST, ...config.precache]);
cleanupOutdatedCaches();

self.addEventListener("install", (event) => {
  event.waitUntil(
    getLangsInUse().then((langs) =>
      Promise.all(langs.map((lang) => warmLang(lang, event)))
    ),
  );
});

registerRoute(({ request, url, sameOrigin }) => {
  if (!sameOrigin || request.mode !== "navigate") return false;
  const { path } = splitPath(url.pathname);
  return isPersonalPage(path);
}, personalPages);
registerRoute(({ request, url, sameOrigin }) => {
  if (!sameOrigin || request.mode !== "navigate") return false;
  const { path } = splitPath(url.pathname);
  return isPublicPage(path);
}, pages);
// Every other page of the portal: the network, else the offline page.
registerRoute(({ request, url, sameOrigin }) => {
  if (!sameOrigin || request.mode !== "navigate") return false;
  return !isNeverHandled(splitPath(url.pathname).path);
}, new NetworkOnly());
registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin && url.pathname.startsWith("/static/build/") &&
    /[-.][A-Za-z0-9]{8}\.(?:js|css|woff2|png)$/.test(url.pathname),
  hashedFiles,
);
registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin &&
    /^\/fotos\/[0-9a-f]{32}-\d+\.(?:webp|jpg)$/.test(url.pathname),
  photoFiles,
);
registerRoute(
  ({ url, sameOrigin }) =>
    sameOrigin && (url.pathname === "/theme.css" ||
      url.pathname === "/logo.svg") &&
    url.searchParams.has("v"),
  dataAssets,
);

setCatchHandler(async ({ request, url }) => {
  if (request.destination !== "document" || !url) return Response.error();
  const { lang } = splitPath(url.pathname);
  return await matchPrecache(`${prefixOf(lang)}${config.offlinePath}`) ??
    Response.error();
});

self.addEventListener("message", (event) => {
  const message = event.data as WorkerMessage | null;
  if (
    message?.type === "warm" &&
    config.langs.some((l) => l.lang === message.lang)
  ) {
    // A page in a language not cached yet (the tourist switched).
    event.waitUntil(
      isWarm(message.lang).then((done) =>
        done ? undefined : warmLang(message.lang, event)
      ),
    );
  } else if (message?.type === "forget-personal") {
    personalGeneration++;
    event.waitUntil(
      caches.delete(PERSONAL_CACHE).then(() =>
        event.ports[0]?.postMessage({ forgotten: true })
      ),
    );
  } else if (message?.type === "version") {
    event.ports[0]?.postMessage({
      version: config.version,
      precache: cacheNames.precache,
    });
  }
});

self.addEventListener("sync", (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === CHECK_IN_SYNC_TAG) {
    // Rejects while one is still pending: the browser tries again later.
    sync.waitUntil(syncQueuedCheckInsInBackground());
  }
});

/** Background Sync's event (not in TypeScript's webworker library yet). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}
