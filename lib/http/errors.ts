/**
 * Errors that map to an HTTP status. Domain code throws these; the one error
 * handler in `error_handler.ts` turns them into `{error, details}` bodies
 * (chat: `{reply}`). `message` is the short Spanish `error`, `details` says
 * more.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string,
    readonly options: {
      /** Extra fields for the JSON body, e.g. the first visit of a 409. */
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** The chat's `{reply}` when it is not the usual one for the status. */
      reply?: string;
    } = {},
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  override name = "BadRequestError";
  constructor(details: string, body?: Record<string, unknown>) {
    super(400, "Solicitud no válida", details, { body });
  }
}

export class UnauthorizedError extends HttpError {
  override name = "UnauthorizedError";
  constructor(details: string) {
    super(401, "No autorizado", details, {
      headers: {
        "WWW-Authenticate": 'Bearer realm="turismo", error="invalid_token"',
      },
    });
  }
}

export class ForbiddenError extends HttpError {
  override name = "ForbiddenError";
  constructor(details: string) {
    super(403, "Prohibido", details);
  }
}

export class NotFoundError extends HttpError {
  override name = "NotFoundError";
  constructor(details: string, body?: Record<string, unknown>) {
    super(404, "No encontrado", details, { body });
  }
}

export class ConflictError extends HttpError {
  override name = "ConflictError";
  constructor(details: string, body?: Record<string, unknown>) {
    super(409, "Conflicto", details, { body });
  }
}

export class TooManyRequestsError extends HttpError {
  override name = "TooManyRequestsError";
  constructor(details: string, retryAfterSeconds: number) {
    super(429, "Demasiadas solicitudes", details, {
      headers: {
        "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))),
      },
    });
  }
}

export class BadGatewayError extends HttpError {
  override name = "BadGatewayError";
  constructor(details: string) {
    super(502, "Error de un servicio externo", details);
  }
}

export class ServiceUnavailableError extends HttpError {
  override name = "ServiceUnavailableError";
  constructor(details: string) {
    super(503, "Servicio no disponible", details);
  }
}
