import type { MiddlewareHandler } from "hono";

/** One log line per request: method, path, status, milliseconds. */
export function requestLog(): MiddlewareHandler {
  return async function requestLog(c, next) {
    const start = performance.now();
    await next();
    const ms = (performance.now() - start).toFixed(1);
    console.info(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  };
}
