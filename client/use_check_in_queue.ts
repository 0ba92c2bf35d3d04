/**
 * The device's check-ins and stamps for an island, kept current: read when
 * the island starts, again whenever any page (or the service worker)
 * announces a change on `BroadcastChannel("pasaporte")`, and the queue sent
 * when the page loads with signal, when the signal returns (`online`), and
 * when the server said to try again later (a lockout's `Retry-After`).
 */
import { useEffect, useState } from "preact/hooks";
import {
  CHECK_IN_SYNC_TAG,
  type CheckInDraft,
  enqueueCheckIn,
  listQueuedCheckIns,
  makeCheckIn,
  PASSPORT_CHANNEL,
  type QueuedCheckIn,
  sendCheckInNow,
  syncQueuedCheckIns,
} from "./check_in_queue.ts";
import { type DeviceStamp, readDeviceStamps } from "./device_passport.ts";

/** How soon a check-in the server put off is sent again, without a `Retry-After`. */
const RETRY_SECONDS = 30;

/** The queue and the stamps, with `refresh` (read again) and `sync` (send, then read). */
export function useCheckInQueue(lang: string) {
  const [queue, setQueue] = useState<QueuedCheckIn[]>([]);
  const [stamps, setStamps] = useState<Map<string, DeviceStamp>>(new Map());

  async function refresh(): Promise<QueuedCheckIn[]> {
    const [items, known] = await Promise.all([
      listQueuedCheckIns().catch(() => []),
      readDeviceStamps().catch(() => new Map<string, DeviceStamp>()),
    ]);
    setQueue(items);
    setStamps(known);
    return items;
  }

  async function sync(): Promise<QueuedCheckIn[]> {
    await syncQueuedCheckIns({ lang });
    const items = await refresh();
    if (items.some((item) => item.status === "pending")) askBackgroundSync();
    return items;
  }

  useEffect(() => {
    const channel = typeof BroadcastChannel === "function"
      ? new BroadcastChannel(PASSPORT_CHANNEL)
      : null;
    if (channel) channel.onmessage = () => void refresh();
    const onOnline = () => void sync();
    addEventListener("online", onOnline);
    // Whatever the last visit left pending goes now, if it can.
    refresh().then(() => navigator.onLine ? sync() : undefined);
    return () => {
      channel?.close();
      removeEventListener("online", onOnline);
    };
  }, []);

  // The server said "later" (a lockout, an error): try again then, while open.
  const deferredFor = queue.reduce(
    (wait, item) =>
      item.status === "pending" && item.deferred
        ? Math.max(wait, item.deferred.retryAfter ?? RETRY_SECONDS)
        : wait,
    0,
  );
  useEffect(() => {
    if (!deferredFor) return;
    const timer = setTimeout(() => void sync(), deferredFor * 1000);
    return () => clearTimeout(timer);
  }, [deferredFor, queue]);

  return { queue, stamps, refresh, sync };
}

/**
 * Asks the service worker to send the queue when the signal returns
 * (Background Sync, where the browser has it; elsewhere the `online` event
 * and the next page load do).
 */
export function askBackgroundSync(): void {
  navigator.serviceWorker?.getRegistration().then((registration) =>
    // deno-lint-ignore no-explicit-any -- Background Sync is not in the DOM types
    (registration as any)?.sync?.register(CHECK_IN_SYNC_TAG)
  ).catch(() => {});
}

/** What sending a check-in made on a page came to ({@linkcode submitCheckIn}). */
export type SubmitOutcome =
  /** Kept in the device's queue: `item` as it is now (pending, verified or refused). */
  | { kind: "queued"; item: QueuedCheckIn; queue: QueuedCheckIn[] }
  /** A browser that keeps no queue: sent at once, and its answer. */
  | { kind: "sent"; item: QueuedCheckIn }
  /** Nothing kept and no answer: the `session` message to show. */
  | { kind: "failed"; problem: "session.offline" | "session.verifyFailed" };

/**
 * The one way both check-in forms (an attraction's page, the passport)
 * send a check-in: kept in the device's queue, then sent at once with
 * signal (`sync`) or left to the service worker without (`refresh` reads
 * the queue back). A browser that keeps no queue (IndexedDB refused: some
 * private modes and in-app browsers) sends it now, and with no signal the
 * tourist is told to try again, since nothing can wait on this device.
 */
export async function submitCheckIn(
  draft: CheckInDraft,
  { lang, refresh = listQueuedCheckIns, sync }: {
    lang: string;
    refresh?: () => Promise<QueuedCheckIn[]>;
    sync?: () => Promise<QueuedCheckIn[]>;
  },
): Promise<SubmitOutcome> {
  const item = await enqueueCheckIn(draft).catch(() => null);
  if (!item) {
    const sent = await sendCheckInNow(makeCheckIn(draft, new Date()), { lang });
    if ("failed" in sent) {
      return {
        kind: "failed",
        problem: sent.failed === "offline"
          ? "session.offline"
          : "session.verifyFailed",
      };
    }
    return { kind: "sent", item: sent.settled };
  }
  let queue = await refresh().catch(() => [item]);
  if (navigator.onLine) {
    queue = await (sync ?? (() => syncQueuedCheckIns({ lang })))();
  } else {
    askBackgroundSync();
  }
  return {
    kind: "queued",
    item: queue.find((each) => each.checkInId === item.checkInId) ?? item,
    queue,
  };
}
