/**
 * Response compression: brotli or gzip, as the client accepts, for text
 * answers of at least {@linkcode COMPRESS_MIN_BYTES}. Hono's `compress`
 * middleware speaks gzip and deflate only, and Deno.serve compresses
 * nothing by itself, hence this small module on the web's
 * `CompressionStream`, which Deno gives brotli too: node:zlib would load
 * Deno's Node layer with a start's first page (about 18 ms).
 */
import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

/** Smaller answers gain less than the header costs. */
export const COMPRESS_MIN_BYTES = 1024;

/** A content coding this service answers in. */
export type Encoding = "br" | "gzip";

/** `CompressionStream`'s name of each coding (`brotli` is Deno's, not yet in the lib types). */
const FORMATS: Record<Encoding, CompressionFormat> = {
  br: "brotli" as CompressionFormat,
  gzip: "gzip",
};

/**
 * The coding to answer a request's `Accept-Encoding` with: brotli when
 * accepted, else gzip, else none. `q=0` refuses a coding; `*` stands for
 * any not named.
 */
export function chooseEncoding(
  acceptEncoding: string | undefined,
): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get("*") ?? 0;
  const br = weightOf("br");
  const gz = weightOf("gzip");
  if (br > 0 && br >= gz) return "br";
  if (gz > 0) return "gzip";
  return null;
}

/** Whether answers of this type are worth compressing (text, JSON, SVG; not PNG, not event streams). */
export function isCompressible(contentType: string | null): boolean {
  return contentType !== null &&
    COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType);
}

/**
 * Compresses a whole body with `CompressionStream`, whose levels are Deno's
 * (brotli near quality 5, gzip 6: on the home page, 47.9 KB as 7.7 KB
 * brotli and 8.5 KB gzip, about a millisecond each, as node:zlib at those
 * levels).
 */
export async function compressBody(
  body: Uint8Array,
  encoding: Encoding,
): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([body as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream(FORMATS[encoding]));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Adds `Accept-Encoding` to a response's `Vary` unless it is there. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get("Vary");
  if (vary === "*" || vary?.toLowerCase().includes("accept-encoding")) return;
  headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
}

/**
 * Compresses the app's compressible answers for clients that accept it:
 * `Vary: Accept-Encoding` on every such answer, `Content-Encoding` and a
 * weak `ETag` on the compressed ones. Left alone: answers that are encoded
 * already (the static files' pre-compressed forms, the page cache's),
 * HEAD, 204/206/304, `Cache-Control: no-transform`, event streams and
 * images other than SVG.
 */
export function compressResponses(): MiddlewareHandler {
  return async function compressResponses(c, next) {
    await next();
    const res = c.res;
    if (!isCompressible(res.headers.get("Content-Type"))) return;
    varyOnAcceptEncoding(res.headers);
    // Not `res.body`: touching it turns a Deno response's bytes into a
    // stream, sent chunked without its Content-Length.
    if (
      c.req.method === "HEAD" ||
      res.headers.has("Content-Encoding") ||
      res.status === 204 || res.status === 206 || res.status === 304 ||
      /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(
        res.headers.get("Cache-Control") ?? "",
      )
    ) {
      return;
    }
    const encoding = chooseEncoding(c.req.header("Accept-Encoding"));
    if (!encoding) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const small = body.byteLength < COMPRESS_MIN_BYTES;
    if (!small) {
      res.headers.set("Content-Encoding", encoding);
      const etag = res.headers.get("ETag");
      if (etag && !etag.startsWith("W/")) res.headers.set("ETag", `W/${etag}`);
    }
    // Cleared first: replacing an answer, Hono wraps the new one's body in a
    // stream, which would drop its Content-Length (a chunked reply).
    c.res = undefined;
    c.res = new Response(small ? body : await compressBody(body, encoding), {
      status: res.status,
      headers: res.headers,
    });
  };
}
