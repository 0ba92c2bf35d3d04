/**
 * A small in-memory micro-cache of rendered public pages: a hot page is
 * rendered (and its KV read) at most once per TTL per instance instead of
 * once per request.
 */
import type { Context } from "hono";
import type { LRUCache } from "lru-cache";
import type { Config } from "@/lib/config/config.ts";
import type { DataStore } from "@/lib/data/data_store.ts";
import type { DataChange } from "@/lib/db/changes.ts";
import {
  chooseEncoding,
  COMPRESS_MIN_BYTES,
  compressBody,
  type Encoding,
  isCompressible,
  varyOnAcceptEncoding,
} from "@/lib/http/compress.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import { allowReplay } from "@/lib/http/replay.ts";

/**
 * How long the public pages (`/`, `/turismo/atractivos`, an attraction) are
 * served from memory: their visit counts and averages may lag by this much.
 */
export const PAGE_TTL_MS = 10_000;

/**
 * How long `/ruta/<code>` is served from memory. Writes on this instance
 * drop it at once ({@linkcode PageCache.invalidate}); a visit, rating or
 * badge on another instance shows here within this time, and a rename or an
 * erasure on another instance within a second (`route_changes`, watched in
 * deps.ts: every route page is dropped when it moves).
 */
export const ROUTE_PAGE_TTL_MS = 2_000;

/** Names of what a cached page shows, for writes to drop it. */
export const pageTags = {
  /** Pages showing a user's visits or badges (`/ruta/<code>`). */
  user: (userId: string) => `user:${userId}`,
  /** Pages showing an attraction's visit count and ratings. */
  attraction: (slug: string) => `attraction:${slug}`,
  /** The page of one share code. */
  shareCode: (code: string) => `code:${code}`,
  /** Every route page: a rename or an erasure on another instance drops them all. */
  routes: () => "routes",
  /** Pages showing a photo of the library (lib/pages/photos.ts). */
  photo: (photoId: string) => `photo:${photoId}`,
};

/** The tags of the pages a change makes stale: the one mapping from writes to pages. */
export function getStaleTags(change: DataChange): string[] {
  switch (change.kind) {
    case "visit":
    case "rating":
    case "note_visibility":
      return [pageTags.user(change.userId), pageTags.attraction(change.slug)];
    case "check_in_rule":
      return [pageTags.attraction(change.slug)];
    case "ticket":
      return [
        pageTags.shareCode(change.shareCode),
        ...(change.userId ? [pageTags.user(change.userId)] : []),
      ];
    case "merge":
      return [
        pageTags.user(change.fromUserId),
        pageTags.user(change.intoUserId),
        ...change.slugs.map(pageTags.attraction),
      ];
    case "photo_deleted":
      return [pageTags.photo(change.photoId)];
    case "erasure":
      return [
        ...(change.userId ? [pageTags.user(change.userId)] : []),
        ...change.shareCodes.map(pageTags.shareCode),
        ...change.slugs.map(pageTags.attraction),
      ];
  }
}

/** A response as stored: replayed with fresh headers each time. */
interface StoredPage {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  /** The body brotli- and gzip-compressed, made once when the page is kept. */
  encoded?: Record<Encoding, Uint8Array<ArrayBuffer>>;
}

/**
 * What a render is given: `tag` names what the page shows (for writes to
 * drop it); `expireAt` caps how long it may be served (epoch ms of the
 * cache's clock): a page that says something about the time ("Abierto
 * ahora · cierra a las 18:00") expires when that stops being true.
 */
export type RenderPage = (
  tag: (name: string) => void,
  expireAt: (ms: number) => void,
) => Response | Promise<Response>;

/** One request's render, handed to the cache's fetch. */
interface RenderRequest {
  render: RenderPage;
  ttlMs: number;
  /** The page the render produced, also when it is not kept. */
  page?: StoredPage;
  /** What the page shows, once rendered. */
  tags?: Set<string>;
  /** Whether the page was kept (a fresh 200 that no write made stale). */
  kept?: boolean;
}

/** A render in flight and whether a write invalidated what it shows. */
interface Rendering {
  tags: Set<string>;
  stale: boolean;
  /** The earliest `expireAt` the render asked for. */
  expiresAt?: number;
}

export interface PageCacheOptions {
  /** The clock TTLs are measured by (the app's, so tests can move it). */
  now?: () => number;
  /** Default 500 pages. */
  maxEntries?: number;
  /** Default 12 MiB of bodies (pages are 20-30 KB). */
  maxBytes?: number;
}

