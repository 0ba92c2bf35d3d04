import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AuthUser } from "@/lib/auth/tokens.ts";
import { BadRequestError } from "./errors.ts";

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
