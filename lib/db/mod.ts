/**
 * The one owner of Deno KV keys and transactions: the entities routes and
 * scripts read and write (tickets, sessions, staff sessions, the audit log,
 * note moderation, unanswered questions, the signing secret) and opening the KV
 * itself. Every key is built in `keys.ts`. Routes, components and scripts
 * import this entry, never the folder's insides.
 *
 * @module
 */
export {
  listStaffActions,
  recordStaffAction,
  type StaffAction,
} from "./audit.ts";
export {
  describeKvPath,
  KvStartError,
  moveLegacyKvFile,
  openKv,
} from "./kv.ts";
export { listNotesForModeration, moderateNote } from "./moderation.ts";
export { isPersonalIndexBackfilled } from "./personal_indexes.ts";
export { getOrCreateSigningSecret } from "./secrets.ts";
export type { Session } from "./sessions.ts";
export {
  endStaffSession,
  listStaffSessions,
  removeStaffMemberSessions,
  STAFF_IDLE_MS,
  STAFF_MAX_AGE_MS,
} from "./staff_sessions.ts";
export {
  getShareCodeOfUser,
  getTicket,
  getTicketEntry,
  hashShareCode,
  listShareCodesByEmail,
  type Ticket,
} from "./tickets.ts";
export {
  listQuestionGroups,
  type QuestionGroup,
  resolveQuestionGroup,
} from "./unanswered_questions.ts";
export { listIdentitiesOfUser } from "./sessions.ts";
export {
  claimPrize,
  closePartnerSession,
  getPartner,
  getPartnerOfSession,
  getPrize,
  issuePartnerPin,
  listPartners,
  listPrizeCounts,
  listPrizes,
  listPrizesOfPassport,
  openPartnerSession,
  type Partner,
  type Prize,
  type PrizeClaim,
  type PrizeView,
  redeemPrizeClaim,
  savePartner,
  savePrize,
} from "./rewards.ts";
