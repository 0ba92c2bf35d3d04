import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { getClientIp } from "@/lib/http/client_ip.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import { shareCodeSchema } from "@/lib/tickets/share_code.ts";
import { ticketNameSchema } from "@/lib/tickets/name.ts";
import { createRouter, ErrorBody } from "@/lib/http/router.ts";
import { errorResponses, SECURITY, TAGS } from "@/lib/http/openapi.ts";
import { optionalUser } from "@/lib/http/user.ts";
import { createTicket } from "@/lib/tickets/create_ticket.ts";
import { getLangs, type Lang } from "@/lib/i18n/catalogue.ts";
import { negotiateLang } from "@/lib/i18n/negotiate.ts";

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
          "The share code belongs to another visitor; or the token's passport already has a ticket (its `shareCode` is in the body); or another request of the same visitor is still creating it (retry)",
        schema: ErrorBody.extend({ shareCode: z.string().optional() }),
      },
      429: "More than 20 new tickets from this address in an hour",
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
