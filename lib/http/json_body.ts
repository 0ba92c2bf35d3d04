import type { MiddlewareHandler } from "hono";
import { apiMessage, BadRequestError, HttpError } from "@/lib/errors/mod.ts";
import { BODY_MESSAGES } from "./validation_messages.ts";

/** The largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** How long a request body may take to arrive, by default. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * For requests with a body: 415 unless it is JSON, 413 past
 * {@linkcode MAX_BODY_BYTES} (at once when `Content-Length` says so), 408
 * when it has not all arrived within `timeoutMs` (a client trickling bytes
 * would hold a handler and its memory), 400 when it does not parse. The
 * parsed body is cached by Hono, so validators downstream read it for free.
 * Slow headers are the reverse proxy's to cut (docs/SECURITY.md).
 *
 * Read here rather than with `hono/body-limit`, which reads a body without
 * `Content-Length` to its end before anything else runs: no deadline could
 * cover it.
 */
export function jsonBody(
  { timeoutMs = BODY_TIMEOUT_MS }: { timeoutMs?: number } = {},
): MiddlewareHandler {
  return async function jsonBody(c, next) {
    if (
      c.req.method !== "POST" && c.req.method !== "PUT" &&
      c.req.method !== "PATCH"
    ) {
      return await next();
    }
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
      throw new HttpError(
        415,
        apiMessage("error.415"),
        BODY_MESSAGES.notJsonType,
      );
    }
    if (Number(c.req.header("content-length") ?? 0) > MAX_BODY_BYTES) {
      throw new BodyTooLargeError();
    }
    const bytes = await readBody(c.req.raw, timeoutMs);
    c.req.raw = new Request(c.req.raw.url, {
      method: c.req.raw.method,
      headers: c.req.raw.headers,
      body: bytes,
    });
    if (bytes.byteLength === 0) throw new BadRequestError(BODY_MESSAGES.empty);
    try {
      await c.req.json();
    } catch {
      throw new BadRequestError(BODY_MESSAGES.malformed);
    }
    await next();
  };
}

/** The whole body, at most {@linkcode MAX_BODY_BYTES}, within `timeoutMs`. */
async function readBody(
  request: Request,
  timeoutMs: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        reader.cancel().catch(() => {});
        throw new BodyTooLargeError();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (!timedOut) throw error;
  } finally {
    clearTimeout(timer);
  }
  if (timedOut) throw new BodyTimeoutError();
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A body past {@linkcode MAX_BODY_BYTES}: 413. */
class BodyTooLargeError extends HttpError {
  override name = "BodyTooLargeError";
  constructor() {
    super(
      413,
      apiMessage("error.413"),
      apiMessage("body.tooLarge", { kib: MAX_BODY_BYTES / 1024 }),
    );
  }
}

/** A body that did not arrive in time: 408, and the connection is closed. */
class BodyTimeoutError extends HttpError {
  override name = "BodyTimeoutError";
  constructor() {
    super(
      408,
      apiMessage("error.408"),
      apiMessage("body.timeout"),
    );
  }

  /** Read by the error funnel. */
  readonly headers = { Connection: "close" };
}
