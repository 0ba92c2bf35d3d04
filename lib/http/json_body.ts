import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { BadRequestError, HttpError } from "./errors.ts";

/** The largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

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
