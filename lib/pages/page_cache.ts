/**
 * A small in-memory micro-cache of rendered public pages: a hot page is
 * rendered (and its KV read) at most once per TTL per instance instead of
 * once per request.
 */
import type { Context } from "hono";
import { BoundedMap } from "@/lib/cache/bounded_map.ts";
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

/** A page kept, until its cache's clock reaches `expiresAt`. */
interface KeptPage {
  page: StoredPage;
  expiresAt: number;
}

/** A render in flight and whether a write invalidated what it shows. */
interface Rendering {
  tags: Set<string>;
  stale: boolean;
  /** The earliest `expireAt` the render asked for. */
  expiresAt?: number;
}

/** What one render of a key gave: the page, and whether it was kept. */
interface Rendered {
  page: StoredPage;
  kept: boolean;
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
 * Rendered pages by key: least recently used dropped first (past 500 pages
 * or 12 MiB of bodies and their compressed forms), each for its own TTL,
 * concurrent misses of one key sharing one render. Only 200 responses are
 * kept. A render names what it shows with tags; {@linkcode invalidate}
 * drops every page with a tag, and a render in flight that carries it is
 * answered but not kept.
 */
export class PageCache {
  readonly #now: () => number;
  readonly #maxBytes: number;
  readonly #pages: BoundedMap<KeptPage>;
  /** The render in flight for each key that has one. */
  readonly #inFlight = new Map<string, Promise<Rendered>>();
  readonly #keysByTag = new Map<string, Set<string>>();
  readonly #tagsByKey = new Map<string, Set<string>>();
  readonly #rendering = new Set<Rendering>();
  #hits = 0;
  #misses = 0;

  constructor(
    { now = Date.now, maxEntries = 500, maxBytes = 12 * 1024 * 1024 }:
      PageCacheOptions = {},
  ) {
    this.#now = now;
    this.#maxBytes = maxBytes;
    this.#pages = new BoundedMap<KeptPage>(
      maxEntries,
      maxBytes,
      ({ page }) =>
        Math.max(
          1,
          page.body.byteLength + (page.encoded?.br.byteLength ?? 0) +
            (page.encoded?.gzip.byteLength ?? 0),
        ),
      (key) => this.#untag(key),
    );
  }

  /** The page kept for `key` while it has not expired (made the most recently used). */
  #getKept(key: string): KeptPage | undefined {
    const kept = this.#pages.get(key);
    if (!kept) return undefined;
    if (this.#now() >= kept.expiresAt) {
      this.#pages.delete(key);
      return undefined;
    }
    this.#pages.touch(key);
    return kept;
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
    let kept = this.#getKept(key);
    let page: StoredPage;
    if (kept) {
      this.#hits++;
      page = kept.page;
    } else {
      const shared = this.#inFlight.get(key);
      if (shared) {
        const rendered = await shared;
        // Waited on another request's render that was not kept: render anew.
        page = rendered.kept
          ? rendered.page
          : await capture(render, { tags: new Set(), stale: false });
      } else {
        const rendering = this.#renderAndKeep(key, render, ttlMs);
        this.#inFlight.set(key, rendering);
        try {
          page = (await rendering).page;
        } finally {
          if (this.#inFlight.get(key) === rendering) this.#inFlight.delete(key);
        }
      }
      kept = this.#pages.get(key);
    }
    if (onKept && kept?.page === page) {
      const current = kept;
      // Asked on every replayed answer: a look, not a use (no reordering).
      onKept(() =>
        this.#pages.get(key) === current && this.#now() < current.expiresAt
      );
    }
    return toResponse(page, encoding);
  }

  async #renderAndKeep(
    key: string,
    render: RenderPage,
    ttlMs: number,
  ): Promise<Rendered> {
    this.#misses++;
    const rendering: Rendering = { tags: new Set(), stale: false };
    // In flight until stored: a write that lands while the page is
    // rendered or compressed keeps it from being kept.
    this.#rendering.add(rendering);
    try {
      const page = await capture(render, rendering);
      const expiresAt = Math.min(
        this.#now() + ttlMs,
        rendering.expiresAt ?? Infinity,
      );
      if (
        page.status !== 200 || rendering.stale ||
        page.body.byteLength > this.#maxBytes || expiresAt - this.#now() <= 1
      ) {
        return { page, kept: false }; // Answered, not kept.
      }
      const encoded = await withEncodings(page);
      if (rendering.stale) return { page: encoded, kept: false };
      this.#pages.set(key, { page: encoded, expiresAt });
      // Tagged once stored (storing drops the page it replaces, and its tags).
      const kept = this.#pages.get(key)?.page === encoded;
      if (kept) this.#tag(key, rendering.tags);
      return { page: encoded, kept };
    } finally {
      this.#rendering.delete(rendering);
    }
  }

  /** Drops every page tagged with one of `tags` (on this instance). */
  invalidate(tags: readonly string[]): void {
    for (const tag of tags) {
      for (const key of [...this.#keysByTag.get(tag) ?? []]) {
        this.#pages.delete(key);
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
      entries: this.#pages.size,
      bytes: this.#pages.bytes,
      hits: this.#hits,
      misses: this.#misses,
    };
  }

  #tag(key: string, tags: Set<string>): void {
    this.#untag(key);
    this.#tagsByKey.set(key, tags);
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
