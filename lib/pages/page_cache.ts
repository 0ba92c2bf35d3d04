/**
 * A small in-memory micro-cache of rendered public pages: a hot page is
 * rendered (and its KV read) at most once per TTL per instance instead of
 * once per request.
 */
import type { Context } from "hono";
import type { AppDeps } from "@/deps.ts";
import { readSessionCookie } from "@/lib/oauth/cookies.ts";

/**
 * How long the public pages (`/`, `/turismo/atractivos`, an attraction) are
 * served from memory: their visit counts and averages may lag by this much.
 */
export const PAGE_TTL_MS = 10_000;

/**
 * How long `/ruta/<code>` is served from memory. Writes on this instance
 * drop it at once ({@linkcode PageCache.invalidate}); a write on another
 * instance shows here within this time.
 */
export const ROUTE_PAGE_TTL_MS = 2_000;

/** Names of what a cached page shows, for the write paths to drop it. */
export const pageTags = {
  /** Pages showing a user's visits or badges (`/ruta/<code>`). */
  user: (userId: string) => `user:${userId}`,
  /** Pages showing an attraction's visit count and ratings. */
  attraction: (slug: string) => `attraction:${slug}`,
  /** The page of one share code. */
  shareCode: (code: string) => `code:${code}`,
};

/** A response as stored: replayed with fresh headers each time. */
interface StoredPage {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

interface Entry {
  page: StoredPage;
  expiresAt: number;
  tags: Set<string>;
}

interface Render {
  promise: Promise<StoredPage>;
  tags: Set<string>;
  /** Set when a tag of this render was invalidated while it ran. */
  stale: boolean;
}

export interface PageCacheOptions {
  /** Default 500 pages. */
  maxEntries?: number;
  /** Default 12 MiB of bodies (pages are 20-30 KB). */
  maxBytes?: number;
}

/**
 * Rendered pages by key, least recently used dropped first, each for its own
 * TTL. Concurrent misses of one key share one render ("single flight"). Only
 * 200 responses are kept. A render names what it shows with tags;
 * {@linkcode invalidate} drops every page with a tag, and a render in flight
 * that carries it is not kept.
 */
export class PageCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Insertion order is recency: least recently used first. */
  #entries = new Map<string, Entry>();
  #byTag = new Map<string, Set<string>>();
  #renders = new Map<string, Render>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxBytes = options.maxBytes ?? 12 * 1024 * 1024;
  }

  /**
   * The cached response for `key`, or `render()`'s (kept for `ttlMs` when it
   * is a 200). `render` receives `tag`: call it with what the page shows
   * *before* reading it, so that a write finishing after the read always
   * drops the page.
   */
  async get(
    key: string,
    { now, ttlMs }: { now: number; ttlMs: number },
    render: (tag: (name: string) => void) => Response | Promise<Response>,
  ): Promise<Response> {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt > now) {
      this.#hits++;
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return toResponse(entry.page);
    }
    if (entry) this.#delete(key);
    const running = this.#renders.get(key);
    if (running) return toResponse(await running.promise);
    this.#misses++;
    const current: Render = {
      promise: undefined as unknown as Promise<StoredPage>,
      tags: new Set(),
      stale: false,
    };
    this.#renders.set(key, current);
    current.promise = capture(render, current.tags).finally(() => {
      this.#renders.delete(key);
    });
    const page = await current.promise;
    if (page.status === 200 && !current.stale) {
      this.#store(key, {
        page,
        expiresAt: now + ttlMs,
        tags: current.tags,
      });
    }
    return toResponse(page);
  }

  /** Drops every page tagged with one of `tags` (on this instance). */
  invalidate(tags: readonly string[]): void {
    for (const tag of tags) {
      for (const key of this.#byTag.get(tag) ?? []) this.#delete(key);
      this.#byTag.delete(tag);
    }
    for (const running of this.#renders.values()) {
      if (tags.some((tag) => running.tags.has(tag))) running.stale = true;
    }
  }

  get stats(): {
    entries: number;
    bytes: number;
    hits: number;
    misses: number;
  } {
    return {
      entries: this.#entries.size,
      bytes: this.#bytes,
      hits: this.#hits,
      misses: this.#misses,
    };
  }

  #store(key: string, entry: Entry): void {
    if (entry.page.body.byteLength > this.maxBytes) return;
    this.#delete(key);
    this.#entries.set(key, entry);
    this.#bytes += entry.page.body.byteLength;
    for (const tag of entry.tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) this.#byTag.set(tag, keys = new Set());
      keys.add(key);
    }
    for (const oldest of this.#entries.keys()) {
      if (
        this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes
      ) break;
      this.#delete(oldest);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.page.body.byteLength;
    for (const tag of entry.tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
  }
}

async function capture(
  render: (tag: (name: string) => void) => Response | Promise<Response>,
  tags: Set<string>,
): Promise<StoredPage> {
  const res = await render((name) => tags.add(name));
  return {
    status: res.status,
    headers: [...res.headers],
    body: new Uint8Array(await res.arrayBuffer()),
  };
}

function toResponse({ status, headers, body }: StoredPage): Response {
  return new Response(body, { status, headers });
}

/**
 * Answers a public page through `deps.pageCache`, keyed by the data-set
 * version, the public origin and `key` (the path, plus any query the page
 * reads). Not cached: no cache configured, anything but GET, and requests
 * that carry a session cookie or an `Authorization` header. The pages do not
 * vary by visitor today; skipping signed-in visitors keeps their own route
 * always fresh (they are the ones who just verified a visit) and keeps the
 * cache safe should a page ever show who is signed in.
 */
export async function servePage(
  c: Context,
  deps: AppDeps,
  { key = c.req.path, ttlMs }: { key?: string; ttlMs: number },
  render: (tag: (name: string) => void) => Response | Promise<Response>,
): Promise<Response> {
  const cache = deps.pageCache;
  if (
    !cache || c.req.method !== "GET" ||
    c.req.header("authorization") !== undefined ||
    readSessionCookie(c, deps.config) !== undefined
  ) {
    return await render(() => {});
  }
  const origin = deps.config.baseUrl ?? new URL(c.req.url).origin;
  return await cache.get(
    `${deps.data.current().version}\u0000${origin}\u0000${key}`,
    { now: deps.now().getTime(), ttlMs },
    render,
  );
}
