/**
 * The tourist's passport: a visit verified by a guide code (or checked in
 * from a device's queue, by code or position) and rated, the route
 * a share code shows, guest passports, and the guide codes staff replace.
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
export { checkIn, type CheckInAnswer, type CheckInInput } from "./check_in.ts";
export {
  ACCURACY_ALLOWANCE_M,
  MAX_ACCURACY_M,
  MAX_SPEED_KMH,
} from "./check_in_rules.ts";
export { GUEST_PASSPORT_TTL_MS, openGuestPassport } from "./guest.ts";
export {
  type CurrentGuideCode,
  DEFAULT_GRACE_DAYS,
  GRACE_PERIOD_DAYS,
  LEAKED_REASON,
  listCurrentGuideCodes,
  listGuideCodeClashes,
  parseReplacementForm,
  replaceGuideCode,
} from "./guide_codes.ts";
export { rateVerifiedVisit } from "./rate_visit.ts";
export {
  getEmptyRoute,
  getTouristRoute,
  type TouristRoute,
} from "./tourist_route.ts";
export { verifyVisit } from "./verify_visit.ts";
