import { createRoute, z } from "@hono/zod-openapi";
import type { TokenVerifier } from "@/lib/auth/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { assertSelf, getClientIp, requireUser } from "@/lib/http/mod.ts";
import { createRouter, ErrorBody } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { verifyVisit } from "@/lib/check_in/mod.ts";

const VerifyVisitRequest = z.object({
  code: z.string().max(64).openapi({
    description: "The guide code shown at the attraction; case-insensitive",
  }),
  userId: z.guid().openapi({ description: "The token's user" }),
}).openapi("VerifyVisitRequest");

const VerifyVisitResponse = z.object({
  success: z.literal(true),
  visitId: z.guid(),
  atractivo: z.string().openapi({ example: "plaza-principal" }),
  badge: z.object({ id: z.string(), name: z.string(), icon: z.string() })
    .nullable(),
}).openapi("VerifyVisitResponse");

function createVerifyVisitRoute(auth: TokenVerifier) {
  return createRoute({
    method: "post",
    path: "/",
    operationId: "verifyVisit",
    tags: [TAGS.passport],
    summary: "Verify a visit with the attraction's guide code",
    security: SECURITY.bearer,
    // The visit's transaction reads and checks the tombstone (readVisitAttempt).
    middleware: [requireUser(auth, { erasureCheckedByCaller: true })] as const,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: VerifyVisitRequest } },
      },
    },
    responses: {
      200: {
        description: "The visit, and the badge it unlocked (or null)",
        content: { "application/json": { schema: VerifyVisitResponse } },
      },
      ...errorResponses({
        400: "A field is missing or invalid (`field` names it)",
        401: "Missing or invalid bearer token",
        403: "userId is not the token's user",
        404: {
          description:
            "No attraction has this code; the wrong codes left before the lockout are in the body",
          schema: ErrorBody.extend({
            remainingAttempts: z.number().int().min(0),
          }),
        },
        409: {
          description: "Already verified by this user: the first visit",
          schema: ErrorBody.extend({
            visitId: z.guid(),
            atractivo: z.string(),
          }),
        },
        422: {
          description:
            "`code_not_accepted`: the attraction checks visits in by position only (`POST /api/turismo/check-in`)",
          schema: ErrorBody.extend({
            reason: z.literal("code_not_accepted"),
            atractivo: z.string().optional().openapi({
              description: "The code's attraction, whose rule refused it",
            }),
          }),
        },
        429:
          "More than 10 wrong codes in 10 minutes for this user, or 30 from this address",
        503:
          "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
      }, { jsonBody: true }),
    },
  });
}

export default function verifyVisitRoute(deps: AppDeps) {
  return createRouter().openapi(
    createVerifyVisitRoute(deps.auth),
    async (c) => {
      const { code, userId } = c.req.valid("json");
      assertSelf(c, userId);
      const visit = await verifyVisit(deps, {
        userId,
        code,
        clientIp: getClientIp(c, deps.config.trustedProxyHops),
      });
      return c.json({ success: true as const, ...visit }, 200);
    },
  );
}
