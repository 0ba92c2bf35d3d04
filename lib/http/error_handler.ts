import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type Lang, t } from "@/lib/i18n/catalogue.ts";
import { getApiLang } from "./api_lang.ts";
import { HttpError, UnauthorizedError } from "@/lib/errors/mod.ts";
import { isApiPath } from "./security_headers.ts";
import { redactPath } from "./secret_urls.ts";

/**
 * A capability's own error bodies on its paths, registered where the app is
 * built (the chat answers `{reply}`, docs/API.md): the funnel still sets the
 * status and headers, the capability says the words.
 */
export interface ErrorBodies {
  /** Whether errors on this path are this capability's. */
  matches(path: string): boolean;
  /**
   * The body for an error of `status` in `lang`; `reply` is the error's own
   * short text when it has one (the `reply` option of an `HttpError`).
   */
  body(
    status: number,
    lang: Lang,
    reply: string | undefined,
  ): Record<string, unknown>;
}

/**
 * The one error funnel: known errors become their status with `{error,
 * details}` (or a registered capability's own body, {@linkcode
 * ErrorBodies}) in the answer's language ({@linkcode getApiLang}: Spanish
 * unless the request prefers another language we have); anything else is
 * logged and answered 500 without internals. Every error is `Cache-Control:
 * no-store` (unless it sets its own), and under `/api` it carries `Vary:
 * Accept-Language`.
 */
export function createErrorHandler(
  { bodies = [] }: { bodies?: ErrorBodies[] } = {},
): ErrorHandler {
  return function handleError(error, c) {
    const lang = getApiLang(c);
    let status: number;
    let body: Record<string, unknown>;
    let headers: Record<string, string> = {};
    let reply: string | undefined;
    if (error instanceof HttpError) {
      const said = error.describe(lang);
      reply = said.reply;
      status = error.status;
      body = {
        error: said.error,
        details: said.details,
        ...error.options.body,
      };
      headers = getErrorHeaders(error);
    } else if (error instanceof HTTPException && error.status < 500) {
      status = error.status;
      // Hono's own exceptions carry English text (e.g. its validator's
      // "Malformed JSON in request body"): never shown to a visitor.
      body = {
        error: t(lang, "api.error.400"),
        details: t(lang, "api.details.checkInput"),
      };
    } else {
      console.error(
        `Unhandled error on ${c.req.method} ${redactPath(c.req.path)}:`,
        error,
      );
      status = 500;
      body = {
        error: t(lang, "api.error.500"),
        details: t(lang, "api.details.tryLater"),
      };
    }
    const own = bodies.find((each) => each.matches(c.req.path));
    if (own) body = own.body(status, lang, reply);
    // An error is about this moment (a share code not taken yet, a budget
    // spent): no cache keeps it. Its words follow Accept-Language on /api.
    headers = { "Cache-Control": "no-store", ...headers };
    if (isApiPath(c.req.path)) headers.Vary = "Accept-Language";
    return c.json(body, status as ContentfulStatusCode, headers);
  };
}

/**
 * The headers an error's answer carries: what a domain error's facts are in
 * HTTP, and the headers lib/http's own errors name (`Allow` on a 405,
 * `Connection: close` on a 408).
 */
function getErrorHeaders(
  error: HttpError & { headers?: Record<string, string> },
): Record<string, string> {
  const headers: Record<string, string> = { ...error.headers };
  if (error instanceof UnauthorizedError) {
    headers["WWW-Authenticate"] =
      'Bearer realm="turismo", error="invalid_token"';
  }
  const { retryAfterSeconds } = error.options;
  if (retryAfterSeconds !== undefined) {
    headers["Retry-After"] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
  return headers;
}
