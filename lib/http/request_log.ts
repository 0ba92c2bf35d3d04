import type { MiddlewareHandler } from "hono";
import { redactPath } from "./secret_urls.ts";

/** How often gathered lines are written. */
const FLUSH_MS = 100;
/** Lines that may wait for a slow stdout; past it, lines are counted and dropped. */
const MAX_PENDING_LINES = 50_000;

/**
 * The request log's output: lines gathered in memory and written in one
 * batch every {@linkcode FLUSH_MS} (or sooner when many wait), so a request
 * never waits on stdout and a busy instance makes ten writes a second, not
 * one per request. If stdout cannot keep up, lines beyond
 * {@linkcode MAX_PENDING_LINES} are dropped and the next batch says how
 * many. Created and closed (flushed) by `openDeps`.
 */
export class RequestLog {
  #lines: string[] = [];
  #dropped = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #write: (text: string) => Promise<void>;

  constructor(
    { write = writeToStdout }: {
      /** Where batches go; stdout unless a test listens. */
      write?: (text: string) => Promise<void>;
    } = {},
  ) {
    this.#write = write;
  }

  /** Queues one line (without its newline). */
  push(line: string): void {
    if (this.#lines.length >= MAX_PENDING_LINES) {
      this.#dropped++;
      return;
    }
    this.#lines.push(line);
    if (this.#timer === undefined) {
      const timer = setTimeout(() => void this.flush(), FLUSH_MS);
      Deno.unrefTimer(timer);
      this.#timer = timer;
    }
  }

  /** Writes what is queued; resolves when it (and any earlier batch) is out. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#lines.length > 0 || this.#dropped > 0) {
      const lines = this.#lines;
      if (this.#dropped > 0) {
        lines.push(
          `request log: ${this.#dropped} lines dropped (stdout too slow)`,
        );
        this.#dropped = 0;
      }
      this.#lines = [];
      const text = `${lines.join("\n")}\n`;
      this.#writing = this.#writing.then(() => this.#write(text)).catch(
        (error) => console.error("request log: cannot write:", error),
      );
    }
    return this.#writing;
  }
}

async function writeToStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.byteLength) {
    written += await Deno.stdout.write(bytes.subarray(written));
  }
}

/**
 * One log line per request: method, path, status, milliseconds. Never the
 * query, and a path that carries a secret (a staff sign-in link, an
 * erasure's id: lib/http/secret_urls.ts) with the secret redacted. The path
 * is the client's text: control characters (newlines included) and the
 * Unicode line separators are written as escapes, so one request is always
 * one line and no request can forge another's.
 */
export function requestLog(log: RequestLog): MiddlewareHandler {
  return async function requestLog(c, next) {
    const start = performance.now();
    await next();
    log.push(
      formatRequestLine(c.req.method, c.req.path, c.res.status, start),
    );
  };
}

/** One request's line: `GET /ruta/[code] 200 1.2ms`, from `start` (`performance.now()`) until now. */
export function formatRequestLine(
  method: string,
  path: string,
  status: number,
  start: number,
): string {
  return `${describeRequest(method, path, status)} ${
    (performance.now() - start).toFixed(1)
  }ms`;
}

/** A line's fixed part, `GET /ruta/[code] 200`: the client's text escaped, a secret redacted. */
export function describeRequest(
  method: string,
  path: string,
  status: number,
): string {
  return `${escapeForLog(method)} ${escapeForLog(redactPath(path))} ${status}`;
}

/**
 * The line of an answer replayed before the app (lib/http/replay.ts): sent
 * in microseconds, so its time is below the log's 0.1 ms.
 */
export function formatReplayedRequestLine(
  method: string,
  path: string,
  status: number,
): string {
  return `${describeRequest(method, path, status)} 0.0ms`;
}

/** `text` with C0/C1 controls, DEL and U+2028/2029 as `\xNN` / `\uNNNN`. */
export function escapeForLog(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029\\]/g, (ch) => {
    if (ch === "\\") return "\\\\";
    const code = ch.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
