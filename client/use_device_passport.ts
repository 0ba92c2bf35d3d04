/**
 * The passport page's side of the device: it saves the visits the server
 * rendered as the device's passport, watches the device's stamps and queue,
 * and sends what waits when the page opens online and when the network
 * returns. The pure parts (which stamp is where, which queued codes to
 * list) are tested in Deno.
 */
import { useEffect, useState } from "preact/hooks";
import {
  listQueuedCheckIns,
  type QueuedCheckIn,
  syncQueuedCheckIns,
} from "./check_in_queue.ts";
import {
  type DeviceStamp,
  saveDeviceStamps,
  watchDeviceStamps,
} from "./device_passport.ts";

/** Where a stamp of the passport stands. */
export type StampState = "collected" | "pending" | "missing";

/** A visit as the passport page knows it. */
export type KnownVisit = {
  visitId: string;
  slug: string;
  rating: number | null;
  notes: string | null;
  /** ISO 8601. */
  visitedAt?: string;
};

/** A refused code is listed below the form this long after it was refused. */
const SHOW_REFUSED_MS = 24 * 60 * 60 * 1000;

/**
 * The device's stamps and queue for the passport page. When the page opens
 * online, `visits` (the server's, the truth) replace the device's passport,
 * and any check-in still waiting is sent; so is everything waiting when the
 * network returns.
 */
export function useDevicePassport(
  { visits, renderedAt, lang }: {
    visits: KnownVisit[];
    /** When the server rendered `visits` (ISO 8601): an older copy never replaces a newer one. */
    renderedAt?: string;
    lang: string;
  },
) {
  const [device, setDevice] = useState<Map<string, DeviceStamp>>(new Map());
  const [queue, setQueue] = useState<QueuedCheckIn[]>([]);
  useEffect(() => {
    if (navigator.onLine) {
      saveDeviceStamps(visits.map(toDeviceStamp), {
        replace: true,
        asOf: renderedAt,
      });
    }
    const sync = () => syncQueuedCheckIns({ lang }).then(setQueue, () => {});
    const stop = watchDeviceStamps((stamps) => {
      setDevice(stamps);
      listQueuedCheckIns().then(setQueue, () => {});
    });
    listQueuedCheckIns().then((list) => {
      if (navigator.onLine && list.some((i) => i.status === "pending")) {
        sync();
      }
    }, () => {});
    addEventListener("online", sync);
    return () => {
      stop();
      removeEventListener("online", sync);
    };
  }, []);
  return { device, queue, setQueue };
}

/** A visit as the device's passport keeps it. */
export function toDeviceStamp(visit: KnownVisit): DeviceStamp {
  return {
    slug: visit.slug,
    status: "verified",
    visitId: visit.visitId,
    rating: visit.rating,
    notes: visit.notes,
    at: visit.visitedAt ?? new Date().toISOString(),
  };
}

/**
 * The queue's verified check-ins at attractions not in `known` (sent from
 * another page, or by the service worker while no page was open), one per
 * attraction, oldest first.
 */
export function findQueuedVisits(
  queue: readonly QueuedCheckIn[],
  known: ReadonlySet<string>,
): (QueuedCheckIn & { atractivo: string; visitId: string })[] {
  const seen = new Set(known);
  const found = [];
  for (const item of queue) {
    const { atractivo, visitId } = item;
    if (item.status !== "verified" || !atractivo || !visitId) continue;
    if (seen.has(atractivo)) continue;
    seen.add(atractivo);
    found.push({ ...item, atractivo, visitId });
  }
  return found;
}

/** A stamp's state: visited (listed, or verified on the device), pending on the device, or missing. */
export function getStampState(
  slug: string,
  { visited, device }: {
    visited: ReadonlySet<string>;
    device: ReadonlyMap<string, DeviceStamp>;
  },
): StampState {
  const stamp = device.get(slug);
  if (visited.has(slug) || stamp?.status === "verified") return "collected";
  return stamp?.status === "pending" ? "pending" : "missing";
}

/**
 * The codes typed on the passport page (no attraction until the server
 * says) to list below its form: those waiting to be sent (with their code),
 * and those refused in the last day (by the day they were typed: an
 * answered check-in keeps no code); `except` is the one the form's message
 * reports already.
 */
export function findQueuedCodes(
  queue: readonly QueuedCheckIn[],
  { now, except }: { now: Date; except?: string },
): { waiting: QueuedCheckIn[]; refused: QueuedCheckIn[] } {
  const mine = queue.filter((item) =>
    item.slug === null && item.checkInId !== except
  );
  return {
    waiting: mine.filter((item) => item.status === "pending"),
    refused: mine.filter((item) =>
      item.status === "rejected" &&
      now.getTime() - Date.parse(item.resolvedAt ?? item.claimedAt) <
        SHOW_REFUSED_MS
    ),
  };
}
