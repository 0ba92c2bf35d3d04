/**
 * The named errors domain code throws (lib/db, lib/passport, lib/limits...),
 * each with the status it stands for and, for a refusal that passes, how
 * soon to try again. A leaf: it imports only the message catalogue, so the
 * database never imports the HTTP layer. The one error funnel
 * (`lib/http/error_handler.ts`) sets the headers those facts mean
 * (`Retry-After`, `WWW-Authenticate`) and turns the errors into `{error,
 * details}` bodies (a capability may register its own, as the chat's
 * `{reply}`) in the request's language. `message` is the short Spanish
 * `error`, `details` the Spanish sentence that says more: the texts
 * themselves are {@linkcode ApiText}s, catalogue messages
 * (`locales/<lang>/api.json`) said again in another language by
 * {@linkcode HttpError.describe}.
 *
 * @module
 */
import {
  DEFAULT_LANG,
  type Lang,
  type MessageValues,
  t,
} from "@/lib/i18n/catalogue.ts";

/**
 * A value of an {@linkcode ApiMessage}: a plain value, another message (a
 * field's name, said in the same language), or a function of the language
 * (a list joined by `Intl.ListFormat`).
 */
export type ApiValue =
  | string
  | number
  | Date
  | ApiMessage
  | ((lang: Lang) => string);

/** A catalogue message (full key: `api.error.400`) and its values, said when the language is known. */
export interface ApiMessage {
  key: string;
  values?: Record<string, ApiValue>;
}

/**
 * A text an API answer shows: a catalogue message, or a fixed string (a
 * text that is the same in every language, or one not moved to the
 * catalogue yet: staff-only texts stay Spanish).
 */
export type ApiText = string | ApiMessage;

/** The message `api.<key>` of the `api` catalogue with `values`. */
export function apiMessage(
  key: string,
  values?: Record<string, ApiValue>,
): ApiMessage {
  return { key: `api.${key}`, values };
}

/** `text` in `lang` (nested messages said in the same language). */
export function sayApiText(text: ApiText, lang: Lang): string {
  if (typeof text === "string") return text;
  if (!text.values) return t(lang, text.key);
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(text.values)) {
    values[name] = typeof value === "function"
      ? value(lang)
      : typeof value === "object" && !(value instanceof Date)
      ? sayApiText(value, lang)
      : value;
  }
  return t(lang, text.key, values);
}

export class HttpError extends Error {
  /** What to do about it, in Spanish (the default language). */
  readonly details: string;
  readonly #texts: { error: ApiText; details: ApiText; reply?: ApiText };

  constructor(
    readonly status: number,
    message: ApiText,
    details: ApiText,
    readonly options: {
      /** Extra fields for the JSON body, e.g. the first visit of a 409. */
      body?: Record<string, unknown>;
      /** How soon trying again makes sense (the funnel sends `Retry-After`). */
      retryAfterSeconds?: number;
      /** The chat's `{reply}` when it is not the usual one for the status. */
      reply?: ApiText;
    } = {},
  ) {
    super(sayApiText(message, DEFAULT_LANG));
    this.details = sayApiText(details, DEFAULT_LANG);
    this.#texts = { error: message, details, reply: options.reply };
  }

  /** The `error` and `details` of the answer (and the chat's own `reply`, if any) in `lang`. */
  describe(lang: Lang): { error: string; details: string; reply?: string } {
    const { error, details, reply } = this.#texts;
    return {
      error: sayApiText(error, lang),
      details: sayApiText(details, lang),
      reply: reply === undefined ? undefined : sayApiText(reply, lang),
    };
  }
}

export class BadRequestError extends HttpError {
  override name = "BadRequestError";
  constructor(details: ApiText, body?: Record<string, unknown>) {
    super(400, apiMessage("error.400"), details, { body });
  }
}

export class UnauthorizedError extends HttpError {
  override name = "UnauthorizedError";
  constructor(details: ApiText) {
    super(401, apiMessage("error.401"), details);
  }
}

export class ForbiddenError extends HttpError {
  override name = "ForbiddenError";
  constructor(details: ApiText) {
    super(403, apiMessage("error.403"), details);
  }
}

export class NotFoundError extends HttpError {
  override name = "NotFoundError";
  constructor(details: ApiText, body?: Record<string, unknown>) {
    super(404, apiMessage("error.404"), details, { body });
  }
}

export class ConflictError extends HttpError {
  override name = "ConflictError";
  constructor(details: ApiText, body?: Record<string, unknown>) {
    super(409, apiMessage("error.409"), details, { body });
  }
}

/** A request understood and refused for good: trying it again changes nothing (a check-in's rule). */
export class UnprocessableEntityError extends HttpError {
  override name = "UnprocessableEntityError";
  constructor(details: ApiText, body?: Record<string, unknown>) {
    super(422, apiMessage("error.422"), details, { body });
  }
}

export class TooManyRequestsError extends HttpError {
  override name = "TooManyRequestsError";
  constructor(details: ApiText, retryAfterSeconds: number) {
    super(429, apiMessage("error.429"), details, { retryAfterSeconds });
  }
}

export class BadGatewayError extends HttpError {
  override name = "BadGatewayError";
  constructor(details: ApiText) {
    super(502, apiMessage("error.502"), details);
  }
}

export class ServiceUnavailableError extends HttpError {
  override name = "ServiceUnavailableError";
  constructor(details: ApiText) {
    super(503, apiMessage("error.503"), details);
  }
}
