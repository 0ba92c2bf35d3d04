/**
 * The device's copy of the passport's stamps (IndexedDB), so the attraction
 * list and pages mark the places already stamped, online and offline.
 * STUB: helper C2 implements it (see the issue 32 contract).
 */

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

/** The stamps the device knows: verified ones saved, and pending ones from the queue. */
export function readDeviceStamps(): Promise<Map<string, DeviceStamp>> {
  return Promise.resolve(new Map());
}

/** Saves stamps; with `replace`, they are the passport's whole list. */
export function saveDeviceStamps(
  _stamps: DeviceStamp[],
  _options: { replace: boolean },
): Promise<void> {
  return Promise.resolve();
}

/** Forgets the device's stamps (sign-out, erasure). */
export function clearDevicePassport(): Promise<void> {
  return Promise.resolve();
}
