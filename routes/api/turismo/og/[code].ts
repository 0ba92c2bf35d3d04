import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { createRouter } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import type { ShareCardImage } from "@/lib/og/mod.ts";
import { allowReplay } from "@/lib/http/mod.ts";

const CACHE_CONTROL = "public, max-age=86400, s-maxage=86400";

/** The headers of the card and of its 304. */
const CARD_HEADERS = {
  "Cache-Control": {
    description: "Cacheable by browsers and CDNs for a day",
    required: true,
    schema: { type: "string", example: CACHE_CONTROL },
  },
  ETag: {
    description: "The card's version; send it back in If-None-Match",
    required: true,
    schema: { type: "string" },
  },
} as const;

const route = createRoute({
  method: "get",
  path: "/{code}",
  operationId: "getShareCard",
  tags: [TAGS.shareCard],
  summary: "The 1200x630 PNG share card of a tourist's route",
  description: "HEAD answers the same headers without the image.",
  security: SECURITY.public,
  request: {
    params: z.object({
      code: z.string().openapi({
        description: "The ticket's share code, any case",
        example: "ruta-lucia-01",
      }),
    }),
    headers: z.object({
      "if-none-match": z.string().optional().openapi({
        description: "The ETag of a card already held: 304 if unchanged",
      }),
    }),
    query: z.object({
      v: z.string().optional().openapi({
        description:
          "The card's version as the pages link it (`<visits>-<badges>`): a URL that names one card; after a rename or an erasure it answers the current card or 404, and any other `v`, or none, the current card",
        example: "6-1",
      }),
    }),
  },
  responses: {
    200: {
      description: "The card",
      headers: CARD_HEADERS,
      content: {
        "image/png": { schema: z.string().openapi({ format: "binary" }) },
      },
    },
    304: {
      description: "Not modified (If-None-Match matched the ETag)",
      headers: CARD_HEADERS,
    },
    ...errorResponses({
      404: "No ticket has that share code",
      503: {
        description:
          "Too many cards are being drawn, or drawing this one took too long",
        headers: ["Retry-After"],
      },
    }),
  },
});

/**
 * Documented with its schema, served by a plain handler: the share-card
 * service checks the code itself (404 for anything malformed) and `v` needs
 * no parsing, so a stored card skips a schema pass per request.
 */
export default function shareImage({ shareCards: cards }: AppDeps) {
  const app = createRouter();
  app.openAPIRegistry.registerPath(route);
  return app.get("/:code", (c): Response | Promise<Response> => {
    const code = c.req.param("code");
    return cards.get(code, {
      v: c.req.query("v"),
      ifNoneMatch: c.req.header("if-none-match"),
      onRemembered: (isCurrent) => allowReplay(c, isCurrent),
    }).then(respond);
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
