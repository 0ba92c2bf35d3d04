/**
 * The pieces of `/openapi.json` shared by every operation: the document's
 * head (servers, licence, tags), the security schemes and requirements, and
 * the error answers the middleware in front of the routes gives, with the
 * headers each status always carries. Route files add only their own.
 *
 * @module
 */

import { OpenAPIHono, type RouteConfig, type z } from "@hono/zod-openapi";
import type { Config } from "@/lib/config/config.ts";
import type { MountedRoutes } from "./lazy_routes.ts";
import { MAX_BODY_BYTES } from "./json_body.ts";
import { type AppEnv, ErrorBody } from "./router.ts";

type Responses = RouteConfig["responses"];
/** What `doc31` takes, as an object. */
type DocumentHead = Exclude<
  Parameters<OpenAPIHono<AppEnv>["doc31"]>[1],
  (...args: never[]) => unknown
>;
type Security = NonNullable<RouteConfig["security"]>;

/** The operations' tags, in the order the document lists them. */
export const TAGS = {
  tickets: "Tickets",
  passport: "Passport",
  shareCard: "Share card",
  assistant: "Assistant",
  personalData: "Personal data",
  health: "Health",
} as const;

/** Security requirements: `public` needs nothing; `optionalBearer` takes a token when there is one. */
export const SECURITY: Record<
  "public" | "bearer" | "optionalBearer" | "sessionCookie",
  Security
> = {
  public: [],
  bearer: [{ bearerAuth: [] }],
  optionalBearer: [{}, { bearerAuth: [] }],
  // A guest passport (`guest: true`) needs no cookie yet.
  sessionCookie: [{ sessionCookie: [] }, {}],
};

/**
 * The repository states no licence, so none is granted: all rights reserved,
 * as an SPDX user-defined reference. The owner should confirm it or name the
 * licence chosen. (`identifier` is OAS 3.1's; the config's types are 3.0's.)
 */
const LICENSE = {
  name: "Proprietary: all rights reserved",
  identifier: "LicenseRef-Proprietary",
};

/** The head of `/openapi.json`. */
export function apiDocument(
  config: Pick<Config, "baseUrl">,
): DocumentHead {
  return {
    openapi: "3.1.0",
    info: {
      title: "Municipal tourism service",
      version: "1.0.0",
      description:
        "Tickets, visits, badges, ratings, share images and the tourism assistant. Error bodies are `{error, details}` in Spanish (with `field` on a 400 for a field); the assistant's are `{reply}`. A wrong method on a path is a 405 with `Allow`.",
      license: LICENSE,
    },
    // Without BASE_URL the service answers on whatever origin it is reached
    // at: a relative server resolves against the document's own address.
    servers: [{
      url: config.baseUrl ?? "/",
      description: config.baseUrl
        ? "The portal (BASE_URL)"
        : "The origin this document was fetched from (BASE_URL is not set)",
    }],
    tags: [
      {
        name: TAGS.tickets,
        description: "A visitor's share ticket, kept in the city's CMS",
      },
      {
        name: TAGS.passport,
        description:
          "Visits verified with the guide code at each attraction, ratings, and the pages' session token",
      },
      {
        name: TAGS.shareCard,
        description: "The PNG card of a tourist's route",
      },
      {
        name: TAGS.assistant,
        description: "The tourism assistant (errors are `{reply}`)",
      },
      {
        name: TAGS.personalData,
        description:
          "A tourist's own data: export it, correct the name on the route, erase it all (docs/PRIVACY.md)",
      },
      { name: TAGS.health, description: "For load balancers and monitoring" },
    ],
  };
}

/**
 * `/openapi.json`: the head, the security schemes, the `operations`
 * described apart from a router (the health check), and every operation
 * the `mounted` routers registered with `createRoute`, under the paths they
 * are mounted at (what `app.route()` of an `OpenAPIHono` collects).
 */
export function createApiDocument(
  config: Pick<Config, "baseUrl">,
  mounted: MountedRoutes[],
  operations: RouteConfig[] = [],
): ReturnType<OpenAPIHono["getOpenAPI31Document"]> {
  const doc = new OpenAPIHono();
  for (const route of operations) doc.openAPIRegistry.registerPath(route);
  for (const { path, app } of mounted) doc.route(path, app);
  registerSecuritySchemes(doc.openAPIRegistry, config);
  return doc.getOpenAPI31Document(apiDocument(config));
}

/** Registers the security schemes the operations name. */
export function registerSecuritySchemes(
  registry: OpenAPIHono["openAPIRegistry"],
  config: Pick<Config, "baseUrl">,
): void {
  registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A JWT of the configured identity provider, or one the service signed (`deno task token`, `POST /api/session-token`)",
  });
  const secure = config.baseUrl?.startsWith("https:") ?? false;
  registry.registerComponent("securitySchemes", "sessionCookie", {
    type: "apiKey",
    in: "cookie",
    name: secure ? "__Host-session" : "session",
    description:
      "The portal's HttpOnly session cookie, set by a sign-in or a guest passport: `__Host-session` on https, `session` on plain http",
  });
}

