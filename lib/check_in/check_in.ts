/**
 * A check-in a device names (`checkInId`): by guide code or by the phone's
 * position, made now or queued offline and sent later with the time it was
 * made (`claimedAt`). Exactly once: the first answer to an id is kept with
 * the visit it recorded (lib/db/check_ins.ts, written by `record.ts`), so a retry, on any instance,
 * gets that answer again and counts nothing again. The rules are
 * docs/API.md's, "Check-ins from a device's queue".
 */
import type { Badge } from "@/lib/badges/badges.ts";
import { sha256Hex } from "@/lib/crypto/sha256.ts";
import { normalizeGuideCode } from "@/lib/data/tourism_data.ts";
import { type CheckInReceipt, getCheckInReceipt } from "@/lib/db/check_ins.ts";
import {
  apiMessage,
  ConflictError,
  HttpError,
  NotFoundError,
} from "@/lib/errors/mod.ts";
import { type Position, REFUSAL_WORDS, type VisitMethod } from "./names.ts";
import { type CheckInOutcome, recordCheckIn } from "./record.ts";
import {
  getGuideCodeLimits,
  getRefusalFacts,
  judgeClaimedTime,
  refusalError,
  tooManyWrongCodes,
} from "./rules.ts";
import type { VisitDeps } from "./verify_visit.ts";

/** A check-in as a device sends it (the API's `CheckInRequest`). */
export interface CheckInRequest {
  userId: string;
  checkInId: string;
  /** ISO 8601: the device's clock when the tourist typed or tapped. */
  claimedAt: string;
  code?: string;
  position?: Position;
  /** The attraction of a position (its page). */
  atractivo?: string;
  /** The client's address (`unknown`: not limited by address). */
  clientIp?: string;
}

/** The answer of a check-in that recorded a visit (the same again on a retry). */
export interface CheckInAnswer {
  success: true;
  checkInId: string;
  visitId: string;
  atractivo: string;
  badge: Pick<Badge, "id" | "name" | "icon"> | null;
  /** ISO 8601: when the server recorded it. */
  visitedAt: string;
  /** ISO 8601: when the tourist checked in (`claimedAt`). */
  checkedInAt: string;
  method: VisitMethod;
}

/**
 * Checks a visit in for a device's named check-in. Answers a retry of an id
 * with its first answer (a 200 as it was; a refusal as it was, worded in
 * the retry's language), or a 409 `id_reused` when the id came with another
 * code, attraction or time. Refuses a claimed time more than 72 hours old
 * or 5 minutes ahead (422, nothing written). A wrong code counts against
 * the guess limits of verify-visit, once per id.
 */
export async function checkIn(
  { kv, data, now, onChange, badges }: VisitDeps,
  input: CheckInRequest,
): Promise<CheckInAnswer> {
  const loaded = data.current();
  const at = now();
  const claimed = new Date(input.claimedAt);
  const claimedAt = claimed.toISOString();
  const code = input.code === undefined
    ? undefined
    : normalizeGuideCode(input.code);
  const fingerprint = await fingerprintOf({
    code,
    atractivo: code === undefined ? input.atractivo : undefined,
    claimedAt,
  });

  const kept = await getCheckInReceipt(kv, input.userId, input.checkInId);
  if (kept) return replay(kept, fingerprint);

  const early = judgeClaimedTime(claimed, at);
  if (early) throw refusalError(early);

  const method: VisitMethod = code === undefined ? "gps" : "code";
  if (
    method === "gps" && !loaded.attractionsBySlug.has(input.atractivo ?? "")
  ) {
    throw new NotFoundError(
      apiMessage("attraction.unknown", { slug: input.atractivo ?? "" }),
    );
  }

  const result = await recordCheckIn(kv, loaded, {
    userId: input.userId,
    slug: code === undefined
      ? input.atractivo!
      : loaded.slugByGuideCode.get(code) ?? "",
    method,
    code,
    position: input.position,
    claimedAt: claimed,
    now: at,
    rateLimits: method === "code"
      ? getGuideCodeLimits({ userId: input.userId, clientIp: input.clientIp })
      : [],
    badges,
    named: {
      checkInId: input.checkInId,
      answer: (outcome) =>
        toReceipt(outcome, {
          checkInId: input.checkInId,
          fingerprint,
          method,
          at,
        }),
    },
  });
  switch (result.status) {
    case "rate_limited":
      throw tooManyWrongCodes(result.retryAfterMs);
    case "answered":
      return replay(result.receipt, fingerprint);
    case "created":
      onChange({
        kind: "visit",
        userId: input.userId,
        slug: result.visit.slug,
        shareCode: result.shareCode,
      });
      return replay(result.receipt!, fingerprint);
    default:
      // Without a receipt recordCheckIn answers these; with one it never does.
      throw new Error(`Unexpected check-in result ${result.status}`);
  }
}

/** What a retry must match: a hash of the code, or the attraction; and the claimed time. */
async function fingerprintOf(
  { code, atractivo, claimedAt }: {
    code?: string;
    atractivo?: string;
    claimedAt: string;
  },
): Promise<string> {
  if (code === undefined) return `position ${atractivo ?? ""} ${claimedAt}`;
  return await sha256Hex(`code ${code} ${claimedAt}`);
}

/** The receipt of an outcome: the answer, kept for the id's retries. */
function toReceipt(
  outcome: CheckInOutcome,
  { checkInId, fingerprint, method, at }: {
    checkInId: string;
    fingerprint: string;
    method: VisitMethod;
    at: Date;
  },
): CheckInReceipt {
  const answeredAt = at.toISOString();
  switch (outcome.status) {
    case "created": {
      const { visit, badge } = outcome;
      return {
        fingerprint,
        status: 200,
        answeredAt,
        body: {
          success: true,
          checkInId,
          visitId: visit.visitId,
          atractivo: visit.slug,
          badge: badge
            ? { id: badge.id, name: badge.name, icon: badge.icon }
            : null,
          visitedAt: visit.visitedAt,
          checkedInAt: visit.checkedInAt ?? visit.visitedAt,
          method,
        } satisfies CheckInAnswer,
      };
    }
    case "duplicate":
      return {
        fingerprint,
        status: 409,
        answeredAt,
        details: { key: "api.visit.already" },
        body: {
          reason: "already_visited",
          visitId: outcome.visit.visitId,
          atractivo: outcome.visit.slug,
        },
      };
    case "refused":
      return {
        fingerprint,
        status: 422,
        answeredAt,
        details: {
          key: `api.${REFUSAL_WORDS[outcome.refusal.reason].api}`,
          values: getRefusalFacts(outcome.refusal),
        },
        body: { ...outcome.refusal },
      };
    case "unknown_code":
      return {
        fingerprint,
        status: 404,
        answeredAt,
        details: {
          key: "api.visit.unknownCode",
          values: { remaining: outcome.remaining },
        },
        body: { remainingAttempts: outcome.remaining },
      };
  }
}

/**
 * A kept answer given again: a 200's body as it was, a refusal thrown as it
 * was (its words in this request's language); another request under the
 * same id is a 409 `id_reused`, and nothing changes.
 */
function replay(receipt: CheckInReceipt, fingerprint: string): CheckInAnswer {
  if (receipt.fingerprint !== fingerprint) {
    throw new ConflictError(apiMessage("checkIn.idReused"), {
      reason: "id_reused",
    });
  }
  if (receipt.status === 200) return receipt.body as unknown as CheckInAnswer;
  throw new HttpError(
    receipt.status,
    apiMessage(`error.${receipt.status}`),
    receipt.details ?? apiMessage("details.tryLater"),
    { body: receipt.body },
  );
}
