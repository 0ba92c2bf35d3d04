/**
 * Which rule an attraction is under: the admin's (stored by
 * lib/db/check_in_methods.ts) when there is one, else the data set's
 * `checkIn`, else by code within the default radius. What each method
 * accepts is its row in `names.ts`.
 */
import {
  type CheckInMethod,
  type CheckInRule,
  DEFAULT_CHECK_IN_RADIUS_M,
} from "./names.ts";

/** The data set's `checkIn` of an attraction (absent: by code, default radius). */
export type DataCheckIn = { method: CheckInMethod; radiusM?: number };

/**
 * The rule in force: the admin's (`stored`) when there is one, else the
 * data set's `checkIn`, else by code within {@linkcode DEFAULT_CHECK_IN_RADIUS_M}.
 */
export function resolveCheckInRule(
  stored: CheckInRule | null | undefined,
  dataDefault: DataCheckIn | undefined,
): CheckInRule {
  if (stored) return { method: stored.method, radiusM: stored.radiusM };
  return {
    method: dataDefault?.method ?? "code",
    radiusM: dataDefault?.radiusM ?? DEFAULT_CHECK_IN_RADIUS_M,
  };
}
