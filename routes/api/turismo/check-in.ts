import { createRoute, z } from "@hono/zod-openapi";
import type { TokenVerifier } from "@/lib/auth/mod.ts";
import type { AppDeps } from "@/deps.ts";
import { apiMessage, BadRequestError } from "@/lib/errors/mod.ts";
import { assertSelf, getClientIp, requireUser } from "@/lib/http/mod.ts";
import { createRouter, ErrorBody } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { checkIn, REFUSAL_REASONS } from "@/lib/check_in/mod.ts";

const CheckInRequest = z.object({
  userId: z.guid().openapi({ description: "The token's user" }),
  checkInId: z.guid().openapi({
    description:
      "Made on the device, once per check-in: a retry sends the same one",
  }),
  claimedAt: z.iso.datetime({ offset: true }).openapi({
    description:
      "The device's clock when the tourist typed the code or tapped «Estoy aquí»: at most 72 h old and 5 min ahead",
  }),
  code: z.string().max(64).optional().openapi({
    description: "The guide code shown at the attraction (or `position`)",
  }),
  position: z.object({
    lat: z.number().min(-90).max(90),
    lng: z.number().min(-180).max(180),
    accuracy: z.number().min(0).optional().openapi({
      description: "Metres, as the browser reports it; absent: refused (422)",
    }),
  }).optional().openapi({
    description: "The phone's position (or `code`); used and never kept",
  }),
  atractivo: z.string().max(100).optional().openapi({
    description: "The attraction of a position (its page's slug)",
    example: "barranca-de-tequila",
  }),
}).openapi("CheckInRequest");

const Badge = z.object({ id: z.string(), name: z.string(), icon: z.string() });

const CheckInResponse = z.object({
  success: z.literal(true),
  checkInId: z.guid(),
  visitId: z.guid(),
  atractivo: z.string().openapi({ example: "plaza-principal" }),
  badge: Badge.nullable(),
  visitedAt: z.iso.datetime().openapi({ description: "The server's time" }),
  checkedInAt: z.iso.datetime().openapi({ description: "`claimedAt`" }),
  method: z.enum(["code", "gps"]),
}).openapi("CheckInResponse");

function createCheckInRoute(auth: TokenVerifier) {
  return createRoute({
    method: "post",
    path: "/",
    operationId: "checkIn",
    tags: [TAGS.passport],
    summary:
      "Check a visit in from a device's queue, by guide code or position, exactly once",
    description:
      'A retry with the same `checkInId` and request gets the first answer again and counts nothing again (docs/API.md, "Check-ins from a device\'s queue").',
    security: SECURITY.bearer,
    middleware: [requireUser(auth)] as const,
    request: {
      body: {
        required: true,
        content: { "application/json": { schema: CheckInRequest } },
      },
    },
    responses: {
      200: {
        description: "The visit, and the badge it unlocked (or null)",
        content: { "application/json": { schema: CheckInResponse } },
      },
      ...errorResponses({
        400:
          "A field is missing or invalid, or not exactly one of `code` and `position`",
        401: "Missing or invalid bearer token",
        403: "userId is not the token's user",
        404: {
          description:
            "No attraction has this code (the wrong codes left before the lockout are in the body), or `atractivo` is unknown",
          schema: ErrorBody.extend({
            remainingAttempts: z.number().int().min(0).optional(),
          }),
        },
        409: {
          description:
            "`already_visited`: the passport has this attraction (its visit); `id_reused`: this checkInId came with another code, attraction or time",
          schema: ErrorBody.extend({
            reason: z.enum(["already_visited", "id_reused"]),
            visitId: z.guid().optional(),
            atractivo: z.string().optional(),
          }),
        },
        422: {
          description: "Refused for good by a check-in rule (`reason`)",
          schema: ErrorBody.extend({
            reason: z.enum(REFUSAL_REASONS),
            distanceM: z.number().optional(),
            radiusM: z.number().optional(),
            atractivo: z.string().optional().openapi({
              description:
                "A code's attraction, whose rule refused it (`code_not_accepted`)",
            }),
          }),
        },
        429:
          "More than 10 wrong codes in 10 minutes for this user, or 30 from this address (not kept: retry after Retry-After)",
        503:
          "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
      }, { jsonBody: true }),
    },
  });
}

export default function checkInRoute(deps: AppDeps) {
  return createRouter().openapi(
    createCheckInRoute(deps.auth),
    async (c) => {
      const body = c.req.valid("json");
      assertSelf(c, body.userId);
      if ((body.code === undefined) === (body.position === undefined)) {
        throw new BadRequestError(apiMessage("checkIn.codeOrPosition"), {
          field: "code",
        });
      }
      if (body.position && !body.atractivo) {
        throw new BadRequestError(apiMessage("checkIn.attractionRequired"), {
          field: "atractivo",
        });
      }
      const answer = await checkIn(deps, {
        ...body,
        clientIp: getClientIp(c, deps.config.trustedProxyHops),
      });
      return c.json(answer, 200);
    },
  );
}
