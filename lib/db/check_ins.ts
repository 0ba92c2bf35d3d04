/**
 * Check-in receipts: a device names each check-in with an id
 * (`checkInId`), and the first answer to it is kept under
 * `keys.checkIn(userId, checkInId)` for `LIFETIMES.checkInReceiptMs`, so a
 * retry (the reply was lost, the queue sent it again, another instance got
 * it) never counts twice and gets that answer again.
 */

/** What a check-in asked, reduced to compare a retry with it (a code or a position). */
export type CheckInFingerprint = string;

/** A kept answer to one check-in id. */
export interface CheckInReceipt {
  fingerprint: CheckInFingerprint;
  /** The HTTP status of the first answer. */
  status: number;
  /** The first answer's JSON body. */
  body: Record<string, unknown>;
  /** ISO 8601: when it was answered. */
  answeredAt: string;
}
