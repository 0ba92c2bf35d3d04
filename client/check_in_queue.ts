/**
 * The device's queue of check-ins (IndexedDB): a guide code typed or an
 * "Estoy aquí" tapped with no signal is kept here, shown as a pending stamp
 * and sent when the connection returns, by a page or by the service worker.
 *
 * Exactly once: every check-in gets its id (`checkInId`) when it is made,
 * and the server keeps the first answer for that id, so sending it again
 * after a lost response gets the same answer and counts nothing twice. On
 * the device one sync runs at a time (a Web Lock, shared by the pages and
 * the service worker, where the browser has it; one queue per context
 * besides), so the same check-in is not even sent twice at once.
 *
 * No DOM: the service worker imports it (`client/service_worker.ts`).
 */
import {
  type DBSchema,
  type IDBPDatabase,
  type IDBPObjectStore,
  openDB,
} from "idb";
import type { CheckInRefusal } from "@/lib/check_in/names.ts";
import { type ApiResult, createSessionApi } from "./session_client.ts";

/**
 * Why the server refused a check-in, for the page to word it in its
 * language: the answer's status, and its body's reason and facts (a 422's
 * are a `CheckInRefusal` of lib/check_in/names.ts, the same shape the
 * server's rules return).
 */
export type RefusedAnswer = Omit<Partial<CheckInRefusal>, "reason"> & {
  /** The HTTP status (404: no such code, 409: already stamped or id reused, 422, 400). */
  status: number;
  /** The body's `reason` (a 409's `already_visited`, `id_reused`; a 422's refusal). */
  reason?: string;
  /** 404: the wrong codes still allowed before the lockout. */
  remainingAttempts?: number;
};

/** A check-in kept on the device. */
export type QueuedCheckIn = {
  checkInId: string;
  /** The attraction of the page it was made on (null: the passport's code form). */
  slug: string | null;
  /**
   * The guide code, kept only while pending (to send it): deleted from the
   * record as soon as the server has answered, so the device keeps no code.
   */
  code?: string;
  /** Kept until the server has answered, then forgotten. */
  position?: { lat: number; lng: number; accuracy: number };
  /** ISO 8601, the device's clock when it was made. */
  claimedAt: string;
  status: "pending" | "verified" | "rejected";
  /** Why it was rejected, worded by the server in the page's language. */
  message?: string;
  /** Why it was rejected, as data (the page words it again in its own language). */
  refusal?: RefusedAnswer;
  visitId?: string;
  /** The attraction the server recorded it at. */
  atractivo?: string;
  badge?: { id: string; name: string; icon: string } | null;
  /** ISO 8601, the device's clock when the server's final answer arrived. */
  resolvedAt?: string;
  /**
   * Still pending because the server said "later" (a 429 lockout, a 5xx):
   * its status and `Retry-After` seconds, for the page to say so.
   */
  deferred?: { status: number; retryAfter?: number };
};

/** The Background Sync tag the service worker sends the queue on. */
export const CHECK_IN_SYNC_TAG = "check-ins";

/** The channel every open page listens to (`{type: "check-ins"}` after a change). */
export const PASSPORT_CHANNEL = "pasaporte";

const DB_NAME = "pasaporte-cola";
const STORE = "check-ins";
/** The Web Lock one sync holds, across the pages and the service worker. */
const LOCK_NAME = "pasaporte-check-ins";
/** Rejected check-ins are kept this long (the page says why), then dropped. */
const KEEP_REJECTED_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A request that has not answered by then is given up (weak signal): the
 * check-in stays pending, and sending it again is harmless.
 */
const SEND_TIMEOUT_MS = 15_000;

interface QueueSchema extends DBSchema {
  [STORE]: { key: string; value: QueuedCheckIn };
}

/** The queue's store in a read-write transaction. */
type QueueStore = IDBPObjectStore<
  QueueSchema,
  [typeof STORE],
  typeof STORE,
  "readwrite"
>;

let database: Promise<IDBPDatabase<QueueSchema>> | undefined;

