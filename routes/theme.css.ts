import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { renderThemeCss } from "@/lib/branding/mod.ts";

/**
 * `/theme.css`: the data set's branding colours as CSS variables. A separate
 * file because the CSP allows no inline style; `?v=<data version>` in the
 * pages' links busts caches when the data set changes.
 */
export default function theme(deps: AppDeps) {
  return new Hono().get("/", (c) => {
    const loaded = deps.data.current();
    const current = c.req.query("v") === loaded.version;
    return c.body(renderThemeCss(loaded.data.branding.colors), 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": current
        ? "public, max-age=31536000, immutable"
        : "public, max-age=60",
    });
  });
}
