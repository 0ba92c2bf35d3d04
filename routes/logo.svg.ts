import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { PAGE_SECURITY_HEADERS } from "@/lib/http/mod.ts";

/**
 * `/logo.svg`: the municipality's logo from the data set, served as an image
 * (header and favicon) rather than inlined, so its markup never mixes with
 * the page's; its own CSP forbids scripts inside it.
 */
export default function logo(deps: AppDeps) {
  return new Hono().get("/", (c) => {
    const loaded = deps.data.current();
    const current = c.req.query("v") === loaded.version;
    return c.body(loaded.data.branding.logoSvg, 200, {
      ...PAGE_SECURITY_HEADERS,
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Content-Security-Policy":
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "Cache-Control": current
        ? "public, max-age=31536000, immutable"
        : "public, max-age=60",
    });
  });
}
