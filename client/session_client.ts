/**
 * The browser side of page sessions, free of UI so it is tested in Deno: the
 * islands call the JSON API with a short-lived bearer token from `POST
 * /api/session-token` (the HttpOnly session cookie never reaches script),
 * renewed before it expires and once more after a 401. With `guest`, a
 * visitor without a passport gets a guest passport at the first call. Every
 * call says the page's language (`Accept-Language`), so the API words its
 * errors in it.
 */
import type { Translate } from "./messages.ts";

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
  { fetchFn = fetch, now = Date.now, guest = false, lang }: {
    fetchFn?: typeof fetch;
    now?: () => number;
    /** Give a visitor without a passport a guest passport at the first call. */
    guest?: boolean;
    /** The page's language, sent as `Accept-Language` (none: the API's default, Spanish). */
    lang?: string;
  } = {},
) {
  const language: Record<string, string> = lang
    ? { "accept-language": lang }
    : {};
  let cached: { token: string; userId: string; renewAt: number } | null = null;

  async function getToken(
    force: boolean,
  ): Promise<{ token: string; userId: string }> {
    if (!force && cached && now() < cached.renewAt) return cached;
    const res = await fetchFn("/api/session-token", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", ...language },
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

  async function send(
    path: string,
    body: unknown,
    token: string,
    headers: Record<string, string>,
  ) {
    const res = await fetchFn(path, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        ...language,
        ...headers,
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

  async function read(path: string, token: string) {
    const res = await fetchFn(path, {
      credentials: "same-origin",
      headers: { authorization: `Bearer ${token}`, ...language },
    });
    const json = await res.json().catch(() => ({}));
    return {
      status: res.status,
      body: json && typeof json === "object" ? json : {},
    };
  }

  return {
    /** GETs `path` with the session's token, renewed once after a 401 like {@linkcode post}. */
    async get(path: string): Promise<ApiResult> {
      const result = await read(path, (await getToken(false)).token);
      if (result.status !== 401) return result;
      return await read(path, (await getToken(true)).token);
    },
    /**
     * POSTs `body` as JSON to `path` with the session's token; a function
     * body is given the session's user id (the API wants it as `userId`).
     * `headers` are sent too (a ticket's `Idempotency-Key`).
     */
    async post(
      path: string,
      body: JsonBody | ((userId: string) => JsonBody),
      { headers = {} }: { headers?: Record<string, string> } = {},
    ): Promise<ApiResult> {
      const toBody = (userId: string) =>
        typeof body === "function" ? body(userId) : body;
      let session = await getToken(false);
      const result = await send(
        path,
        toBody(session.userId),
        session.token,
        headers,
      );
      if (result.status !== 401) return result;
      // The token may have just expired: one fresh token, one more try.
      session = await getToken(true);
      return await send(path, toBody(session.userId), session.token, headers);
    },
  };
}

/**
 * The message for a failed verification (the statuses of docs/API.md,
 * verify-visit), from the `session` namespace of the island's messages.
 */
export function describeVerifyError(result: ApiResult, t: Translate): string {
  switch (result.status) {
    case 400:
      return t("session.verifyBadRequest");
    case 404: {
      const left = result.body.remainingAttempts;
      return typeof left === "number"
        ? t("session.verifyNotFoundAttempts", { left })
        : t("session.verifyNotFound");
    }
    case 409:
      return t("session.verifyAlready");
    case 429: {
      const minutes = Math.max(1, Math.ceil((result.retryAfter ?? 60) / 60));
      return t("session.verifyTooMany", { minutes });
    }
    default:
      return t("session.verifyFailed");
  }
}

/** The message for a failed rating, from the `rating` namespace. */
export function describeRateError(result: ApiResult, t: Translate): string {
  return t(result.status === 404 ? "rating.noVisit" : "rating.failed");
}

/**
 * The message for a request that failed before any answer: the session
 * ended while the page was open, or the network is down.
 */
export function describeFailure(error: unknown, t: Translate): string {
  return t(
    error instanceof SessionExpiredError
      ? "session.sessionExpired"
      : "session.offline",
  );
}
