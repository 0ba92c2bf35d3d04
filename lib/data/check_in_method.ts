/**
 * How a visit is checked in at an attraction: by the guide code shown there
 * (what every attraction did first), by the phone's position ("Estoy
 * aquí"), or by either, for places with poor reception. The data set gives
 * each attraction's default (`checkIn`, absent: by code within
 * {@linkcode DEFAULT_CHECK_IN_RADIUS_M}); an admin's choice in the console
 * (lib/db/check_in_methods.ts) wins.
 */
export const CHECK_IN_METHODS = ["code", "gps", "gps-or-code"] as const;

/** One of {@linkcode CHECK_IN_METHODS}. */
export type CheckInMethod = typeof CHECK_IN_METHODS[number];

/** An attraction's check-in rule: its method, and for a position the radius around its point. */
export interface CheckInRule {
  method: CheckInMethod;
  /** Metres around the attraction's point within which a position counts. */
  radiusM: number;
}

/** The radius when neither the data set nor an admin sets one. */
export const DEFAULT_CHECK_IN_RADIUS_M = 150;
/** The smallest radius an attraction may have: a phone's position is rarely better. */
export const MIN_CHECK_IN_RADIUS_M = 25;
/** The largest radius an attraction may have (a canyon's viewpoint area). */
export const MAX_CHECK_IN_RADIUS_M = 2000;

/** Whether a guide code checks a visit in under `method`. */
export function acceptsCode(method: CheckInMethod): boolean {
  return method !== "gps";
}

/** Whether a position checks a visit in under `method`. */
export function acceptsPosition(method: CheckInMethod): boolean {
  return method !== "code";
}

/** The rule a data set's `checkIn` field gives (absent: by code, default radius). */
export function getDefaultCheckInRule(
  checkIn: { method: CheckInMethod; radiusM?: number } | undefined,
): CheckInRule {
  return {
    method: checkIn?.method ?? "code",
    radiusM: checkIn?.radiusM ?? DEFAULT_CHECK_IN_RADIUS_M,
  };
}
