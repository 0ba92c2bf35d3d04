/**
 * The rules a check-in at an attraction must meet, shared by verify-visit
 * and the check-in of a device's queue: the attraction's method (code,
 * position, or either), the position's accuracy and radius, and the speed
 * between two check-ins of one passport, over times the server can hold
 * the device to ({@linkcode effectiveTimesMs}). Pure: run inside the
 * visit's transaction (lib/db/visits.ts, `recordVisit`).
 */
import {
  acceptsCode,
  acceptsPosition,
  type CheckInRule,
} from "@/lib/data/check_in_method.ts";
import type { LoadedData } from "@/lib/data/tourism_data.ts";
import { resolveCheckInRule } from "@/lib/db/check_in_methods.ts";
import type { CheckInCase, CheckInRefusal } from "@/lib/db/visits.ts";
import {
  apiMessage,
  type HttpError,
  UnprocessableEntityError,
} from "@/lib/errors/mod.ts";
import { haversineKm } from "@/lib/geo/geo.ts";

/** The reported accuracy counted in the tourist's favour, at most (metres). */
export const ACCURACY_ALLOWANCE_M = 100;
/** A position less accurate than this (metres) is refused: it says nothing. */
export const MAX_ACCURACY_M = 1000;
/** No two check-ins of one passport may imply travelling faster (km/h). */
export const MAX_SPEED_KMH = 150;

/** A phone's position as the browser gives it. */
export interface Position {
  lat: number;
  lng: number;
  /** Metres (the Geolocation API's `accuracy`); absent: refused. */
  accuracy?: number;
}

/**
 * The judge of a check-in at an attraction, for `recordVisit`: the
 * attraction's rule (the admin's, else the data set's) must accept a code
 * or a position; a position must be accurate to within
 * {@linkcode MAX_ACCURACY_M} and, allowing its accuracy up to
 * {@linkcode ACCURACY_ALLOWANCE_M}, within the rule's radius; and no other
 * visit of the passport may imply travelling faster than
 * {@linkcode MAX_SPEED_KMH} to get here, each at its time as
 * {@linkcode effectiveTimesMs} says. The position is only read.
 */
export function createCheckInJudge(
  loaded: LoadedData,
  { position, claimedAt, receivedAt, isPosition }: {
    position?: Position;
    /** The device's time of the check-in. */
    claimedAt: Date;
    /** The server's time, now. */
    receivedAt: Date;
    isPosition: boolean;
  },
): (input: CheckInCase) => CheckInRefusal | null {
  return ({ slug, storedRule, otherVisits }): CheckInRefusal | null => {
    const attraction = loaded.attractionsBySlug.get(slug);
    if (!attraction) return null;
    const rule: CheckInRule = resolveCheckInRule(
      storedRule,
      attraction.checkIn,
    );
    if (!isPosition) {
      return acceptsCode(rule.method) ? null : { reason: "code_not_accepted" };
    }
    if (!acceptsPosition(rule.method)) {
      return { reason: "position_not_accepted" };
    }
    const accuracy = position?.accuracy;
    if (accuracy === undefined || !position) {
      return { reason: "accuracy_missing" };
    }
    if (accuracy > MAX_ACCURACY_M) {
      return {
        reason: "accuracy_too_poor",
        facts: { maxAccuracyM: MAX_ACCURACY_M },
      };
    }
    const distanceM = haversineKm(position, attraction.location) * 1000;
    if (distanceM - Math.min(accuracy, ACCURACY_ALLOWANCE_M) > rule.radiusM) {
      return {
        reason: "outside_radius",
        facts: { distanceM: Math.round(distanceM), radiusM: rule.radiusM },
      };
    }
    // The passport's visits in the order the server received them, then this one.
    const history = [...otherVisits].sort((a, b) =>
      a.visitedAt < b.visitedAt
        ? -1
        : a.visitedAt > b.visitedAt
        ? 1
        : a.seq - b.seq
    );
    const times = effectiveTimesMs([
      ...history.map((visit) => ({
        claimedMs: Date.parse(visit.checkedInAt ?? visit.visitedAt),
        receivedMs: Date.parse(visit.visitedAt),
      })),
      { claimedMs: claimedAt.getTime(), receivedMs: receivedAt.getTime() },
    ]);
    const here = times[history.length];
    for (const [i, other] of history.entries()) {
      const place = loaded.attractionsBySlug.get(other.slug)?.location;
      if (!place || other.slug === slug) continue;
      const km = haversineKm(place, attraction.location);
      const hours = Math.abs(here - times[i]) / 3_600_000;
      if (km > 0 && (hours === 0 || km / hours > MAX_SPEED_KMH)) {
        return {
          reason: "too_fast",
          facts: { maxSpeedKmh: MAX_SPEED_KMH },
        };
      }
    }
    return null;
  };
}

/** A check-in's two times: the device's claim and the server's receipt (ms). */
export interface CheckInTimes {
  claimedMs: number;
  receivedMs: number;
}

/**
 * When each check-in counts as made for the speed rule, given in the order
 * the server received them: the time its device claims, but never earlier
 * than the receipt of a check-in received before it that claims a later
 * time. A device's queue sends oldest first (client/check_in_queue.ts), so
 * a check-in really made before one the server already holds would have
 * arrived before it; one that arrives after is held to the server's time
 * of it. Back-dating therefore cannot slip a stamp in before what the
 * server has seen of the passport, and a batch of back-dated claims sent
 * out of order is judged as sent when it was. A batch in order, before the
 * passport's first check-in or after its last, is a queue the server
 * cannot tell from a real one (docs/OFFLINE.md, "What the server can hold
 * a queue to").
 */
export function effectiveTimesMs(checkIns: readonly CheckInTimes[]): number[] {
  return checkIns.map(({ claimedMs }, i) => {
    let at = claimedMs;
    for (const earlier of checkIns.slice(0, i)) {
      if (earlier.claimedMs > claimedMs) {
        at = Math.max(at, earlier.receivedMs);
      }
    }
    return at;
  });
}

/** The catalogue key of a refusal's `details`. */
export const REFUSAL_MESSAGES: Record<string, string> = {
  claimed_too_old: "checkIn.claimedTooOld",
  claimed_in_future: "checkIn.claimedInFuture",
  code_not_accepted: "checkIn.codeNotAccepted",
  position_not_accepted: "checkIn.positionNotAccepted",
  outside_radius: "checkIn.outsideRadius",
  accuracy_missing: "checkIn.accuracyMissing",
  accuracy_too_poor: "checkIn.accuracyTooPoor",
  too_fast: "checkIn.tooFast",
};

/** The 422 of a refusal: `{error, details, reason, ...facts}`. */
export function refusalError(refusal: CheckInRefusal): HttpError {
  return new UnprocessableEntityError(
    apiMessage(REFUSAL_MESSAGES[refusal.reason], refusal.facts),
    { reason: refusal.reason, ...refusal.facts },
  );
}
