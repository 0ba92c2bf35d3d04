/**
 * Check-in receipts: a device names each check-in with an id
 * (`checkInId`), and the first answer to it is kept under
 * `keys.checkIn(userId, checkInId)` for `LIFETIMES.checkInReceiptMs`, so a
 * retry (the reply was lost, the queue sent it again, another instance got
 * it) never counts twice and gets that answer again. A receipt that
 * records a visit is written in the visit's own atomic (lib/db/visits.ts,
 * `commitVisit`), so there is never a visit without its receipt or the
 * other way round. Accepted check-ins' receipts are bounded by the visits
 * (one per attraction); a refusal's receipt is one of the passport's last
 * {@linkcode MAX_REFUSAL_RECEIPTS}, listed under
 * `keys.checkInRefusals(userId)`: the one past them deletes the oldest, in
 * its own atomic, so refused check-ins cannot fill KV.
 */
import { keys, LIFETIMES } from "./keys.ts";

/**
 * How many refused check-ins' receipts a passport keeps (the latest). A
 * device resends a check-in whose reply was lost before it sends any later
 * one (its queue stops at the first failure), so this covers several tabs
 * and devices of one passport with room; an older refusal sent again is
 * judged again.
 */
export const MAX_REFUSAL_RECEIPTS = 20;

/** The ids of a passport's kept refusals, oldest first, with their times. */
export interface RefusalLedger {
  refusals: { checkInId: string; answeredAt: string }[];
}

/**
 * What a check-in asked, reduced to compare a retry with it: a hash of the
 * code (never the code itself) or the attraction of a position (never the
 * position), with the claimed time.
 */
export type CheckInFingerprint = string;

/** A kept answer to one check-in id. */
export interface CheckInReceipt {
  fingerprint: CheckInFingerprint;
  /** The HTTP status of the first answer. */
  status: number;
  /**
   * The first answer's JSON body (a 200's, whole); for a refusal, the
   * fields beside `error` and `details` (`reason`, `remainingAttempts`...).
   */
  body: Record<string, unknown>;
  /**
   * A refusal's `details`: the catalogue message (full key) and its values,
   * said again in the language of each retry.
   */
  details?: { key: string; values?: Record<string, string | number> };
  /** ISO 8601: when it was answered. */
  answeredAt: string;
}

/** A user's receipt for one check-in id, or null. */
export async function getCheckInReceipt(
  kv: Deno.Kv,
  userId: string,
  checkInId: string,
): Promise<CheckInReceipt | null> {
  const { value } = await kv.get<CheckInReceipt>(
    keys.checkIn(userId, checkInId),
  );
  return isCheckInReceipt(value) ? value : null;
}

/** Whether a stored value is a receipt. */
export function isCheckInReceipt(value: unknown): value is CheckInReceipt {
  const receipt = value as Partial<CheckInReceipt> | null;
  return typeof receipt?.fingerprint === "string" &&
    typeof receipt.status === "number" &&
    typeof receipt.body === "object";
}

/** The refusals a ledger lists (none for anything else). */
export function toRefusalLedger(value: unknown): RefusalLedger {
  const refusals = (value as Partial<RefusalLedger> | null)?.refusals;
  return {
    refusals: Array.isArray(refusals)
      ? refusals.filter((refusal) =>
        typeof refusal?.checkInId === "string" &&
        typeof refusal.answeredAt === "string"
      )
      : [],
  };
}

/**
 * Adds a receipt's write (only if the id has none yet) to `operation`. A
 * refusal's (any status but 200) also lists its id in the passport's
 * `ledger` (as read, and checked) and deletes the receipts of the oldest
 * refusals past {@linkcode MAX_REFUSAL_RECEIPTS}.
 */
export function addCheckInReceiptTo(
  operation: Deno.AtomicOperation,
  { userId, checkInId, receipt, ledger }: {
    userId: string;
    checkInId: string;
    receipt: CheckInReceipt;
    /** The passport's `keys.checkInRefusals` entry, read in the same transaction. */
    ledger: Deno.KvEntryMaybe<unknown>;
  },
): Deno.AtomicOperation {
  const key = keys.checkIn(userId, checkInId);
  operation
    .check({ key, versionstamp: null })
    .set(key, receipt, { expireIn: LIFETIMES.checkInReceiptMs });
  if (receipt.status === 200) return operation;
  const { refusals } = toRefusalLedger(ledger.value);
  refusals.push({ checkInId, answeredAt: receipt.answeredAt });
  for (const oldest of refusals.slice(0, -MAX_REFUSAL_RECEIPTS)) {
    operation.delete(keys.checkIn(userId, oldest.checkInId));
  }
  const kept = refusals.slice(-MAX_REFUSAL_RECEIPTS);
  return operation.check(ledger).set(
    keys.checkInRefusals(userId),
    { refusals: kept } satisfies RefusalLedger,
    { expireIn: LIFETIMES.checkInReceiptMs },
  );
}

