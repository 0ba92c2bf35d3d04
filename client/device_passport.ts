/**
 * The device's copy of the passport's stamps (IndexedDB, database
 * "pasaporte-sello"), so the attraction list, its pages and the passport
 * mark the places already stamped, online and offline. The server's visits
 * are the truth: the passport page saves them here each time it loads
 * online (`replace`), and a verified check-in adds its stamp. Pending
 * stamps are not stored here: they are the queue's (`check_in_queue.ts`),
 * merged in when read. No DOM use: a page and the service worker share it.
 *
 * Every change is announced on `BroadcastChannel("pasaporte")` as
 * `{type: "passport"}` (the queue announces `{type: "check-ins"}`), so every
 * open page re-reads ({@linkcode watchDeviceStamps}).
 */
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import { listQueuedCheckIns, type QueuedCheckIn } from "./check_in_queue.ts";

/** A stamp as the device knows it. */
export type DeviceStamp = {
  slug: string;
  status: "verified" | "pending";
  visitId?: string;
  rating?: number | null;
  notes?: string | null;
  /** ISO 8601. */
  at: string;
};

/** The channel every page of the portal listens on for passport changes. */
export const PASSPORT_CHANNEL = "pasaporte";

const DB_NAME = "pasaporte-sello";
const STORE = "stamps";

interface StampDb extends DBSchema {
  stamps: { key: string; value: DeviceStamp };
}

/** One connection per page (or worker), opened at the first use. */
let connection: Promise<IDBPDatabase<StampDb>> | null = null;

function openStamps(): Promise<IDBPDatabase<StampDb>> {
  connection ??= openDB<StampDb>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore(STORE, { keyPath: "slug" });
    },
    // A newer page wants to upgrade, or the browser deleted the data
    // (Clear-Site-Data at sign-out): let go, open again at the next use.
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase).close();
      connection = null;
    },
    terminated() {
      connection = null;
    },
  }).catch((error) => {
    connection = null;
    throw error;
  });
  return connection;
}

/**
 * The stamps the device knows, by slug: the verified ones saved, the
 * queue's verified ones not saved yet (a sync the service worker made), and
 * the queue's pending ones at an attraction not stamped yet. A code typed
 * on the passport page has no attraction until the server answers: it is
 * not here (the passport lists it apart). Never throws: a browser that
 * refuses IndexedDB simply knows no stamps.
 */
export async function readDeviceStamps(): Promise<Map<string, DeviceStamp>> {
  const [saved, queued] = await Promise.all([
    readSaved(),
    listQueuedCheckIns().catch(() => [] as QueuedCheckIn[]),
  ]);
  const stamps = new Map<string, DeviceStamp>();
  for (const stamp of saved) {
    stamps.set(stamp.slug, { ...stamp, status: "verified" });
  }
  for (const entry of queued) {
    const slug = entry.atractivo ?? entry.slug;
    if (!slug || stamps.get(slug)?.status === "verified") continue;
    // Refused as already stamped: the passport has it.
    const stamped = entry.status === "verified" ||
      (entry.status === "rejected" &&
        entry.refusal?.reason === "already_visited");
    if (stamped) {
      stamps.set(slug, {
        slug,
        status: "verified",
        visitId: entry.visitId,
        rating: null,
        notes: null,
        at: entry.claimedAt,
      });
    } else if (entry.status === "pending" && !stamps.has(slug)) {
      stamps.set(slug, { slug, status: "pending", at: entry.claimedAt });
    }
  }
  return stamps;
}

async function readSaved(): Promise<DeviceStamp[]> {
  try {
    // Not idb's `db.getAll` shortcut: it leaves a read's `done` unobserved,
    // an unhandled rejection when the browser closes the database under it
    // (Clear-Site-Data at sign-out).
    const tx = (await openStamps()).transaction(STORE);
    const [saved] = await Promise.all([tx.store.getAll(), tx.done]);
    return saved;
  } catch {
    return [];
  }
}

