import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { createRouter, jsonResponse } from "@/lib/http/router.ts";
import type { ShareCardImage } from "@/lib/og/share_cards.ts";

const CACHE_CONTROL = "public, max-age=86400, s-maxage=86400";

const route = createRoute({
  method: "get",
  path: "/{code}",
  summary: "The 1200x630 PNG share card of a tourist's route",
  request: {
    params: z.object({ code: z.string() }),
    query: z.object({
      v: z.string().optional().openapi({
        description:
          "The card's version as the pages link it (`<visits>-<badges>`): a URL that names one card, answered from memory",
        example: "6-1",
      }),
    }),
  },
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

/**
 * Documented with its schema, served by a plain handler: the share-card
 * service checks the code itself (404 for anything malformed) and `v` needs
 * no parsing, so the cached card skips a schema pass per request.
 */
export default function shareImage({ shareCards: cards }: AppDeps) {
  const app = createRouter();
  app.openAPIRegistry.registerPath(route);
  return app.get("/:code", (c): Response | Promise<Response> => {
    const code = c.req.param("code");
    const options = {
      v: c.req.query("v"),
      ifNoneMatch: c.req.header("if-none-match"),
    };
    // A card URL answered before: no KV, no render, no await.
    const known = cards.peek(code, options);
    return known ? respond(known) : cards.get(code, options).then(respond);
  });
}

function respond({ etag, png }: ShareCardImage): Response {
  const headers: [string, string][] = [
    ["Cache-Control", CACHE_CONTROL],
    ["ETag", etag],
  ];
  if (!png) return new Response(null, { status: 304, headers });
  headers.push(["Content-Type", "image/png"]);
  return new Response(png as Uint8Array<ArrayBuffer>, { headers });
}
