/**
 * The check-in: how a visit is checked in at an attraction, in one home.
 * Its names (methods, refusal reasons and the catalogue keys that word
 * them) in `names.ts`, the one module the browser shares; which method an
 * attraction takes (`methods.ts`); the rules a check-in must meet
 * (`rules.ts`); the transaction that reads, decides and writes
 * (`record.ts`, over lib/db/visits.ts); verify-visit and a device's named
 * check-in (`verify_visit.ts`, `check_in.ts`); and the console's view and
 * change of a rule (`console.ts`). Routes, components and scripts import
 * this entry, never the folder's insides.
 *
 * @module
 */
export {
  checkIn,
  type CheckInAnswer,
  type CheckInRequest,
} from "./check_in.ts";
export {
  type AttractionCheckInView,
  CHECK_IN_AUDIT_TARGET,
  CHECK_IN_WORDS,
  getAttractionCheckIn,
  getCheckInRule,
  getMethodLabelKey,
  getMethodWordsKey,
  listAttractionCheckIns,
  parseCheckInRuleForm,
  setAttractionCheckIn,
} from "./console.ts";
export {
  acceptsPosition,
  CHECK_IN_METHOD_TABLE,
  CHECK_IN_METHODS,
  type CheckInMethod,
  MAX_CHECK_IN_RADIUS_M,
  MIN_CHECK_IN_RADIUS_M,
  REFUSAL_REASONS,
} from "./names.ts";
export {
  ACCURACY_ALLOWANCE_M,
  GUIDE_CODE_ADDRESS_LIMIT,
  GUIDE_CODE_LIMIT,
  MAX_ACCURACY_M,
  MAX_SPEED_KMH,
} from "./rules.ts";
export { verifyVisit, type VisitDeps } from "./verify_visit.ts";
