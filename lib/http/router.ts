import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AuthUser, Session } from "@/lib/types/user.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { DEFAULT_LANG, type Lang, t } from "@/lib/i18n/catalogue.ts";
import { BadRequestError } from "@/lib/errors/mod.ts";
import { getIssueMessage } from "./validation_messages.ts";

/** What handlers find on the Hono context. */
export type AppEnv = {
  Variables: {
    /** The verified bearer token's user; set by {@linkcode requireUser} and {@linkcode optionalUser}. */
    user?: AuthUser;
    /** The signed-in staff member on `/panel`; set by `requireStaff` (lib/staff/guard.ts). */
    staff?: StaffMember;
    /** The browser's live tourist session on the cookie routes; set by `readTouristSession` (lib/oauth/tourist_session.ts). */
    tourist?: Session;
    /** The page's language, from its path (`/en/...`); read it with `getLang(c)` (lib/http/page_lang.ts). */
    lang?: Lang;
    /**
     * The language an API answer is in when the request named one itself
     * (the chat's `lang` field); otherwise `Accept-Language` decides: see
     * `getApiLang` (lib/http/api_lang.ts).
     */
    apiLang?: Lang;
  };
};

/** The `{error, details, field?}` body of every error outside the chat, as OpenAPI shows it. */
export const ErrorBody = z.object({
  error: z.string().openapi({
    description:
      "What happened, in a few words: Spanish, or English when `Accept-Language` prefers it",
    example: t(DEFAULT_LANG, "api.error.400"),
  }),
  details: z.string().openapi({
    description: "What to do about it, in the same language",
    example: t(DEFAULT_LANG, "api.invalid.email.email"),
  }),
  field: z.string().optional().openapi({
    description: "On a 400 for one field of the body: its name",
    example: "email",
  }),
}).openapi("Error", {
  description:
    "An error outside the chat. Some answers add fields, documented with them.",
});

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
        // Our sentence, not zod's, in the request's language: see
        // validation_messages.ts. The value validated is passed by
        // @hono/zod-validator (typed in its Hook, not in zod-openapi's): it
        // tells a missing field from a wrong-typed one.
        const { field, message } = getIssueMessage(
          result.error.issues[0],
          "data" in result ? result.data : undefined,
        );
        throw new BadRequestError(message, { field });
      }
    },
  });
}
