import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CHAT_REPLIES, isChatPath } from "@/lib/chat/replies.ts";
import { HttpError } from "./errors.ts";

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
    let reply: string | undefined;
    if (error instanceof HttpError) {
      reply = error.options.reply;
      status = error.status;
      body = {
        error: error.message,
        details: error.details,
        ...error.options.body,
      };
      headers = error.options.headers ?? {};
    } else if (error instanceof HTTPException && error.status < 500) {
      status = error.status;
      // Hono's own exceptions carry English text (e.g. its validator's
      // "Malformed JSON in request body"): never shown to a visitor.
      body = {
        error: "Solicitud no válida",
        details: "Revisa los datos que enviaste e inténtalo de nuevo.",
      };
    } else {
      console.error(`Unhandled error on ${c.req.method} ${c.req.path}:`, error);
      status = 500;
      body = {
        error: "Error interno del servidor",
        details: "Inténtalo de nuevo más tarde",
      };
    }
    if (isChatPath(c.req.path)) {
      body = { reply: reply ?? CHAT_REPLIES[status] ?? CHAT_REPLIES[500] };
    }
    return c.json(body, status as ContentfulStatusCode, headers);
  };
}
