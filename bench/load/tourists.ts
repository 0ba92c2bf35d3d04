/**
 * What tourists and link previews do to a route's share card, over HTTP, as
 * the card phases make them do it: a new user checks in, makes a ticket
 * (the card is drawn on that write), renames the route; a link preview asks
 * for the card. And what the bench reads of the result straight from the
 * service's KV file (opened beside the service: SQLite's WAL lets a second
 * process read while the service writes): whether a route's card is stored
 * and which one (`readRouteCard(kv, code).storedKey`, the hash of what the
 * stored PNG shows), so renders are counted without a hook in the service.
 */
import { signOwnToken } from "@/lib/auth/tokens.ts";
import { readRouteCard } from "@/lib/db/card_images.ts";

/** The User-Agent a link preview sends (WhatsApp's and Facebook's crawler). */
export const PREVIEW_AGENT = "facebookexternalhit/1.1";

let addresses = 0;

/**
 * A client address no other request of the run used (172.16.0.0/12; wrk's
 * scripts use 10.0.0.0/8): with `TRUST_PROXY=1` each write is a new
 * visitor to the per-IP budget and the ticket limit (20 an hour).
 */
export function nextAddress(): string {
  const n = addresses++;
  return `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`;
}

/** A new tourist: a user id and the service's own token for it. */
export interface Tourist {
  userId: string;
  authorization: string;
}

export async function newTourist(secret: Uint8Array): Promise<Tourist> {
  const userId = crypto.randomUUID();
  const token = await signOwnToken(secret, userId, { expiresInSeconds: 7200 });
  return { userId, authorization: `Bearer ${token}` };
}

/** Options of every write: send `X-Forwarded-For` (the service trusts one hop). */
export interface WriteOptions {
  forwarded?: boolean;
}

async function post(
  url: string,
  tourist: Tourist,
  body: unknown,
  { forwarded = false }: WriteOptions,
): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: tourist.authorization,
      ...(forwarded ? { "x-forwarded-for": nextAddress() } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, text };
}

function ensureOk(what: string, r: { status: number; text: string }): void {
  if (r.status !== 200) {
    throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 300)}`);
  }
}

/** POST /api/turismo/ticket with the tourist's token: the route's ticket, linked to them. */
export async function createTicket(
  baseUrl: string,
  tourist: Tourist,
  shareCode: string,
  options: WriteOptions = {},
): Promise<number> {
  const r = await post(`${baseUrl}/api/turismo/ticket`, tourist, {
    name: "Viajera de prueba",
    email: `${shareCode}@ejemplo.mx`,
    shareCode,
  }, options);
  ensureOk(`ticket ${shareCode}`, r);
  return r.ms;
}

/** POST /api/turismo/verify-visit: a check-in with an attraction's guide code. */
export async function checkIn(
  baseUrl: string,
  tourist: Tourist,
  guideCode: string,
  options: WriteOptions = {},
): Promise<void> {
  ensureOk(
    `verify-visit ${guideCode}`,
    await post(`${baseUrl}/api/turismo/verify-visit`, tourist, {
      code: guideCode,
      userId: tourist.userId,
    }, options),
  );
}

/** POST /api/turismo/users/<id>/name: the name the route and its card show. */
export async function renameRoute(
  baseUrl: string,
  tourist: Tourist,
  name: string,
  options: WriteOptions = {},
): Promise<{ status: number; ms: number }> {
  const { status, ms } = await post(
    `${baseUrl}/api/turismo/users/${tourist.userId}/name`,
    tourist,
    { name },
    options,
  );
  return { status, ms };
}

/** One answer for a route's card, timed from the request to the end of its body. */
export interface CardAnswer {
  status: number;
  ms: number;
  etag: string | null;
  bytes: number;
}

/** GET /api/turismo/og/<code> as a link preview asks for it (optionally conditional). */
export async function fetchCard(
  baseUrl: string,
  code: string,
  { ifNoneMatch, forwarded = false }: {
    ifNoneMatch?: string;
    forwarded?: boolean;
  } = {},
): Promise<CardAnswer> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/api/turismo/og/${code}`, {
    headers: {
      "user-agent": PREVIEW_AGENT,
      ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}),
      ...(forwarded ? { "x-forwarded-for": nextAddress() } : {}),
    },
  });
  const body = await res.arrayBuffer();
  return {
    status: res.status,
    ms: performance.now() - started,
    etag: res.headers.get("etag"),
    bytes: body.byteLength,
  };
}

/**
 * The ETag the service answers for a card whose `renderKey` is `key`
 * (lib/og/share_cards.ts, `#currentRouteCard`): sent back in If-None-Match,
 * a 304 says the stored card shows what the route shows now.
 */
export function etagOfKey(key: string): string {
  return `"${key.slice(3, 35)}"`;
}

/** The stored card's key of `code` (`null`: none stored). */
export async function readStoredKey(
  kv: Deno.Kv,
  code: string,
): Promise<string | null> {
  return (await readRouteCard(kv, code)).storedKey;
}

/**
 * Polls `code`'s stored card every {@linkcode POLL_MS} until its key is
 * set and differs from `previous`; the key and the wait, or `null` after
 * `timeoutMs`.
 */
export async function waitForStoredCard(
  kv: Deno.Kv,
  code: string,
  { previous = null, timeoutMs = 60_000 }: {
    previous?: string | null;
    timeoutMs?: number;
  } = {},
): Promise<{ key: string; ms: number } | null> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const key = await readStoredKey(kv, code);
    if (key !== null && key !== previous) {
      return { key, ms: performance.now() - started };
    }
    await sleep(POLL_MS);
  }
  return null;
}

/** How often the bench reads a stored card's head. */
export const POLL_MS = 20;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
