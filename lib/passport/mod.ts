/**
 * The tourist's passport: a visit rated (checked in by lib/check_in), the
 * route a share code shows, guest passports, and the guide codes staff
 * replace.
 * Routes, components and scripts import this entry, never the folder's insides.
 *
 * @module
 */
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