/** The queue's database, opened once per context (again after the browser closed it). */
function getDatabase(): Promise<IDBPDatabase<QueueSchema>> {
  database ??= openDB<QueueSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE, { keyPath: "checkInId" });
    },
    // Another context upgrades, or Clear-Site-Data deletes it: let go.
    blocking() {
      database?.then((db) => db.close());
      database = undefined;
    },
    terminated() {
      database = undefined;
    },
  }).catch((error) => {
    database = undefined;
    throw error;
  });
  return database;
}

/**
 * Runs `fn` in one read-write transaction of the queue and waits for it to
 * commit. The transaction's `done` is observed at once: when the browser
 * closes the database under it (`Clear-Site-Data` at sign-out), both the
 * request and `done` reject, and the page must not see an unhandled
 * rejection for the one nobody awaited yet.
 */
async function inTransaction<T>(
  fn: (store: QueueStore) => Promise<T>,
): Promise<T> {
  const db = await getDatabase();
  const tx = db.transaction(STORE, "readwrite");
  const done = tx.done;
  done.catch(() => {});
  const result = await fn(tx.store);
  await done;
  return result;
}

/** Tells every open page (and this one's other islands) to read the queue again. */
function announceChange(): void {
  if (typeof BroadcastChannel !== "function") return;
  try {
    const channel = new BroadcastChannel(PASSPORT_CHANNEL);
    channel.postMessage({ type: "check-ins" });
    channel.close();
  } catch {
    // No channel (an old browser): each page reads the queue when it loads.
  }
}

/** Keeps a new check-in as pending: a code, or a position at the page's attraction. */
export async function enqueueCheckIn(
  input: CheckInDraft,
  { now = () => new Date() }: { now?: () => Date } = {},
): Promise<QueuedCheckIn> {
  const made = now();
  const item = makeCheckIn(input, made);
  await inTransaction(async (store) => {
    await tidyQueue(store, made);
    await store.put(item);
  });
  announceChange();
  return item;
}

/**
 * Drops the rejected check-ins older than {@linkcode KEEP_REJECTED_MS}, and
 * deletes the code of any answered one that still has it (kept by an
 * older version of this page, which forgot codes later).
 */
async function tidyQueue(
  store: QueueStore,
  now: Date,
): Promise<void> {
  for (const old of await store.getAll()) {
    if (
      old.status === "rejected" &&
      now.getTime() - Date.parse(old.resolvedAt ?? old.claimedAt) >
        KEEP_REJECTED_MS
    ) {
      await store.delete(old.checkInId);
    } else if (old.status !== "pending" && "code" in old) {
      const { code: _forgotten, ...kept } = old;
      await store.put(kept);
    }
  }
}

/** What a check-in is made of: a code, or a position at an attraction. */
export type CheckInDraft = Pick<QueuedCheckIn, "slug" | "code" | "position">;

/** A new pending check-in, with its own id, claimed at `made`. */
export function makeCheckIn(input: CheckInDraft, made: Date): QueuedCheckIn {
  return {
    checkInId: crypto.randomUUID(),
    slug: input.slug,
    ...(input.position
      ? {
        position: {
          lat: input.position.lat,
          lng: input.position.lng,
          accuracy: input.position.accuracy,
        },
      }
      : { code: input.code ?? "" }),
    claimedAt: made.toISOString(),
    status: "pending",
  };
}

/**
 * Sends one check-in now, without the queue, for a browser that keeps none
 * (IndexedDB refused): the server's final answer as a settled check-in, or
 * the failure that left it unsent (`offline`: no answer at all; `later`: a
 * retryable status, with the answer).
 */
export async function sendCheckInNow(
  item: QueuedCheckIn,
  { lang, fetchFn, now = () => new Date() }: {
    lang?: string;
    fetchFn?: typeof fetch;
    now?: () => Date;
  } = {},
): Promise<
  | { settled: QueuedCheckIn }
  | { failed: "offline" }
  | { failed: "later"; result: ApiResult }
