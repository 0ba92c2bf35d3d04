import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getConnInfo } from "hono/deno";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AuthUser, TokenVerifier } from "@/lib/auth/tokens.ts";
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  UnauthorizedError,
} from "./errors.ts";

z.config(z.locales.es());

/** What handlers find on the Hono context. */
export type AppEnv = {
  Variables: {
    /** The verified bearer token's user; set by {@linkcode requireUser} and {@linkcode optionalUser}. */
    user?: AuthUser;
  };
};

/** The `{error, details}` body of every error outside the chat, as OpenAPI shows it. */
export const ErrorBody = z.object({ error: z.string(), details: z.string() })
  .openapi("Error");

/** An OpenAPI response with a JSON body, by default {@linkcode ErrorBody}. */
export function jsonResponse(
  description: string,
  schema: z.ZodType = ErrorBody,
) {
  return { description, content: { "application/json": { schema } } };
}

/** The largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A sub-app whose zod-validated routes answer 400 `{error, details, field}` on bad input. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const issue = result.error.issues[0];
        const field = issue.path.join(".");
        throw new BadRequestError(
          field ? `${field}: ${issue.message}` : issue.message,
          {
            field: field || undefined,
          },
        );
      }
    },
  });
}

/**
 * For requests with a body: 415 unless it is JSON, 413 past
 * {@linkcode MAX_BODY_BYTES}, 400 when it does not parse. The parsed body is
 * cached by Hono, so validators downstream read it for free.
 */
export function jsonBody(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HttpError(
        413,
        "Solicitud demasiado grande",
        `El cuerpo supera ${MAX_BODY_BYTES / 1024} KiB`,
      );
    },
  });
  return async function jsonBody(c, next) {
    if (
      c.req.method !== "POST" && c.req.method !== "PUT" &&
      c.req.method !== "PATCH"
    ) {
      return await next();
    }
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
      throw new HttpError(
        415,
        "Tipo de contenido no admitido",
        "Envía el cuerpo como application/json",
      );
    }
    await limit(c, async () => {
      try {
        await c.req.json();
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw new BadRequestError("El cuerpo no es JSON válido");
      }
      await next();
    });
  };
}

/** Rejects requests without a valid bearer token (401) and puts the user on the context. */
export function requireUser(
  verifier: TokenVerifier,
): MiddlewareHandler<AppEnv> {
  return async function requireUser(c, next) {
    const token = readBearerToken(c);
    if (!token) {
      throw new UnauthorizedError(
        "Falta el encabezado Authorization: Bearer <token>",
      );
    }
    c.set("user", await verifier.verify(token));
    await next();
  };
}

/** Like {@linkcode requireUser}, but a request without a token passes as anonymous. */
export function optionalUser(
  verifier: TokenVerifier,
): MiddlewareHandler<AppEnv> {
  return async function optionalUser(c, next) {
    const token = readBearerToken(c);
    if (token !== undefined) c.set("user", await verifier.verify(token));
    await next();
  };
}

/** Throws 403 unless `userId` is the authenticated user's own id. */
export function assertSelf(c: Context<AppEnv>, userId: string): AuthUser {
  const user = c.get("user");
  if (!user) throw new UnauthorizedError("Falta el token");
  if (user.id !== userId) {
    throw new ForbiddenError("userId no coincide con el usuario del token");
  }
  return user;
}

function readBearerToken(c: Context): string | undefined {
  const header = c.req.header("authorization");
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new UnauthorizedError(
      "El encabezado Authorization debe ser 'Bearer <token>'",
    );
  }
  return match[1];
}

/**
 * The client's IP address: the connection's, or the first `X-Forwarded-For`
 * entry when a trusted proxy sets it. IPv6 addresses are reduced to their /64,
 * which is what one subscriber usually holds.
 */
export function getClientIp(c: Context, trustProxy: boolean): string {
  let ip: string | undefined;
  if (trustProxy) ip = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
  if (!ip) {
    try {
      ip = getConnInfo(c).remote.address;
    } catch {
      // app.request() in tests has no connection.
    }
  }
  return ip ? toRateLimitSubject(ip) : "unknown";
}

/** Reduces an IPv6 address to its /64 prefix; IPv4 stays as it is. */
export function toRateLimitSubject(ip: string): string {
  if (!ip.includes(":")) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  const [head, tail = ""] = ip.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = [
    ...headParts,
    ...Array(Math.max(0, missing)).fill("0"),
    ...tailParts,
  ];
  return `${
    groups.slice(0, 4).map((g) => parseInt(g || "0", 16).toString(16)).join(":")
  }::/64`;
}

/** Spanish replies of the chat endpoint, whose errors are `{reply}`. */
export const CHAT_REPLIES: Record<number, string> = {
  400: "No recibí un mensaje válido. Escribe tu pregunta e inténtalo de nuevo.",
  413: "Tu mensaje es demasiado largo. Intenta con un texto más corto.",
  415: "No recibí un mensaje válido. Escribe tu pregunta e inténtalo de nuevo.",
  429:
    "Has enviado muchas preguntas seguidas. Espera un momento antes de volver a preguntar. ⏳",
  502:
    "El asistente tiene problemas para responder ahora mismo. Inténtalo de nuevo en unos instantes.",
  503:
    "El chat no está disponible en este momento. Vuelve a intentarlo más tarde.",
  500: "Ocurrió un error de conexión. Por favor, inténtalo más tarde.",
};

/** Paths whose errors are `{reply}` bodies (spec 7.2). */
export function isChatPath(path: string): boolean {
  return path === "/api/chat" || path.startsWith("/api/chat/");
}

/**
 * The one error funnel: known errors become their status with `{error,
 * details}` (chat: `{reply}`); anything else is logged and answered 500
 * without internals.
 */
export function createErrorHandler(): ErrorHandler {
  return function handleError(error, c) {
    let status: number;
    let body: Record<string, unknown>;
    let headers: Record<string, string> = {};
    if (error instanceof HttpError) {
      status = error.status;
      body = {
        error: error.message,
        details: error.details,
        ...error.options.body,
      };
      headers = error.options.headers ?? {};
    } else if (error instanceof HTTPException && error.status < 500) {
      status = error.status;
      body = { error: "Solicitud no válida", details: error.message };
    } else {
      console.error(`Unhandled error on ${c.req.method} ${c.req.path}:`, error);
      status = 500;
      body = {
        error: "Error interno del servidor",
        details: "Inténtalo de nuevo más tarde",
      };
    }
    if (isChatPath(c.req.path)) {
      body = { reply: CHAT_REPLIES[status] ?? CHAT_REPLIES[500] };
    }
    return c.json(body, status as ContentfulStatusCode, headers);
  };
}

/** One log line per request: method, path, status, milliseconds. */
export function requestLog(): MiddlewareHandler {
  return async function requestLog(c, next) {
    const start = performance.now();
    await next();
    const ms = (performance.now() - start).toFixed(1);
    console.info(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
  };
}
