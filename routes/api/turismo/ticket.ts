import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { getClientIp, getPublicOrigin, optionalUser } from "@/lib/http/mod.ts";
import { createRouter, ErrorBody } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { createTicket, parseIdempotencyKey } from "@/lib/tickets/mod.ts";
import { shareCodeSchema, ticketNameSchema } from "@/lib/tickets/schemas.ts";
import { getLangs, type Lang, negotiateLang } from "@/lib/i18n/mod.ts";

const TicketRequest = z.object({
  name: ticketNameSchema,
  email: z.string().trim().max(254).pipe(z.email()).openapi({
    format: "email",
  }),
  shareCode: shareCodeSchema,
  phone: z.string().trim().max(32).regex(/^[0-9 +()-]*$/)
    .optional().transform((phone) => phone || undefined),
  lang: z.enum(getLangs() as [Lang, ...Lang[]]).optional().openapi({
    description:
      "The language the ticket is made in: its share card is drawn in it. Optional: by default the language `Accept-Language` prefers among the portal's, else Spanish. Kept with the ticket only (not sent to the CMS)",
    example: "en",
  }),
}).openapi("TicketRequest");

const TicketResponse = z.object({
  ticketUrl: z.url(),
  shareCode: z.string(),
  wpId: z.number().int(),
}).openapi("TicketResponse");

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createTicket",
  tags: [TAGS.tickets],
  summary: "Create a visitor's ticket in the city's CMS",
  description:
    "A valid bearer token is optional; with one, the ticket is linked to that user.",
  security: SECURITY.optionalBearer,
  request: {
    headers: z.object({
      // Checked by parseIdempotencyKey, whose 400 names the header.
      "idempotency-key": z.string().optional().openapi({
        description:
          "Optional, and sent by the portal's forms: a random key of 16 to 128 of `A-Z a-z 0-9 _ -` made once per ticket request. A retry of that request with the same key within 24 hours gets the same ticket; any other request for a taken share code is a 409",
        example: "3b9a7c1e-5f2d-4e8a-9c0b-7d6e5f4a3b2c",
      }),
    }),
    body: {
      required: true,
      content: { "application/json": { schema: TicketRequest } },
    },
  },
  responses: {
    200: {
      description: "The ticket",
      content: { "application/json": { schema: TicketResponse } },
    },
    ...errorResponses({
      400: "A field is missing or invalid (`field` names it)",
      401: "A bearer token was sent and is not valid",
      409: {
        description:
          "The share code is taken (the same answer for any taken or erased code, whatever the e-mail) and this is not a retry with the `Idempotency-Key` that made it; or the token's passport already has a ticket (its `shareCode` is in the body); or the same request, sent again with its key, is still being created (retry)",
        schema: ErrorBody.extend({ shareCode: z.string().optional() }),
      },
      429: "More than 20 ticket requests from this address in an hour",
      502: "The CMS failed or did not answer",
      503: "The identity provider's keys (AUTH_JWKS_URL) could not be fetched",
    }, { jsonBody: true }),
  },
});

export default function ticket(deps: AppDeps) {
  const app = createRouter();
  app.use(optionalUser(deps.auth));
  return app.openapi(route, async (c) => {
    const { lang, ...body } = c.req.valid("json");
    const ticket = await createTicket(deps, {
      ...body,
      userId: c.get("user")?.id,
    }, {
      clientIp: getClientIp(c, deps.config.trustedProxyHops),
      lang: lang ?? negotiateLang(c.req.header("accept-language")),
      idempotencyKey: parseIdempotencyKey(c.req.header("idempotency-key")),
    });
    const base = getPublicOrigin(c, deps.config);
    // The share code as sent (docs/API.md, ticket); any case finds the ticket.
    return c.json({
      ticketUrl: `${base}/ruta/${encodeURIComponent(body.shareCode)}`,
      shareCode: body.shareCode,
      wpId: ticket.wpId,
    }, 200);
  });
}
