import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { assertSelf, getPublicOrigin, requireUser } from "@/lib/http/mod.ts";
import { createRouter } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import {
  changeRouteName,
  exportPersonalData,
  getErasureStatus,
  getExportFileName,
  requestErasure,
  runErasure,
} from "@/lib/personal_data/mod.ts";
import { ticketNameSchema } from "@/lib/tickets/schemas.ts";

const UserParams = z.object({
  userId: z.guid().openapi({
    description: "The token's user: anyone else's is a 403",
    param: { name: "userId", in: "path" },
  }),
});

const PersonalDataExport = z.object({
  format: z.literal("turismo-datos-personales/1"),
  portal: z.object({ name: z.string(), origin: z.string() }),
  exportedAt: z.iso.datetime(),
  passport: z.object({
    userId: z.guid(),
    kind: z.enum(["guest", "account"]),
    createdAt: z.iso.datetime().nullable(),
    lastUsedDay: z.iso.date().nullable(),
    counters: z.object({ visits: z.number().int(), badges: z.number().int() }),
  }).nullable(),
  visits: z.array(z.object({
    visitId: z.guid(),
    attraction: z.object({ slug: z.string(), name: z.string().nullable() }),
    visitedAt: z.iso.datetime(),
    rating: z.number().int().min(1).max(5).nullable(),
    notes: z.string().nullable(),
    ratedAt: z.iso.datetime().nullable(),
    notesHiddenAt: z.iso.datetime().nullable().openapi({
      description: "When staff hid the notes from the public pages",
    }),
  })),
  badges: z.array(z.object({
    id: z.string(),
    name: z.string(),
    icon: z.string(),
    unlockedAt: z.iso.datetime(),
  })),
  tickets: z.array(z.object({
    shareCode: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    createdAt: z.iso.datetime(),
    cms: z.object({ kind: z.string(), postId: z.number().int() }),
    routePath: z.string(),
  })),
  sessions: z.array(z.object({
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    lastUsedDay: z.iso.date().nullable(),
    guest: z.boolean(),
  })).openapi({ description: "When, never a session's id or token" }),
  identities: z.array(z.object({
    provider: z.string().openapi({ description: "The issuer" }),
    subject: z.string(),
    linkedAt: z.iso.datetime(),
  })),
}).openapi("PersonalDataExport");

const ErasureStatus = z.object({
  erasureId: z.guid(),
  status: z.enum(["pending", "done"]).openapi({
    description:
      "`pending` until every record and the CMS post are gone (also while the CMS is down: it is retried); never `done` before",
  }),
}).openapi("ErasureStatus");

const bearerErrors = {
  401: "Missing or invalid bearer token",
  403: "userId is not the token's user",
  503: "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
};