/**
 * Rendered pages by key on `lru-cache`: least recently used dropped first,
 * each for its own TTL, concurrent misses of one key sharing one render.
 * Only 200 responses are kept. A render names what it shows with tags;
 * {@linkcode invalidate} drops every page with a tag, and a render in flight
 * that carries it is answered but not kept.
 */
export class PageCache {
  /** Created with the first page (importing lru-cache starts Deno's Node layer, which a health check does not need). */
  #pages?: LRUCache<string, StoredPage, RenderRequest>;
  #creating?: Promise<LRUCache<string, StoredPage, RenderRequest>>;
  readonly #options: Required<PageCacheOptions>;
  readonly #keysByTag = new Map<string, Set<string>>();
  readonly #tagsByKey = new Map<string, Set<string>>();
  /** The page each key's tags belong to: disposing an older page keeps them. */
  readonly #taggedPage = new Map<string, StoredPage>();
  readonly #rendering = new Set<Rendering>();
  #hits = 0;
  #misses = 0;

  constructor(
    { now = Date.now, maxEntries = 500, maxBytes = 12 * 1024 * 1024 }:
      PageCacheOptions = {},
  ) {
    this.#options = { now, maxEntries, maxBytes };
  }

  /** The pages' LRU, made on first use. */
  #createPages(): Promise<LRUCache<string, StoredPage, RenderRequest>> {
    const { now, maxEntries, maxBytes } = this.#options;
    this.#creating ??= import("lru-cache").then(({ LRUCache }) =>
      this.#pages = new LRUCache<string, StoredPage, RenderRequest>({
        max: maxEntries,
        maxSize: maxBytes,
        sizeCalculation: (page) =>
          Math.max(
            1,
            page.body.byteLength + (page.encoded?.br.byteLength ?? 0) +
              (page.encoded?.gzip.byteLength ?? 0),
          ),
        perf: { now },
        ttlResolution: 0,
        dispose: (page, key) => {
          if (this.#taggedPage.get(key) === page) this.#untag(key);
        },
        fetchMethod: async (_key, _stale, { options, context }) => {
          this.#misses++;
          const rendering: Rendering = { tags: new Set(), stale: false };
          this.#rendering.add(rendering);
          try {
            context.page = await capture(context.render, rendering);
          } finally {
            this.#rendering.delete(rendering);
          }
          const ttlMs = rendering.expiresAt === undefined
            ? context.ttlMs
            : Math.min(context.ttlMs, rendering.expiresAt - now());
          if (
            context.page.status !== 200 || rendering.stale ||
            context.page.body.byteLength > maxBytes || ttlMs <= 1
          ) {
            return undefined; // Answered, not kept.
          }
          // lru-cache keeps an entry while its age is at most `ttl`; a page
          // expires when its age reaches `ttlMs`.
          options.ttl = ttlMs - 1;
          context.tags = rendering.tags;
          context.kept = true;
          return await withEncodings(context.page);
        },
      })
    );
    return this.#creating;
  }

  /**
   * The cached response for `key`, or `render()`'s (kept for `ttlMs` when it
   * is a 200). `render` receives `tag`: call it with what the page shows
   * *before* reading it, so that a write finishing after the read always
   * drops the page.
   */
  async get(
    key: string,
    { ttlMs, encoding = null, onKept }: {
      ttlMs: number;
      /** The coding the client accepts (`chooseEncoding`): served from the page's compressed forms. */
      encoding?: Encoding | null;
      /**
       * Told, when the answer is the page kept for `key`, a check that the
       * page is still the one kept (not expired, not dropped).
       */
      onKept?: (isCurrent: () => boolean) => void;
    },
    render: RenderPage,
  ): Promise<Response> {
    const pages = this.#pages ?? await this.#createPages();
    if (pages.has(key)) this.#hits++;
    const request: RenderRequest = { render, ttlMs };
    const page = await pages.fetch(key, { context: request }) ??
      request.page ??
      // Waited on another request's render that was not kept: render anew.
      await capture(render, { tags: new Set(), stale: false });
    // Tagged once stored (storing disposes the page it replaces).
    if (request.kept) this.#tag(key, request.tags!, page);
    if (onKept && pages.peek(key) === page) {
      onKept(() => pages.peek(key) === page);
    }
    return toResponse(page, encoding);
  }

  /** Drops every page tagged with one of `tags` (on this instance). */
  invalidate(tags: readonly string[]): void {
    for (const tag of tags) {
      for (const key of this.#keysByTag.get(tag) ?? []) {
        this.#pages?.delete(key);
      }
    }
    for (const rendering of this.#rendering) {
      if (tags.some((tag) => rendering.tags.has(tag))) rendering.stale = true;
    }
  }

  get stats(): {
    entries: number;
    bytes: number;
    hits: number;
    misses: number;
  } {
    return {
      entries: this.#pages?.size ?? 0,
      bytes: this.#pages?.calculatedSize ?? 0,
      hits: this.#hits,
      misses: this.#misses,
    };
  }

  #tag(key: string, tags: Set<string>, page: StoredPage): void {
    this.#untag(key);
    this.#tagsByKey.set(key, tags);
    this.#taggedPage.set(key, page);
    for (const tag of tags) {
      let keys = this.#keysByTag.get(tag);
      if (!keys) this.#keysByTag.set(tag, keys = new Set());
      keys.add(key);
    }
  }

  #untag(key: string): void {
    for (const tag of this.#tagsByKey.get(key) ?? []) {
      const keys = this.#keysByTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#keysByTag.delete(tag);
    }
    this.#tagsByKey.delete(key);
    this.#taggedPage.delete(key);
  }
}

