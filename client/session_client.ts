/**
 * The browser side of page sessions, free of UI so it is tested in Deno: the
 * islands of "Mi pasaporte" call the JSON API with a short-lived bearer
 * token from `POST /api/session-token` (the HttpOnly session cookie never
 * reaches script), renewed before it expires and once more after a 401.
 */

/** An API answer: the status and the parsed JSON body (`{}` when it was not JSON). */
export interface ApiResult {
  status: number;
  body: Record<string, unknown>;
}

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
  { fetchFn = fetch, now = Date.now }: {
    fetchFn?: typeof fetch;
    now?: () => number;
  } = {},
) {
  let cached: { token: string; renewAt: number } | null = null;

  async function getToken(force: boolean): Promise<string> {
    if (!force && cached && now() < cached.renewAt) return cached.token;
    const res = await fetchFn("/api/session-token", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json" },
      body: "{}",
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
      renewAt: now() + Math.max(0, expiresIn * 1000 - RENEW_EARLY_MS),
    };
    return body.token;
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
    return {
      status: res.status,
      body: json && typeof json === "object" ? json : {},
    };
  }

  return {
    /** POSTs `body` as JSON to `path` with the session's token. */
    async post(path: string, body: unknown): Promise<ApiResult> {
      const result = await send(path, body, await getToken(false));
      if (result.status !== 401) return result;
      // The token may have just expired: one fresh token, one more try.
      return await send(path, body, await getToken(true));
    },
  };
}

/** The Spanish message for a failed verification (spec and DESIGN.md statuses). */
export function describeVerifyError(result: ApiResult): string {
  switch (result.status) {
    case 400:
      return "Escribe el código tal como aparece en el atractivo.";
    case 404:
      return "Ese código no corresponde a ningún atractivo. Revísalo e inténtalo de nuevo.";
    case 409:
      return "Ya habías registrado tu visita a este atractivo.";
    case 429:
      return "Demasiados códigos incorrectos seguidos. Espera unos minutos e inténtalo de nuevo.";
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