function createRoutes(deps: AppDeps) {
  /** Every route here: the bearer token of the user the path names. */
  const asTheUser = {
    security: SECURITY.bearer,
    middleware: [requireUser(deps.auth)],
  };
  /** The errors of a route that takes nothing but the path. */
  const userErrors = errorResponses({
    400: "userId is not a UUID (`field` names it)",
    ...bearerErrors,
  });
  return {
    exportData: createRoute({
      method: "get",
      path: "/{userId}/data",
      operationId: "exportPersonalData",
      tags: [TAGS.personalData],
      summary: "Everything the portal holds about the user, as one JSON file",
      ...asTheUser,
      request: { params: UserParams },
      responses: {
        200: {
          description:
            "The passport, visits with ratings and notes, badges, ticket, sessions and identity links",
          headers: {
            "Content-Disposition": {
              description: "A download, `mis-datos-<date>.json`",
              required: true,
              schema: { type: "string" },
            },
          },
          content: { "application/json": { schema: PersonalDataExport } },
        },
        ...userErrors,
      },
    }),
    changeName: createRoute({
      method: "post",
      path: "/{userId}/name",
      operationId: "changeRouteName",
      tags: [TAGS.personalData],
      summary: "Change the name the user's route page and share card show",
      description:
        "The ticket in the CMS follows (its post's title and name); the card gets a new URL version.",
      ...asTheUser,
      request: {
        params: UserParams,
        body: {
          required: true,
          content: {
            "application/json": {
              schema: z.object({ name: ticketNameSchema }).openapi(
                "ChangeNameRequest",
              ),
            },
          },
        },
      },
      responses: {
        200: {
          description: "The ticket's share code and its new name",
          content: {
            "application/json": {
              schema: z.object({ shareCode: z.string(), name: z.string() })
                .openapi("ChangeNameResponse"),
            },
          },
        },
        ...errorResponses({
          400:
            "The name is missing, empty or longer than 120 characters (`field` names it)",
          ...bearerErrors,
          404: "The user's passport has no ticket",
          502: "The CMS failed or did not answer: nothing was changed",
        }, { jsonBody: true }),
      },
    }),
    erase: createRoute({
      method: "post",
      path: "/{userId}/erase",
      operationId: "erasePersonalData",
      tags: [TAGS.personalData],
      summary: "Erase the user's passport and every personal record",
      description:
        "Visits, ratings, notes, badges, counters, sessions, identity links, the ticket and its CMS post. The route page and card answer 404 at once, the share code can never be used again, and every token of the user id is a 401 from then on. A second request sent before the first was recorded joins the erasure already running.",
      ...asTheUser,
      request: { params: UserParams },
      responses: {
        202: {
          description:
            "Recorded; follow it at `GET /api/turismo/erasures/{erasureId}`",
          content: { "application/json": { schema: ErasureStatus } },
        },
        ...userErrors,
      },
    }),
  };
}

/**
 * `/api/turismo/users/<userId>/…`: the tourist's own personal data with a
 * bearer token (a page token, or one of the identity provider): the export,
 * the name correction and the erasure. Another user's is a 403.
 */
export default function usersRoute(deps: AppDeps) {
  const routes = createRoutes(deps);
  return createRouter()
    .openapi(routes.exportData, async (c) => {
      const { userId } = c.req.valid("param");
      assertSelf(c, userId);
      const exported = await exportPersonalData(deps, {
        userId,
        origin: getPublicOrigin(c, deps.config),
      });
      c.header("Cache-Control", "no-store");
      c.header(
        "Content-Disposition",
        `attachment; filename="${getExportFileName(deps.now())}"`,
      );
      return c.json(exported, 200);
    })
    .openapi(routes.changeName, async (c) => {
      const { userId } = c.req.valid("param");
      assertSelf(c, userId);
      const ticket = await changeRouteName(deps, {
        userId,
        name: c.req.valid("json").name,
      });
      return c.json({ shareCode: ticket.shareCode, name: ticket.name }, 200);
    })
    .openapi(routes.erase, async (c) => {
      const { userId } = c.req.valid("param");
      assertSelf(c, userId);
      const requested = await requestErasure(deps, {
        userId,
        origin: "tourist",
      });
      const erasure = await runErasure(deps, requested.id, {
        waitForCaches: false,
      }) ?? requested;
      return c.json({ erasureId: erasure.id, status: erasure.state }, 202);
    });
}

/** `GET /api/turismo/erasures/<id>`: whether an erasure is done. */
export function erasureStatusRoute(deps: AppDeps) {
  const route = createRoute({
    method: "get",
    path: "/{erasureId}",
    operationId: "getErasureStatus",
    tags: [TAGS.personalData],
    summary: "Whether an erasure is done",
    description:
      "Public by its random id (the user's session is gone with the erasure); it tells only the state.",
    security: SECURITY.public,
    request: {
      params: z.object({
        erasureId: z.guid().openapi({
          param: { name: "erasureId", in: "path" },
        }),
      }),
    },
    responses: {
      200: {
        description: "The erasure's state",
        content: { "application/json": { schema: ErasureStatus } },
      },
      ...errorResponses({
        400: "erasureId is not a UUID (`field` names it)",
        404: "No erasure has this id (or it ended over 30 days ago)",
      }),
    },
  });
  return createRouter().openapi(route, async (c) => {
    const { erasureId } = c.req.valid("param");
    const erasure = await getErasureStatus(deps, erasureId);
    c.header("Cache-Control", "no-store");
    return c.json({ erasureId: erasure.id, status: erasure.state }, 200);
  });
}
