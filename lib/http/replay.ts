/**
 * Answers replayed whole while what they show is current. A handler marks
 * a GET's answer with {@linkcode allowReplay} (a page or a card served from
 * its cache, the health check); the app's outermost middleware keeps it as
 * it left the app (status, every header, the bytes), and the next identical
 * request is answered from {@linkcode ReplayedAnswers.answer} before Hono
 * runs at all, synchronously, so `Deno.serve` sends it in the same turn.
 *
 * What the app's middleware does to every request still happens to a
 * replayed one: it is counted against its address's budget (past it, the
 * app answers the 429) and written to the request log. The rest only sets
 * headers from the method, the path and the accepted coding, which the
 * kept answer carries. Requests whose answer may differ at the same URL
 * are never replayed: anything but GET, `Authorization`, conditional and
 * range requests, and `Origin` (CORS headers are chosen per origin).
 */
import type { Context, MiddlewareHandler } from "hono";
import { chooseEncoding } from "./compress.ts";

/** Marks, by request, the answers their handlers allow to replay (a mount's sub-app sees the same `Request`). */
const marked = new WeakMap<Request, () => boolean>();

/**
 * Allows `c`'s answer to be replayed to identical requests (same URL, same
 * accepted coding) while `isCurrent()` holds: its cache entry is still the
 * one served (not expired, not dropped by a write). `isCurrent` is called
 * on every replay, so it is a lookup, never a read of KV. Only for answers
 * that depend on nothing else of the request: no cookie, no
 * `Accept-Language`.
 */
export function allowReplay(c: Context, isCurrent: () => boolean): void {
  marked.set(c.req.raw, isCurrent);
}

interface KeptAnswer {
  status: number;
  path: string;
  /** Its request log line, made once. */
  logged?: string;
  /** Checked once: a `Headers` is copied into each answer without validating its values again. */
  headers: Headers;
  body: Uint8Array<ArrayBuffer>;
  isCurrent: () => boolean;
}

export interface ReplayOptions {
  /**
   * Counts a replayed request against its address's budget: `false` when it
   * is refused (the app then answers it), `true` or `undefined` otherwise.
   */
  admit?: (request: Request, info: unknown, path: string) => boolean;
  /**
   * The request log: `describe` gives a kept answer's line once (a replay
   * takes microseconds, so its time is always the same), `push` logs it on
   * each replay.
   */
  log?: {
    describe: (method: string, path: string, status: number) => string;
    push: (line: string) => void;
  };
  /** Default 1,000 answers. */
  maxEntries?: number;
  /** Default 8 MiB of bodies. */
  maxBytes?: number;
}

const VARYING_HEADERS = [
  "authorization",
  "if-none-match",
  "if-modified-since",
  "range",
  "origin",
];

function isReplayable(request: Request): boolean {
  if (request.method !== "GET") return false;
  const headers = request.headers;
  return !VARYING_HEADERS.some((name) => headers.has(name));
}

/** The path of an absolute URL, without parsing it (`https://host/a?b` → `/a`). */
function getPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("://") + 3);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  return query === -1 ? url.slice(start) : url.slice(start, query);
}

/** The answers kept, by accepted coding and URL, the least recently kept dropped first. */
export class ReplayedAnswers {
  readonly #kept = new Map<string, KeptAnswer>();
  readonly #options: ReplayOptions & { maxEntries: number; maxBytes: number };
  #bytes = 0;

  constructor(options: ReplayOptions = {}) {
    this.#options = {
      maxEntries: 1_000,
      maxBytes: 8 * 1024 * 1024,
      ...options,
    };
  }

  #replays = 0;

  /** Answers kept now and requests answered from them so far (tests, benchmarks). */
  get stats(): { kept: number; bytes: number; replays: number } {
    return {
      kept: this.#kept.size,
      bytes: this.#bytes,
      replays: this.#replays,
    };
  }

  /**
   * The kept answer to `request`, if it is still current and its address
   * may have it; `undefined`: let the app answer.
   */
  answer(request: Request, info?: unknown): Response | undefined {
    if (this.#kept.size === 0 || !isReplayable(request)) return undefined;
    const key = keyOf(request);
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    if (!kept.isCurrent()) {
      this.#drop(key, kept);
      return undefined;
    }
    if (this.#options.admit?.(request, info, kept.path) === false) {
      return undefined;
    }
    const response = new Response(kept.body, {
      status: kept.status,
      headers: kept.headers,
    });
    if (kept.logged !== undefined) this.#options.log?.push(kept.logged);
    this.#replays++;
    return response;
  }

  /** The app's outermost middleware: keeps the answers marked with {@linkcode allowReplay}. */
  keep(): MiddlewareHandler {
    return async (c, next) => {
      await next();
      if (!isReplayable(c.req.raw)) return;
      const isCurrent = marked.get(c.req.raw);
      const res = c.res;
      if (
        !isCurrent || res.status !== 200 || res.headers.has("set-cookie") ||
        !isCurrent()
      ) {
        return;
      }
      const body = new Uint8Array(await res.arrayBuffer());
      const headers = new Headers(res.headers);
      // Cleared first: replacing an answer, Hono wraps the new one's body in
      // a stream, which would drop its Content-Length (a chunked reply).
      c.res = undefined;
      c.res = new Response(body, { status: res.status, headers });
      if (body.byteLength > this.#options.maxBytes) return;
      const key = keyOf(c.req.raw);
      const previous = this.#kept.get(key);
      if (previous) this.#drop(key, previous);
      const path = getPath(c.req.url);
      this.#kept.set(key, {
        status: res.status,
        path,
        logged: this.#options.log?.describe("GET", path, res.status),
        headers,
        body,
        isCurrent,
      });
      this.#bytes += body.byteLength;
      for (const [oldest, old] of this.#kept) {
        if (
          this.#kept.size <= this.#options.maxEntries &&
          this.#bytes <= this.#options.maxBytes
        ) break;
        this.#drop(oldest, old);
      }
    };
  }

  #drop(key: string, kept: KeptAnswer): void {
    this.#kept.delete(key);
    this.#bytes -= kept.body.byteLength;
  }
}

/** `chooseEncoding` of the few `Accept-Encoding` values browsers send, remembered. */
const encodings = new Map<string, string>();

function keyOf(request: Request): string {
  const accepted = request.headers.get("accept-encoding") ?? "";
  let encoding = encodings.get(accepted);
  if (encoding === undefined) {
    encoding = chooseEncoding(accepted) ?? "";
    if (encodings.size >= 64) encodings.clear();
    encodings.set(accepted, encoding);
  }
  return `${encoding} ${request.url}`;
}
