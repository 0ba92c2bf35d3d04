import { Hono } from "hono";
import type { AppDeps } from "@/deps.ts";
import { PAGE_SECURITY_HEADERS } from "@/lib/http/mod.ts";

/**
 * `/fotos/<id>-<width>.webp` and `.jpg`: a photo of the library in one
 * width. The name is the content's hash, so the answer never changes:
 * cached for a year, `immutable`, with a strong ETag; an unknown name is
 * the 404 page.
 */
export default function photoFile(deps: AppDeps) {
  return new Hono().get("/:file", async (c) => {
    const file = await deps.photos.readFile(c.req.param("file"));
    if (!file) return c.notFound();
    const headers = {
      ...PAGE_SECURITY_HEADERS,
      "Content-Type": file.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: file.etag,
      "Content-Security-Policy": "default-src 'none'; sandbox",
    };
    if (c.req.header("If-None-Match") === file.etag) {
      return c.body(null, 304, headers);
    }
    return c.body(file.bytes as Uint8Array<ArrayBuffer>, 200, headers);
  });
}
