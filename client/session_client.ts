/**
 * The browser side of page sessions, free of UI so it is tested in Deno: the
 * islands call the JSON API with a short-lived bearer token from `POST
 * /api/session-token` (the HttpOnly session cookie never reaches script),
 * renewed before it expires and once more after a 401. With `guest`, a
 * visitor without a passport gets a guest passport at the first call.
 */

/** An API answer: the status, the parsed JSON body (`{}` when it was not JSON) and `Retry-After` in seconds. */
export interface ApiResult {
  status: number;
  body: Record<string, unknown>;
  retryAfter?: number;
}

/** A JSON request body. */
export type JsonBody = Record<string, unknown>;

/** The session is gone (signed out elsewhere, or expired): the page should offer sign-in again. */
export class SessionExpiredError extends Error {
  override name = "SessionExpiredError";
}

/** Renew a token this long before it expires, so a slow request does not carry a dead one. */
const RENEW_EARLY_MS = 30_000;

/**
 * An API client for one page. `post` sends JSON with the session's bearer
 * token; network failures reject with the fetch error, a lost session with
 * {@linkcode SessionExpiredError}.
 */
export function createSessionApi(
  { fetchFn = fetch, now = Date.now, guest = false }: {
    fetchFn?: typeof fetch;
    now?: () => number;
    /** Give a visitor without a passport a guest passport at the first call. */
    guest?: boolean;
  } = {},
) {
  let cached: { token: string; userId: string; renewAt: number } | null = null;

  async function getToken(
    force: boolean,
  ): Promise<{ token: string; userId: string }> {
    if (!force && cached && now() < cached.renewAt) return cached;
    const res = await fetchFn("/api/session-token", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(guest ? { guest: true } : {}),
    });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401) {
      cached = null;
      throw new SessionExpiredError("No session");
    }
    if (!res.ok || typeof body.token !== "string") {
      throw new Error(`session-token answered ${res.status}`);
    }
    const expiresIn = typeof body.expiresIn === "number" ? body.expiresIn : 60;
    cached = {
      token: body.token,
      userId: typeof body.userId === "string" ? body.userId : "",
      renewAt: now() + Math.max(0, expiresIn * 1000 - RENEW_EARLY_MS),
    };
    return cached;
  }

  async function send(path: string, body: unknown, token: string) {
    const res = await fetchFn(path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({}));
    const retryAfter = Number(res.headers?.get("retry-after"));
    return {
      status: res.status,
      body: json && typeof json === "object" ? json : {},
      ...(retryAfter > 0 ? { retryAfter } : {}),
    };
  }

  return {
    /**
     * POSTs `body` as JSON to `path` with the session's token; a function
     * body is given the session's user id (the API wants it as `userId`).
     */
    async post(
      path: string,
      body: JsonBody | ((userId: string) => JsonBody),
    ): Promise<ApiResult> {
      const toBody = (userId: string) =>
        typeof body === "function" ? body(userId) : body;
      let session = await getToken(false);
      const result = await send(path, toBody(session.userId), session.token);
      if (result.status !== 401) return result;
      // The token may have just expired: one fresh token, one more try.
      session = await getToken(true);
      return await send(path, toBody(session.userId), session.token);
    },
  };
}

/** The Spanish message for a failed verification (the statuses of docs/API.md, verify-visit). */
export function describeVerifyError(result: ApiResult): string {
  switch (result.status) {
    case 400:
      return "Escribe el código tal como aparece en el atractivo.";
    case 404: {
      const left = result.body.remainingAttempts;
      const more = typeof left === "number"
        ? ` Te ${left === 1 ? "queda 1 intento" : `quedan ${left} intentos`}.`
        : "";
      return `Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo.${more}`;
    }
    case 409:
      return "Ya habías registrado tu visita a este atractivo.";
    case 429: {
      const minutes = Math.max(1, Math.ceil((result.retryAfter ?? 60) / 60));
      return `Demasiados códigos incorrectos seguidos. Podrás intentarlo de nuevo en ${
        minutes === 1 ? "1 minuto" : `${minutes} minutos`
      }.`;
    }
    default:
      return "No pudimos registrar tu visita en este momento. Inténtalo de nuevo en unos minutos.";
  }
}

/** The Spanish message for a failed rating. */
export function describeRateError(result: ApiResult): string {
  if (result.status === 404) {
    return "Primero registra tu visita a este atractivo.";
  }
  return "No pudimos guardar tu calificación. Inténtalo de nuevo en unos minutos.";
}

/** What to tell a visitor whose request failed before any answer. */
export const OFFLINE_MESSAGE =
  "No pudimos conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.";
/** What to tell a visitor whose session ended while the page was open. */
export const SESSION_EXPIRED_MESSAGE =
  "Tu sesión terminó. Vuelve a iniciar sesión para continuar.";