/**
 * Saves verified stamps (a pending one is the queue's and is ignored); with
 * `replace`, they are the passport's whole list, as the server rendered it,
 * and any other stamp saved before is forgotten. Never throws.
 */
export async function saveDeviceStamps(
  stamps: DeviceStamp[],
  { replace, asOf }: {
    replace: boolean;
    /**
     * With `replace`, when the server rendered the list (ISO 8601): a list
     * older than the last one replaced (a page the service worker answered
     * from its cache on a slow network) is ignored.
     */
    asOf?: string;
  },
): Promise<void> {
  if (replace && asOf) {
    if (!isNewerList(asOf)) return;
  }
  const verified = stamps.filter((stamp) => stamp.status === "verified");
  try {
    const db = await openStamps();
    const tx = db.transaction(STORE, "readwrite");
    // Every request and the transaction awaited together: an aborted one
    // (the browser clearing the site's data) rejects once, handled here.
    await Promise.all([
      replace ? tx.store.clear() : undefined,
      ...verified.map((stamp) =>
        tx.store.put({
          slug: stamp.slug,
          status: "verified",
          visitId: stamp.visitId,
          rating: stamp.rating ?? null,
          notes: stamp.notes ?? null,
          at: stamp.at,
        })
      ),
      tx.done,
    ]);
  } catch {
    return;
  }
  announceChange();
}

/** Where the time of the last list replaced is kept (cleared with the site's data). */
const LIST_AS_OF_KEY = "pasaporte-sello:asOf";

/** Whether a list rendered at `asOf` is newer than the last one replaced; if so, it becomes the last. */
function isNewerList(asOf: string): boolean {
  try {
    const last = localStorage.getItem(LIST_AS_OF_KEY);
    if (last && Date.parse(last) > Date.parse(asOf)) return false;
    localStorage.setItem(LIST_AS_OF_KEY, asOf);
  } catch {
    // No storage (a worker, a locked-down browser): replace as asked.
  }
  return true;
}

/** Forgets the device's stamps (sign-out, erasure). Never throws. */
export async function clearDevicePassport(): Promise<void> {
  try {
    localStorage.removeItem(LIST_AS_OF_KEY);
  } catch {
    // No storage: nothing kept there.
  }
  try {
    await (await openStamps()).clear(STORE);
  } catch {
    return;
  }
  announceChange();
}

/**
 * Calls `onStamps` with the device's stamps now, and again whenever they
 * may have changed: a save or a clear in any page of the portal, a change
 * of the check-in queue, and the page shown again from the back-forward
 * cache. Returns the function that stops watching.
 */
export function watchDeviceStamps(
  onStamps: (stamps: Map<string, DeviceStamp>) => void,
): () => void {
  let stopped = false;
  let reading = Promise.resolve();
  const read = () => {
    // One read at a time, in order: the last change is the one shown.
    reading = reading.then(async () => {
      const stamps = await readDeviceStamps();
      if (!stopped) onStamps(stamps);
    });
  };
  const channel = typeof BroadcastChannel === "undefined"
    ? null
    : new BroadcastChannel(PASSPORT_CHANNEL);
  channel?.addEventListener("message", (event: MessageEvent) => {
    const type = (event.data as { type?: unknown } | null)?.type;
    if (type === "passport" || type === "check-ins") read();
  });
  const onShow = (event: Event) => {
    if ((event as PageTransitionEvent).persisted) read();
  };
  globalThis.addEventListener?.("pageshow", onShow);
  read();
  return () => {
    stopped = true;
    channel?.close();
    globalThis.removeEventListener?.("pageshow", onShow);
  };
}

/** Tells every open page (this one too) that the stamps changed. */
function announceChange(): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(PASSPORT_CHANNEL);
  channel.postMessage({ type: "passport" });
  channel.close();
}