async function capture(
  render: RenderPage,
  rendering: Rendering,
): Promise<StoredPage> {
  const res = await render(
    (name) => rendering.tags.add(name),
    (ms) => {
      rendering.expiresAt = Math.min(ms, rendering.expiresAt ?? Infinity);
    },
  );
  return {
    status: res.status,
    headers: [...res.headers],
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

/** A kept page of a compressible type, with its compressed forms when it is big enough to gain. */
async function withEncodings(page: StoredPage): Promise<StoredPage> {
  const type = new Headers(page.headers).get("Content-Type");
  if (!isCompressible(type) || page.body.byteLength < COMPRESS_MIN_BYTES) {
    return page;
  }
  const [br, gzip] = await Promise.all([
    compressBody(page.body, "br"),
    compressBody(page.body, "gzip"),
  ]);
  return { ...page, encoded: { br, gzip } };
}

function toResponse(
  { status, headers, body, encoded }: StoredPage,
  encoding: Encoding | null,
): Response {
  const res = new Response(
    encoding && encoded ? encoded[encoding] : body,
    { status, headers },
  );
  if (isCompressible(res.headers.get("Content-Type"))) {
    varyOnAcceptEncoding(res.headers);
  }
  if (encoding && encoded) res.headers.set("Content-Encoding", encoding);
  return res;
}

/**
 * Answers a public page through `pageCache`, keyed by the data-set version,
 * the public origin and `key` (the path, plus any query the page reads), in
 * the coding the client accepts. A cached page is served to everyone, so it
 * shows no more of the query than its key holds: the layout's links keep
 * only the parameters the page names (`PageHead.query`), never a guide code
 * from a poster or a tracking tag. Not cached: no cache configured, anything
 * but GET, and requests with an `Authorization` header. A session cookie
 * (a guest passport or a sign-in) does not matter: these pages show nothing
 * of the visitor, so the tourists who use the portal most are served from
 * memory too; their own route shows their writes on this instance at once
 * and others' within {@linkcode ROUTE_PAGE_TTL_MS}.
 */
export async function servePage(
  c: Context,
  { pageCache, config, data }: {
    pageCache?: PageCache;
    config: Pick<Config, "baseUrl">;
    data: DataStore;
  },
  { key = c.req.path, ttlMs }: { key?: string; ttlMs: number },
  render: RenderPage,
): Promise<Response> {
  if (
    !pageCache || c.req.method !== "GET" ||
    c.req.header("authorization") !== undefined
  ) {
    return await render(() => {}, () => {});
  }
  const loaded = data.current();
  return await pageCache.get(
    `${loaded.version}\u0000${getPublicOrigin(c, config)}\u0000${key}`,
    {
      ttlMs,
      encoding: chooseEncoding(c.req.header("Accept-Encoding")),
      // Replayed while it is the page kept for the data set in force.
      onKept: (isKept) =>
        allowReplay(c, () => data.current() === loaded && isKept()),
    },
    render,
  );
}
