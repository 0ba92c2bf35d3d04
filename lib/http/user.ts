import type { Context, MiddlewareHandler } from "hono";
import type { AuthUser, TokenVerifier } from "@/lib/auth/tokens.ts";
import { ForbiddenError, UnauthorizedError } from "./errors.ts";
import type { AppEnv } from "./router.ts";

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
