import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { ForbiddenError, UnauthorizedError } from "@/lib/http/errors.ts";
import { createRouter, jsonResponse } from "@/lib/http/router.ts";
import { isSameOriginRequest, readSessionCookie } from "@/lib/oauth/cookies.ts";
import { getSignedInSession, issueSessionToken } from "@/lib/oauth/sign_in.ts";

const route = createRoute({
  method: "post",
  path: "/",
  summary: "A short-lived bearer token for the signed-in browser session",
  description:
    "For the portal's own pages: needs the session cookie and a same-origin request (Origin). Send `{}` as the body. The token is accepted by the protected endpoints like any other bearer token.",
  responses: {
    200: {
      description: "A bearer token for the session's user",
      content: {
        "application/json": {
          schema: z.object({
            token: z.string(),
            expiresIn: z.number().int().openapi({ example: 600 }),
          }),
        },
      },
    },
    401: jsonResponse("No live session"),
    403: jsonResponse("Not a same-origin request"),
  },
});

export default function sessionToken(deps: AppDeps) {
  return createRouter().openapi(route, async (c) => {
    if (!isSameOriginRequest(c, deps.config)) {
      throw new ForbiddenError("Solo las páginas del portal pueden pedirlo");
    }
    const session = await getSignedInSession(
      deps,
      readSessionCookie(c, deps.config),
    );
    if (!session) {
      throw new UnauthorizedError("No has iniciado sesión o tu sesión caducó");
    }
    c.header("Cache-Control", "no-store");
    return c.json(await issueSessionToken(deps, session), 200);
  });
}