/** A passport's receipts and refusal ledger, read for a merge. */
export interface CheckInReceiptsToMove {
  receipts: Deno.KvEntry<unknown>[];
  ledger: Deno.KvEntryMaybe<unknown>;
}

/** Reads a passport's receipts and ledger (a merge moves them). */
export async function readCheckInReceipts(
  kv: Deno.Kv,
  userId: string,
): Promise<CheckInReceiptsToMove> {
  const receipts = await Array.fromAsync(
    kv.list({ prefix: keys.checkInsOfUser(userId) }),
  );
  return { receipts, ledger: await kv.get(keys.checkInRefusals(userId)) };
}

/**
 * Adds moving the receipts of `from` to `into` to a merge's `operation`,
 * each for the rest of its 7 days, so a check-in resent after the merge gets
 * the same answer: every accepted one (one per attraction), and the
 * refusals of both ledgers, the latest {@linkcode MAX_REFUSAL_RECEIPTS}
 * kept. Both ledgers are checked. Receipts of `from` that no ledger lists
 * (refusals of earlier versions) are left to expire.
 */
export function addCheckInReceiptsMoveTo(
  operation: Deno.AtomicOperation,
  { from, into, now }: {
    from: CheckInReceiptsToMove & { userId: string };
    into: CheckInReceiptsToMove & { userId: string };
    now: Date;
  },
): Deno.AtomicOperation {
  const left = (receipt: CheckInReceipt) =>
    Date.parse(receipt.answeredAt) + LIFETIMES.checkInReceiptMs -
    now.getTime();
  const fromReceipts = new Map<string, CheckInReceipt>();
  for (const { key, value } of from.receipts) {
    if (isCheckInReceipt(value)) fromReceipts.set(String(key[2]), value);
  }
  const fromRefusals = toRefusalLedger(from.ledger.value).refusals;
  const listed = new Set(fromRefusals.map((refusal) => refusal.checkInId));
  // Both ledgers in time order; the latest kept, the others' receipts go.
  const all = [
    ...toRefusalLedger(into.ledger.value).refusals.map((refusal) => ({
      ...refusal,
      moved: false,
    })),
    ...fromRefusals.filter(({ checkInId }) => {
      const receipt = fromReceipts.get(checkInId);
      return receipt !== undefined && left(receipt) > 0;
    }).map((refusal) => ({ ...refusal, moved: true })),
  ].sort((a, b) => a.answeredAt.localeCompare(b.answeredAt));
  const kept = all.slice(-MAX_REFUSAL_RECEIPTS);
  const keptMoved = new Set(
    kept.filter((refusal) => refusal.moved).map((r) => r.checkInId),
  );
  for (const refusal of all.slice(0, -MAX_REFUSAL_RECEIPTS)) {
    if (!refusal.moved) {
      operation.delete(keys.checkIn(into.userId, refusal.checkInId));
    }
  }
  for (const [checkInId, receipt] of fromReceipts) {
    const accepted = receipt.status === 200;
    if (!accepted && !listed.has(checkInId)) continue;
    operation.delete(keys.checkIn(from.userId, checkInId));
    if ((accepted || keptMoved.has(checkInId)) && left(receipt) > 0) {
      operation.set(keys.checkIn(into.userId, checkInId), receipt, {
        expireIn: left(receipt),
      });
    }
  }
  operation.check(from.ledger, into.ledger)
    .delete(keys.checkInRefusals(from.userId));
  if (kept.length === 0) return operation;
  return operation.set(
    keys.checkInRefusals(into.userId),
    {
      refusals: kept.map(({ checkInId, answeredAt }) => ({
        checkInId,
        answeredAt,
      })),
    } satisfies RefusalLedger,
    { expireIn: LIFETIMES.checkInReceiptMs },
  );
}

/** Every receipt of a user (the data export). */
export async function listCheckInReceipts(
  kv: Deno.Kv,
  userId: string,
): Promise<(CheckInReceipt & { checkInId: string })[]> {
  const receipts: (CheckInReceipt & { checkInId: string })[] = [];
  for await (const entry of kv.list({ prefix: keys.checkInsOfUser(userId) })) {
    if (isCheckInReceipt(entry.value)) {
      receipts.push({ ...entry.value, checkInId: String(entry.key[2]) });
    }
  }
  return receipts.sort((a, b) => a.answeredAt.localeCompare(b.answeredAt));
}

/** Deletes every receipt of a user and their ledger (erasure); returns how many receipts went. */
export async function deleteCheckInReceiptsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<number> {
  let count = 0;
  for await (const entry of kv.list({ prefix: keys.checkInsOfUser(userId) })) {
    await kv.delete(entry.key);
    count++;
  }
  await kv.delete(keys.checkInRefusals(userId));
  return count;
}
