import { createRoute, z } from "@hono/zod-openapi";
import type { TokenVerifier } from "@/lib/auth/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { assertSelf, requireUser } from "@/lib/http/mod.ts";
import { createRouter } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { rateVerifiedVisit } from "@/lib/passport/mod.ts";

const RateVisitRequest = z.object({
  userId: z.guid().openapi({ description: "The token's user" }),
  atractivoSlug: z.string().max(100).openapi({ example: "plaza-principal" }),
  // Any JSON value: an invalid rating is saved as null, not refused
  // (docs/API.md, rate-visit).
  rating: z.unknown().optional().openapi({
    type: ["number", "null"],
    minimum: 1,
    maximum: 5,
    description: "1 to 5; anything else (or nothing) is saved as null",
  }),
  notes: z.string().nullish().openapi({
    description: "Trimmed; empty is null; cut at 1,000 characters",
  }),
}).openapi("RateVisitRequest");

const RateVisitResponse = z.object({
  success: z.literal(true),
  rating: z.number().int().min(1).max(5).nullable(),
  notes: z.string().nullable(),
}).openapi("RateVisitResponse");

function createRateVisitRoute(auth: TokenVerifier) {
  return createRoute({
    method: "post",
    path: "/",
    operationId: "rateVisit",
    tags: [TAGS.passport],
    summary: "Rate a verified visit and keep notes about it",
    description: "Replaces the visit's earlier rating and notes.",
    security: SECURITY.bearer,
    middleware: [requireUser(auth)] as const,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: RateVisitRequest } },
      },
    },
    responses: {
      200: {
        description: "What was saved",
        content: { "application/json": { schema: RateVisitResponse } },
      },
      ...errorResponses({
        400: "A field is missing or invalid (`field` names it)",
        401: "Missing or invalid bearer token",
        403: "userId is not the token's user",
        404: "No such attraction, or the user has not verified it",
        503:
          "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
      }, { jsonBody: true }),
    },
  });
}

export default function rateVisitRoute(deps: AppDeps) {
  return createRouter().openapi(createRateVisitRoute(deps.auth), async (c) => {
    const { userId, atractivoSlug, rating, notes } = c.req.valid("json");
    assertSelf(c, userId);
    const saved = await rateVerifiedVisit(deps, {
      userId,
      slug: atractivoSlug,
      rating,
      notes,
    });
    return c.json({ success: true as const, ...saved }, 200);
  });
}