> {
  let result: ApiResult;
  try {
    result = await postCheckIn(createCheckInApi(lang, fetchFn), item);
  } catch {
    return { failed: "offline" };
  }
  const settled = settleCheckIn(item, result, now());
  return settled ? { settled } : { failed: "later", result };
}

/** The session API that check-ins are sent with (a guest passport if no session). */
function createCheckInApi(lang?: string, fetchFn?: typeof fetch) {
  return createSessionApi({
    guest: true,
    lang,
    // Looked up when the request goes (a service worker's `fetch` may be
    // wrapped after this module loaded).
    fetchFn: fetchFn ??
      ((input, init) =>
        fetch(input, {
          ...init,
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        })),
  });
}

/** `POST /api/turismo/check-in` for `item`; throws when no answer came. */
function postCheckIn(
  api: ReturnType<typeof createSessionApi>,
  item: QueuedCheckIn,
): Promise<ApiResult> {
  return api.post(
    "/api/turismo/check-in",
    (userId) => toCheckInBody(item, userId),
  );
}

/** Every check-in on the device, oldest first. */
export async function listQueuedCheckIns(): Promise<QueuedCheckIn[]> {
  // Not idb's `db.getAll` shortcut: it leaves a read's `done` unobserved,
  // an unhandled rejection when the browser closes the database under it.
  const tx = (await getDatabase()).transaction(STORE);
  const [items] = await Promise.all([tx.store.getAll(), tx.done]);
  return items.sort((a, b) => a.claimedAt.localeCompare(b.claimedAt));
}

/** Forgets every queued check-in (sign-out, erasure). */
export async function clearCheckInQueue(): Promise<void> {
  await (await getDatabase()).clear(STORE);
  announceChange();
}

/** The body `POST /api/turismo/check-in` takes for `item`. */
export function toCheckInBody(
  item: QueuedCheckIn,
  userId: string,
): Record<string, unknown> {
  const common = {
    userId,
    checkInId: item.checkInId,
    claimedAt: item.claimedAt,
  };
  return item.position
    ? { ...common, position: item.position, atractivo: item.slug }
    : { ...common, code: item.code ?? "" };
}

/**
 * What an answer makes of a pending check-in: verified or rejected (a final
 * answer: the server keeps it for this id), without its code or position,
 * or null to send it again later (401 after a fresh token, 408, 429, a 5xx).
 */
export function settleCheckIn(
  item: QueuedCheckIn,
  result: ApiResult,
  resolvedAt: Date,
): QueuedCheckIn | null {
  const { status, body } = result;
  if (status === 401 || status === 408 || status === 429 || status >= 500) {
    return null;
  }
  // The code and the position are forgotten once the server has decided.
  const { code: _sent, position: _forgotten, deferred: _over, ...kept } = item;
  const settled = { ...kept, resolvedAt: resolvedAt.toISOString() };
  if (status === 200) {
    return {
      ...settled,
      status: "verified",
      visitId: String(body.visitId),
      atractivo: String(body.atractivo),
      badge: isBadge(body.badge) ? body.badge : null,
    };
  }
  const details = isRecord(body.details) ? body.details : {};
  const reason = typeof body.reason === "string"
    ? body.reason
    : typeof details.reason === "string"
    ? details.reason
    : undefined;
  const refusal: RefusedAnswer = { status };
  if (reason) refusal.reason = reason;
  for (const field of ["distanceM", "radiusM"] as const) {
    const value = body[field] ?? details[field];
    if (typeof value === "number") refusal[field] = value;
  }
  // A code's attraction, whose rule refused it (it may be another page's).
  if (typeof body.atractivo === "string" && status === 422) {
    refusal.atractivo = body.atractivo;
  }
  if (typeof body.remainingAttempts === "number") {
    refusal.remainingAttempts = body.remainingAttempts;
  }
  const message = typeof body.details === "string"
    ? body.details
    : typeof body.error === "string"
    ? body.error
    : undefined;
  return {
    ...settled,
    status: "rejected",
    refusal,
    ...(message ? { message } : {}),
    // Already stamped: the first visit, to rate it.
    ...(typeof body.visitId === "string" ? { visitId: body.visitId } : {}),
    ...(typeof body.atractivo === "string"
      ? { atractivo: body.atractivo }
      : {}),
  };
}

