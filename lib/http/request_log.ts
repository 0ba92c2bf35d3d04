import type { MiddlewareHandler } from "hono";

/**
 * One log line per request: method, path, status, milliseconds. The path is
 * the client's text: control characters (newlines included) and the Unicode
 * line separators are written as escapes, so one request is always one line
 * and no request can forge another's.
 */
export function requestLog(): MiddlewareHandler {
  return async function requestLog(c, next) {
    const start = performance.now();
    await next();
    const ms = (performance.now() - start).toFixed(1);
    console.info(
      `${escapeForLog(c.req.method)} ${
        escapeForLog(c.req.path)
      } ${c.res.status} ${ms}ms`,
    );
  };
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
