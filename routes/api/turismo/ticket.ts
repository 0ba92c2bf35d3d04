import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "@/deps.ts";
import { getClientIp } from "@/lib/http/client_ip.ts";
import { getPublicOrigin } from "@/lib/http/origin.ts";
import { shareCodeSchema } from "@/lib/tickets/share_code.ts";
import { cleanText } from "@/lib/text/clean.ts";
import { createRouter, jsonResponse } from "@/lib/http/router.ts";
import { optionalUser } from "@/lib/http/user.ts";
import { createTicket } from "@/lib/tickets/create_ticket.ts";

const TicketRequest = z.object({
  // Controls, bidi overrides and zero-width characters are removed, as on
  // the share card: a name that is nothing else is empty (400).
  name: z.string().trim().min(1).max(120)
    .transform((name) => cleanText(name, 120))
    .pipe(z.string().min(1, "no contiene ningún carácter visible")),
  email: z.string().trim().max(254).pipe(z.email()),
  shareCode: shareCodeSchema,
  phone: z.string().trim().max(32).regex(
    /^[0-9 +()-]*$/,
    "solo dígitos, espacios y +()-",
  )
    .optional().transform((phone) => phone || undefined),
}).openapi("TicketRequest");

const TicketResponse = z.object({
  ticketUrl: z.url(),
  shareCode: z.string(),
  wpId: z.number().int(),
}).openapi("TicketResponse");

const route = createRoute({
  method: "post",
  path: "/",
  summary: "Create a visitor's ticket in the city's CMS",
  description:
    "A valid bearer token is optional; with one, the ticket is linked to that user.",
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
    400: jsonResponse("A field is missing or invalid"),
    401: jsonResponse("A bearer token was sent and is not valid"),
    409: jsonResponse(
      "The share code belongs to another visitor, or the token's passport already has a ticket (its shareCode is in the body)",
    ),
    429: jsonResponse(
      "More than 20 new tickets from this address in an hour; see Retry-After",
    ),
    502: jsonResponse("The CMS failed or did not answer"),
  },
});

export default function ticket(deps: AppDeps) {
  const app = createRouter();
  app.use(optionalUser(deps.auth));
  return app.openapi(route, async (c) => {
    const body = c.req.valid("json");
    const ticket = await createTicket(deps, {
      ...body,
      userId: c.get("user")?.id,
    }, { clientIp: getClientIp(c, deps.config.trustedProxyHops) });
    const base = getPublicOrigin(c, deps.config);
    // The share code as sent (spec 4.1); any case finds the ticket.
    return c.json({
      ticketUrl: `${base}/ruta/${encodeURIComponent(body.shareCode)}`,
      shareCode: body.shareCode,
      wpId: ticket.wpId,
    }, 200);
  });
}
