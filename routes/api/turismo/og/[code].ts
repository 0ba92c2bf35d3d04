import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "../../../../lib/deps.ts";
import { createRouter, jsonResponse } from "../../../../lib/http.ts";
import { createShareCards } from "../../../../lib/share_card.ts";

const CACHE_CONTROL = "public, max-age=86400, s-maxage=86400";

const route = createRoute({
  method: "get",
  path: "/{code}",
  summary: "The 1200x630 PNG share card of a tourist's route",
  request: { params: z.object({ code: z.string() }) },
  responses: {
    200: {
      description: "The card",
      content: {
        "image/png": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    304: { description: "Not modified (If-None-Match matched the ETag)" },
    404: jsonResponse("No ticket has that share code"),
  },
});

export default function shareImage(deps: AppDeps) {
  const cards = createShareCards(deps);
  return createRouter().openapi(route, async (c) => {
    const { code } = c.req.valid("param");
    const { etag, png } = await cards.get(code, c.req.header("if-none-match"));
    const headers = { "Cache-Control": CACHE_CONTROL, ETag: etag };
    if (!png) return c.body(null, 304, headers);
    return c.body(png as Uint8Array<ArrayBuffer>, 200, {
      ...headers,
      "Content-Type": "image/png",
    });
  });
}
