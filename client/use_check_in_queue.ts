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
  listQueuedCheckIns,
  PASSPORT_CHANNEL,
  type QueuedCheckIn,
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
