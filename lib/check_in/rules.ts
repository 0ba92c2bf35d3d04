/**
 * The rules a check-in must meet, for verify-visit and for a device's
 * queue alike, each a pure function over facts storage read: the claimed
 * time's age and lead ({@linkcode judgeClaimedTime}); the wrong-code
 * limits ({@linkcode GUIDE_CODE_LIMIT}); the attraction's method, the
 * position's accuracy and radius, and the speed between two check-ins of
 * one passport over the times the server can hold a device to
 * ({@linkcode judgeCheckIn}, {@linkcode effectiveTimesMs}). They return a
 * reason name and its facts (`names.ts`); `refusalError` words one for the
 * API.
 */
import type { LatLng } from "@/lib/data/tourism_data.ts";
import {
  apiMessage,
  type HttpError,
  TooManyRequestsError,
  UnprocessableEntityError,
} from "@/lib/errors/mod.ts";
import { haversineKm } from "@/lib/geo/geo.ts";
import {
  acceptsCode,
  acceptsPosition,
  type CheckInRefusal,
  type CheckInRule,
  MAX_CHECK_IN_AGE_MS,
  MAX_CHECK_IN_CLOCK_AHEAD_MS,
  type Position,
  REFUSAL_WORDS,
} from "./names.ts";

/** The reported accuracy counted in the tourist's favour, at most (metres). */
export const ACCURACY_ALLOWANCE_M = 100;
/** A position less accurate than this (metres) is refused: it says nothing. */
export const MAX_ACCURACY_M = 1000;
/** No two check-ins of one passport may imply travelling faster (km/h). */
export const MAX_SPEED_KMH = 150;

/**
 * Wrong guide codes one user may send per window (more than 10 in 10
 * minutes is a 429).
 */
export const GUIDE_CODE_LIMIT = {
  scope: "guide_codes",
  limit: 10,
  windowMs: 10 * 60_000,
} as const;

/**
 * Wrong guide codes one client address may send per window, whatever the
 * users: new users (or guest passports) buy no extra guesses. 30 in 10
 * minutes is 180 an hour per address (docs/SECURITY.md, "Guessing guide codes").
 */
export const GUIDE_CODE_ADDRESS_LIMIT = {
  scope: "guide_codes_by_address",
  limit: 30,
  windowMs: 10 * 60_000,
} as const;

/** The wrong-code limits a code check-in of `userId` from `clientIp` is held to. */
export function getGuideCodeLimits(
  { userId, clientIp }: { userId: string; clientIp?: string },
): { scope: string; limit: number; windowMs: number; subject: string }[] {
  const limits: {
    scope: string;
    limit: number;
    windowMs: number;
    subject: string;
  }[] = [{ ...GUIDE_CODE_LIMIT, subject: userId }];
  // `unknown` without a connection: not limited by address.
  if (clientIp && clientIp !== "unknown") {
    limits.push({ ...GUIDE_CODE_ADDRESS_LIMIT, subject: clientIp });
  }
  return limits;
}

/** The 429 of a lockout by wrong codes, with how many minutes to wait. */
export function tooManyWrongCodes(retryAfterMs: number): TooManyRequestsError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new TooManyRequestsError(
    apiMessage("limit.wrongCodes", { minutes }),
    retryAfterMs / 1000,
  );
}

/**
 * A claimed time more than {@linkcode MAX_CHECK_IN_AGE_MS} old, or more
 * than {@linkcode MAX_CHECK_IN_CLOCK_AHEAD_MS} ahead of the server's
 * clock, is refused before anything is read; else null.
 */
export function judgeClaimedTime(
  claimed: Date,
  now: Date,
): CheckInRefusal | null {
  if (now.getTime() - claimed.getTime() > MAX_CHECK_IN_AGE_MS) {
    return {
      reason: "claimed_too_old",
      hours: MAX_CHECK_IN_AGE_MS / 3_600_000,
    };
  }
  if (claimed.getTime() - now.getTime() > MAX_CHECK_IN_CLOCK_AHEAD_MS) {
    return {
      reason: "claimed_in_future",
      minutes: MAX_CHECK_IN_CLOCK_AHEAD_MS / 60_000,
    };
  }
  return null;
}

/** One of the passport's visits, as the speed rule reads it. */
export interface PastCheckIn {
  slug: string;
  /** ISO 8601: when the server recorded it. */
  visitedAt: string;
  /** ISO 8601: when the device says it was made (absent: `visitedAt`). */
  checkedInAt?: string;
  /** Orders visits recorded in the same instant. */
  seq: number;
}

/** What {@linkcode judgeCheckIn} decides on: the facts of one check-in. */
export interface CheckInCase {
  /** The attraction the visit would be recorded at, and its point. */
  slug: string;
  location: LatLng;
  /** The rule in force there (`resolveCheckInRule`). */
  rule: CheckInRule;
  /** A code (`code`) or a phone's position (`gps`, with `position`). */
  method: "code" | "gps";
  position?: Position;
  /** The device's time of the check-in, and the server's time now. */
  claimedAt: Date;
  receivedAt: Date;
  /** The passport's other visits. */
  otherVisits: readonly PastCheckIn[];
  /** Each attraction's point (a visit elsewhere, for the speed rule). */
  locationOf(slug: string): LatLng | undefined;
}

/**
 * Null to record the visit, or why not: the rule must accept a code or a
 * position; a position must be accurate to within {@linkcode MAX_ACCURACY_M}
 * and, allowing its accuracy up to {@linkcode ACCURACY_ALLOWANCE_M}, within
 * the rule's radius; and no other visit of the passport may imply
 * travelling faster than {@linkcode MAX_SPEED_KMH} to get here, each at its
 * time as {@linkcode effectiveTimesMs} says.
 */
export function judgeCheckIn(input: CheckInCase): CheckInRefusal | null {
  const { rule, position } = input;
  if (input.method === "code") {
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
    return { reason: "accuracy_too_poor", maxAccuracyM: MAX_ACCURACY_M };
  }
  const distanceM = haversineKm(position, input.location) * 1000;
  if (distanceM - Math.min(accuracy, ACCURACY_ALLOWANCE_M) > rule.radiusM) {
    return {
      reason: "outside_radius",
      distanceM: Math.round(distanceM),
      radiusM: rule.radiusM,
    };
  }
  return judgeSpeed(input);
}

/** The speed rule alone: `too_fast`, or null. */
function judgeSpeed(
  { slug, location, claimedAt, receivedAt, otherVisits, locationOf }:
    CheckInCase,
): CheckInRefusal | null {
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
    const place = locationOf(other.slug);
    if (!place || other.slug === slug) continue;
    const km = haversineKm(place, location);
    const hours = Math.abs(here - times[i]) / 3_600_000;
    if (km > 0 && (hours === 0 || km / hours > MAX_SPEED_KMH)) {
      return { reason: "too_fast", maxSpeedKmh: MAX_SPEED_KMH };
    }
  }
  return null;
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

/** A refusal's facts: the values its sentence takes (everything but the reason). */
export function getRefusalFacts(
  refusal: CheckInRefusal,
): Record<string, string | number> {
  const { reason: _reason, ...facts } = refusal;
  return facts as Record<string, string | number>;
}

/** The 422 of a refusal: `{error, details, reason, ...facts}`. */
export function refusalError(refusal: CheckInRefusal): HttpError {
  return new UnprocessableEntityError(
    apiMessage(REFUSAL_WORDS[refusal.reason].api, getRefusalFacts(refusal)),
    { ...refusal },
  );
}
