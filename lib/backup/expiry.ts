/**
 * How long an exported entry may live after a restore, when its expiry is
 * unknown. Neither the KV API nor the KV Connect protocol shows an entry's
 * `expireIn`, so an export through them (a KV Connect URL) cannot copy it.
 * For the key families the service only ever writes with `expireIn`, the
 * export sets the family's longest lifetime from the moment of the backup:
 * an entry written at `w` with lifetime `L` expired at `w + L`, which is
 * never later than `backup + L`. A restored entry so lives at most `L`
 * longer than it would have, and never becomes permanent. A SQLite backup
 * of a local file keeps every entry's exact expiry.
 */
import { AUDIT_RETENTION_MS } from "@/lib/db/audit.ts";
import { keys } from "@/lib/db/keys.ts";
import {
  STAFF_EXPIRED_KEPT_MS,
  STAFF_IDLE_MS,
  STAFF_LINK_TTL_MS,
} from "@/lib/db/staff_sessions.ts";
import {
  OPENED_COUNT_TTL_MS,
  QUESTION_RETENTION_MS,
} from "@/lib/db/unanswered_questions.ts";
import { FLOW_TTL_MS, SESSION_TTL_MS } from "@/lib/oauth/sign_in.ts";
import { GUEST_PASSPORT_TTL_MS } from "@/lib/passport/guest.ts";
import { CLAIM_TTL_MS } from "@/lib/tickets/create_ticket.ts";

/**
 * The longest window of any rate limit in the service (the widest is an
 * hour, in `lib/passport/guest.ts` and `lib/tickets/create_ticket.ts`),
 * with room: the windows are written inline where each limit is defined.
 */
const RATE_LIMIT_BOUND_MS = 24 * 60 * 60 * 1000;

const SESSION_BOUND_MS = Math.max(SESSION_TTL_MS, GUEST_PASSPORT_TTL_MS);

/**
 * The first key part of each family written only with `expireIn`, and the
 * longest lifetime the service gives its entries. Families that mix
 * permanent and expiring entries (`guide_codes_by_code`: the current code
 * is permanent, a replaced one lives through its grace period) are not
 * here: their expiring entries come back permanent from an export, and the
 * service checks their dates on read anyway.
 */
export const EXPIRING_FAMILIES: ReadonlyMap<string, number> = new Map<
  string,
  number
>([
  [keys.session("")[0], SESSION_BOUND_MS],
  [keys.sessionsByUser("")[0], SESSION_BOUND_MS],
  [keys.oauthFlow("")[0], FLOW_TTL_MS],
  [keys.rateLimit("", "")[0], RATE_LIMIT_BOUND_MS],
  [keys.ticketClaim("")[0], CLAIM_TTL_MS],
  [keys.staffLink("")[0], STAFF_LINK_TTL_MS],
  [keys.staffSession("")[0], STAFF_IDLE_MS + STAFF_EXPIRED_KEPT_MS],
  [keys.staffActions()[0], AUDIT_RETENTION_MS],
  [keys.unansweredQuestions()[0], QUESTION_RETENTION_MS],
  [keys.unansweredQuestionsByRank("open")[0], QUESTION_RETENTION_MS],
  [keys.unansweredQuestionsOpened("")[0], OPENED_COUNT_TTL_MS],
]);

/** The lifetime an exported entry gets (see the module's doc), or `undefined`: permanent. */
export function getExportLifetimeMs(key: Deno.KvKey): number | undefined {
  const family = key[0];
  return typeof family === "string" ? EXPIRING_FAMILIES.get(family) : undefined;
}
