import type { Context, MiddlewareHandler } from "hono";
import type { TokenVerifier, VerifyOptions } from "@/lib/auth/tokens.ts";
import type { AuthUser } from "@/lib/types/user.ts";
import {
  apiMessage,
  ForbiddenError,
  UnauthorizedError,
} from "@/lib/errors/mod.ts";
import type { AppEnv } from "./router.ts";

/**
 * Rejects requests without a valid bearer token (401) and puts the user on
 * the context. `verifyOptions`: see {@linkcode VerifyOptions}.
 */
export function requireUser(
  verifier: TokenVerifier,
  verifyOptions?: VerifyOptions,
): MiddlewareHandler<AppEnv> {
  return async function requireUser(c, next) {
    const token = readBearerToken(c);
    if (!token) {
      throw new UnauthorizedError(
        apiMessage("auth.missingHeader", {
          header: "Authorization: Bearer <token>",
        }),
      );
    }
    c.set("user", await verifier.verify(token, verifyOptions));
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
  if (!user) throw new UnauthorizedError(apiMessage("auth.missingToken"));
  if (user.id !== userId) {
    throw new ForbiddenError(apiMessage("auth.userMismatch"));
  }
  return user;
}

function readBearerToken(c: Context): string | undefined {
  const header = c.req.header("authorization");
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new UnauthorizedError(
      apiMessage("auth.badHeader", { format: "'Bearer <token>'" }),
    );
  }
  return match[1];
}
