import type { NotFoundHandler } from "hono";
import type { AppDeps } from "@/deps.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import { isApiPath } from "@/lib/http/mod.ts";
import { renderNotFoundPage } from "./_app.tsx";

/**
 * Answers a path no route matched: the JSON 404 under `/api` (through the
 * error funnel), the friendly HTML page anywhere else.
 */
export default function notFound(deps: AppDeps): NotFoundHandler {
  return function notFound(c) {
    if (isApiPath(c.req.path)) {
      throw new NotFoundError(
        apiMessage("path.unknown", { method: c.req.method, path: c.req.path }),
      );
    }
    return renderNotFoundPage(c, deps);
  };
}
