/**
 * The device's queue of check-ins (IndexedDB): a guide code typed or an
 * "Estoy aquí" tapped with no signal is kept here, shown as a pending stamp
 * and sent when the connection returns, by a page or by the service worker.
 * STUB: helper C1 implements it (see the issue 32 contract).
 */

/** A check-in kept on the device. */
export type QueuedCheckIn = {
  checkInId: string;
  /** The attraction of the page it was made on (null: the passport's code form). */
  slug: string | null;
  code?: string;
  position?: { lat: number; lng: number; accuracy: number };
  /** ISO 8601, the device's clock when it was made. */
  claimedAt: string;
  status: "pending" | "verified" | "rejected";
  /** Why it was rejected, worded for the tourist. */
  message?: string;
  visitId?: string;
  /** The attraction the server recorded it at. */
  atractivo?: string;
  badge?: { id: string; name: string; icon: string } | null;
};

/** The Background Sync tag the service worker sends the queue on. */
export const CHECK_IN_SYNC_TAG = "check-ins";

/** Keeps a new check-in as pending. */
export function enqueueCheckIn(
  _input: Pick<QueuedCheckIn, "slug" | "code" | "position">,
): Promise<QueuedCheckIn> {
  return Promise.reject(new Error("not implemented"));
}

/** Every check-in on the device, oldest first. */
export function listQueuedCheckIns(): Promise<QueuedCheckIn[]> {
  return Promise.resolve([]);
}

/** Sends every pending check-in; never throws. */
export function syncQueuedCheckIns(
  _options: { lang?: string } = {},
): Promise<QueuedCheckIn[]> {
  return Promise.resolve([]);
}

/** Forgets every queued check-in (sign-out, erasure). */
export function clearCheckInQueue(): Promise<void> {
  return Promise.resolve();
}
