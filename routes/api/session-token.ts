import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { getClientIp } from "@/lib/http/mod.ts";
import { createRouter } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { apiMessage, UnauthorizedError } from "@/lib/errors/mod.ts";
import {
  findTourist,
  issueSessionToken,
  writeSessionCookie,
} from "@/lib/oauth/mod.ts";
import {
  GUEST_PASSPORT_TTL_MS,
  openGuestPassport,
} from "@/lib/passport/mod.ts";

const SessionTokenRequest = z.object({
  guest: z.boolean().optional().openapi({
    description:
      "Without a session, open a guest passport (a new user id, a year in an HttpOnly cookie) instead of answering 401",
  }),
}).openapi("SessionTokenRequest");

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createSessionToken",
  tags: [TAGS.passport],
  summary: "A short-lived bearer token for the browser's passport",
  description:
    "For the portal's own pages: refused (403) from another site, as every cookie route is (`Sec-Fetch-Site` / `Origin`; a request with cookies and neither header is refused too); needs the session cookie of a sign-in or a guest passport; with `guest: true` a visitor without one gets a guest passport. The token is accepted by the protected endpoints like any other bearer token.",
  security: SECURITY.sessionCookie,
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: SessionTokenRequest } },
    },
  },
  responses: {
    200: {
      description: "A bearer token for the passport's user",
      headers: {
        "Set-Cookie": {
          description:
            "Only when a guest passport was opened: its session cookie (HttpOnly, a year)",
          schema: { type: "string" },
        },
      },
      content: {
        "application/json": {
          schema: z.object({
            token: z.string(),
            expiresIn: z.number().int().openapi({ example: 600 }),
            userId: z.guid(),
            guest: z.boolean(),
          }),
        },
      },
    },
    ...errorResponses({
      400: "`guest` is not a boolean (`field` names it)",
      401: "No live session, and no guest passport asked for",
      403: "A request from another site (Sec-Fetch-Site / Origin)",
      429: "More than 20 new guest passports an hour from this address",
    }, { jsonBody: true }),
  },
});

export default function sessionToken(deps: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    let session = findTourist(c);
    if (!session && c.req.valid("json").guest) {
      const opened = await openGuestPassport(deps, {
        clientIp: getClientIp(c, deps.config.trustedProxyHops),
      });
      writeSessionCookie(
        c,
        deps.config,
        opened.sessionId,
        GUEST_PASSPORT_TTL_MS / 1000,
      );
      session = opened.session;
    }
    if (!session) {
      throw new UnauthorizedError(apiMessage("auth.notSignedIn"));
    }
    c.header("Cache-Control", "no-store");
    return c.json({
      ...await issueSessionToken(deps, session),
      userId: session.userId,
      guest: session.guest === true,
    }, 200);
  });
}