/** Response headers, by the name they are sent with. */
export const HEADERS = {
  "Retry-After": {
    description: "Seconds to wait before trying again",
    required: true,
    schema: { type: "integer", minimum: 1 },
  },
  "WWW-Authenticate": {
    description: "The bearer challenge",
    required: true,
    schema: {
      type: "string",
      example: 'Bearer realm="turismo", error="invalid_token"',
    },
  },
  Allow: {
    description: "The methods the path takes, e.g. `POST, OPTIONS`",
    required: true,
    schema: { type: "string" },
  },
  Connection: {
    description:
      "The connection is closed after the answer (HTTP/1.1; proxies may drop it)",
    schema: { type: "string", const: "close" },
  },
} as const;

type HeaderName = keyof typeof HEADERS;

/** The headers an error status always carries, wherever it comes from. */
const HEADERS_BY_STATUS: Partial<Record<number, HeaderName[]>> = {
  401: ["WWW-Authenticate"],
  405: ["Allow"],
  408: ["Connection"],
  429: ["Retry-After"],
};

/** What the middleware in front of every operation may answer (`app.ts`). */
const ANY_OPERATION: Record<number, string> = {
  405: "The path does not take this method; `Allow` lists the ones it takes",
  500: "An unexpected error; it is logged, and the answer says nothing of it",
};

/** The per-address budget's answer (`ip_budget.ts`), on every path it counts. */
const IP_BUDGET: Record<number, string> = {
  429:
    "More requests from this address in a minute than IP_BUDGET_PER_MINUTE allows",
};

/** What reading a JSON body may answer before the handler runs (`json_body.ts`). */
const ANY_JSON_BODY: Record<number, string> = {
  400: "The body is empty or not valid JSON",
  408:
    "The body did not arrive within REQUEST_BODY_TIMEOUT_MS (10 s by default)",
  413: `The body is over ${MAX_BODY_BYTES / 1024} KiB`,
  415: "The body is not sent as `application/json`",
};

/** An operation's own error answer: a description, or one with its own body or headers. */
export type ErrorSpec = string | {
  description: string;
  /** Replaces the error body's schema (e.g. {@linkcode ErrorBody} with more fields). */
  schema?: z.ZodType;
  /** Headers beyond the ones of the status. */
  headers?: HeaderName[];
};

/**
 * Every error answer of an operation: its own (`own`, by status), those of
 * the middleware in front of every operation (405, 500), of the per-address
 * budget (429, unless `ipBudget: false`: a path it does not count) and, with
 * `jsonBody`, those of reading a JSON body (400, 408, 413, 415). A status
 * with several causes lists them all. `schema` is the body of all of them
 * ({@linkcode ErrorBody}; the chat's `{reply}`).
 */
export function errorResponses(
  own: Record<number, ErrorSpec>,
  { jsonBody = false, ipBudget = true, schema = ErrorBody }: {
    jsonBody?: boolean;
    ipBudget?: boolean;
    schema?: z.ZodType;
  } = {},
): Responses {
  const causes = new Map<number, ErrorSpec[]>();
  const add = (status: number, spec: ErrorSpec) =>
    causes.set(status, [...causes.get(status) ?? [], spec]);
  for (const [status, spec] of Object.entries(own)) add(Number(status), spec);
  if (jsonBody) {
    for (const [status, text] of Object.entries(ANY_JSON_BODY)) {
      add(Number(status), text);
    }
  }
  const shared = { ...(ipBudget ? IP_BUDGET : {}), ...ANY_OPERATION };
  for (const [status, text] of Object.entries(shared)) {
    add(Number(status), text);
  }

  const responses: Responses = {};
  for (const status of [...causes.keys()].sort((a, b) => a - b)) {
    const specs = causes.get(status)!.map((spec) =>
      typeof spec === "string" ? { description: spec } : spec
    );
    const descriptions = specs.map((spec) => spec.description);
    const headerNames = new Set<HeaderName>([
      ...HEADERS_BY_STATUS[status] ?? [],
      ...specs.flatMap((spec) => spec.headers ?? []),
    ]);
    responses[status] = {
      description: descriptions.length === 1
        ? descriptions[0]
        : descriptions.map((text) => `- ${text}`).join("\n"),
      ...(headerNames.size > 0
        ? {
          headers: Object.fromEntries(
            [...headerNames].map((name) => [name, HEADERS[name]]),
          ),
        }
        : {}),
      content: {
        "application/json": {
          schema: specs.find((spec) => spec.schema)?.schema ?? schema,
        },
      },
    };
  }
  return responses;
}
