import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { getApiLang, requireUser } from "@/lib/http/mod.ts";
import { createRouter, ErrorBody } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { UnauthorizedError } from "@/lib/errors/mod.ts";
import { apiMessage } from "@/lib/errors/mod.ts";
import { claimPrize, listIdentitiesOfUser } from "@/lib/db/mod.ts";
import {
  getRewardsData,
  listPassportPrizes,
  toClaim,
} from "@/routes/_shared/passport_prizes.ts";

const PrizeClaimSchema = z.object({
  claimId: z.guid(),
  reference: z.string().openapi({ example: "K7M3Q" }),
  secret: z.string().openapi({
    description:
      "The claim's HMAC key (base64url): the phone computes the four changing digits from it offline. Only ever sent to the passport's own bearer",
  }),
  claimedAt: z.iso.datetime(),
  redeemedAt: z.iso.datetime().nullable(),
}).openapi("PrizeClaim");

const PassportPrize = z.object({
  prizeId: z.string(),
  name: z.string().openapi({ description: "In the request's language" }),
  description: z.string(),
  partner: z.object({
    name: z.string(),
    address: z.string(),
    hours: z.string().nullable().openapi({
      description:
        "The partner's hours as the office wrote them, else its provider's",
    }),
    mapUrl: z.string().nullable().openapi({
      description: "An OpenStreetMap link to the partner's location",
    }),
  }),
  validUntil: z.iso.date(),
  progress: z.object({
    have: z.number().int(),
    need: z.number().int(),
    unlocked: z.boolean(),
  }),
  refusal: z.enum(["paused", "not_yet", "expired", "out_of_stock"]).nullable()
    .openapi({ description: "Why it cannot be claimed today, if it cannot" }),
  requiresAccount: z.boolean(),
  claimsLeft: z.number().int(),
  claims: z.array(PrizeClaimSchema),
}).openapi("PassportPrize");

const PrizeParams = z.object({
  prizeId: z.string().min(1).max(64).openapi({
    param: { name: "prizeId", in: "path" },
  }),
});

const bearerErrors = {
  401: "Missing or invalid bearer token, or an erased passport",
  503: "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
};

/**
 * Whether a passport is a guest's: it has no identity link. A sign-in
 * always links one (lib/db/sessions.ts) and merges a guest passport into
 * the account's user id; a guest's session holds none. The token alone
 * does not say it.
 */
async function isGuestPassport(kv: Deno.Kv, userId: string) {
  return (await listIdentitiesOfUser(kv, userId)).length === 0;
}

function createRoutes(deps: AppDeps) {
  const asTheUser = {
    security: SECURITY.bearer,
    middleware: [requireUser(deps.auth)],
  };
  return {
    list: createRoute({
      method: "get",
      path: "/",
      operationId: "listPassportPrizes",
      tags: [TAGS.passport],
      summary: "The prizes the token's passport sees, its progress and claims",
      ...asTheUser,
      responses: {
        200: {
          description: "Every active prize, and those the passport claimed",
          content: {
            "application/json": {
              schema: z.object({ prizes: z.array(PassportPrize) }).openapi(
                "PassportPrizes",
              ),
            },
          },
        },
        ...errorResponses(bearerErrors),
      },
    }),
    claim: createRoute({
      method: "post",
      path: "/{prizeId}/claim",
      operationId: "claimPrize",
      tags: [TAGS.passport],
      summary: "Claim one unit of a prize for the token's passport",
      description:
        "Stock is taken in one atomic: it never goes below zero. A passport with an open (not yet redeemed) claim of the prize gets it again (200).",
      // claimPrize's transaction reads and checks the tombstone.
      security: SECURITY.bearer,
      middleware: [
        requireUser(deps.auth, { erasureCheckedByCaller: true }),
      ] as const,
      request: { params: PrizeParams },
      responses: {
        200: {
          description: "The passport's open claim, answered again",
          content: {
            "application/json": {
              schema: z.object({
                created: z.literal(false),
                claim: PrizeClaimSchema,
              }),
            },
          },
        },
        201: {
          description: "The new claim",
          content: {
            "application/json": {
              schema: z.object({
                created: z.literal(true),
                claim: PrizeClaimSchema,
              }),
            },
          },
        },
        ...errorResponses({
          ...bearerErrors,
          403: "Still locked, or kept for accounts (a guest passport)",
          404: "No such prize",
          409: {
            description:
              "Paused, not yet valid, expired, the passport's limit reached, or out of stock (`reason`)",
            schema: ErrorBody.extend({
              reason: z.enum([
                "paused",
                "not_yet",
                "expired",
                "limit",
                "out_of_stock",
                "out_of_stock_today",
              ]),
            }),
          },
        }),
      },
    }),
  };
}

export default function prizesRoute(deps: AppDeps) {
  const routes = createRoutes(deps);
  const timeZone = () => deps.data.current().data.municipality.timeZone;
  return createRouter()
    .openapi(routes.list, async (c) => {
      const user = c.get("user");
      if (!user) throw new UnauthorizedError(apiMessage("auth.missingToken"));
      const prizes = await listPassportPrizes(deps.kv, {
        userId: user.id,
        loaded: deps.data.current(),
        lang: getApiLang(c),
        now: deps.now(),
      });
      c.header("Cache-Control", "private, no-store");
      return c.json({ prizes }, 200);
    })
    .openapi(routes.claim, async (c) => {
      const user = c.get("user");
      if (!user) throw new UnauthorizedError(apiMessage("auth.missingToken"));
      const { prizeId } = c.req.valid("param");
      const result = await claimPrize(deps.kv, {
        userId: user.id,
        prizeId,
        guest: await isGuestPassport(deps.kv, user.id),
        data: getRewardsData(deps.data.current()),
        now: deps.now(),
        timeZone: timeZone(),
      });
      c.header("Cache-Control", "private, no-store");
      const claim = toClaim(result.claim);
      return result.created
        ? c.json({ created: true as const, claim }, 201)
        : c.json({ created: false as const, claim }, 200);
    });
}