let queueTail: Promise<unknown> = Promise.resolve();

/**
 * Sends every pending check-in, oldest first, as the session's user (a
 * guest passport if there is none), and marks each verified or rejected as
 * the server answers; a retryable failure (no network, 401 after a fresh
 * token, 408, 429, 5xx) leaves it and the ones after it pending. Never
 * throws: on any failure the queue is as it was. Returns the whole queue.
 * `fetchFn` and `now` are for tests.
 */
export function syncQueuedCheckIns(
  { lang, fetchFn, now = () => new Date() }: {
    /** The page's language: the server words its refusals in it. */
    lang?: string;
    fetchFn?: typeof fetch;
    now?: () => Date;
  } = {},
): Promise<QueuedCheckIn[]> {
  const run = () => withLock(() => sendPending({ lang, fetchFn, now }));
  const result = queueTail.then(run, run);
  queueTail = result.catch(() => {});
  return result.catch(() => listQueuedCheckIns().catch(() => []));
}

/**
 * For the service worker's `sync` event: sends the queue as
 * {@linkcode syncQueuedCheckIns} does, then rejects while a check-in is
 * still pending, so that the browser's Background Sync tries again later
 * (with its own back-off) instead of taking the job as done.
 */
export async function syncQueuedCheckInsInBackground(
  options: { lang?: string; fetchFn?: typeof fetch } = {},
): Promise<QueuedCheckIn[]> {
  const queue = await syncQueuedCheckIns(options);
  if (queue.some((item) => item.status === "pending")) {
    throw new Error("Check-ins still pending: try again later");
  }
  return queue;
}

/** `fn` under the device-wide Web Lock, where the browser has Web Locks. */
function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? locks.request(LOCK_NAME, fn) : fn();
}

async function sendPending(
  { lang, fetchFn, now }: {
    lang?: string;
    fetchFn?: typeof fetch;
    now: () => Date;
  },
): Promise<QueuedCheckIn[]> {
  await inTransaction((store) => tidyQueue(store, now()));
  const pending = (await listQueuedCheckIns()).filter((item) =>
    item.status === "pending"
  );
  if (pending.length > 0) {
    const api = createCheckInApi(lang, fetchFn);
    for (const item of pending) {
      let result: ApiResult;
      try {
        result = await postCheckIn(api, item);
      } catch {
        break; // No network, or no session: every later one would fail too.
      }
      const settled = settleCheckIn(item, result, now());
      if (!settled) {
        await saveDeferred(item.checkInId, {
          status: result.status,
          ...(result.retryAfter ? { retryAfter: result.retryAfter } : {}),
        });
        break;
      }
      await saveSettled(settled);
    }
  }
  return await listQueuedCheckIns();
}

/** Notes why a pending check-in waits (a lockout, a server error). */
async function saveDeferred(
  checkInId: string,
  deferred: NonNullable<QueuedCheckIn["deferred"]>,
): Promise<void> {
  const changed = await inTransaction(async (store) => {
    const current = await store.get(checkInId);
    if (current?.status !== "pending") return false;
    await store.put({ ...current, deferred });
    return true;
  });
  if (changed) announceChange();
}

/** Stores a final answer, unless the queue was cleared meanwhile (sign-out). */
async function saveSettled(settled: QueuedCheckIn): Promise<void> {
  const changed = await inTransaction(async (store) => {
    const current = await store.get(settled.checkInId);
    if (current?.status !== "pending") return false;
    await store.put(settled);
    return true;
  });
  if (changed) announceChange();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isBadge(value: unknown): value is QueuedCheckIn["badge"] & object {
  return isRecord(value) && typeof value.id === "string" &&
    typeof value.name === "string" && typeof value.icon === "string";
}
