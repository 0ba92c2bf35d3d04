/**
 * Partners and prizes: the businesses of the town that give something for
 * the passport's stamps, what they give, and what it takes. Set by the
 * tourism office on the console (lib/db/rewards.ts stores them).
 */

/** A text in both of the portal's languages. */
export interface BothLanguages {
  es: string;
  en: string;
}

/** What a passport needs to unlock a prize. Every stamp counted is a verified visit (code or position, under the check-in rules). */
export type PrizeRequirement =
  /** At least this many stamps. */
  | { kind: "stamps"; count: number }
  /** A milestone badge (lib/badges). */
  | { kind: "badge"; badgeId: string }
  /** Every attraction of one of the data set's routes. */
  | { kind: "route"; routeSlug: string }
  /** Every one of the given attractions. */
  | { kind: "attractions"; slugs: string[] };

/** A business that hands out prizes. */
export interface Partner {
  /** Random, URL-safe; never shown to tourists as a secret. */
  id: string;
  name: string;
  /** The data set's provider it is, if any (its address, hours and map come from there). */
  providerSlug: string | null;
  address: string;
  /** When to come, as a visitor reads it (shown where the provider has no hours). */
  hours: string;
  location: { lat: number; lng: number } | null;
  /** A paused partner's prizes are not shown, claimed or redeemed. */
  active: boolean;
  /**
   * Moved each time the office issues a new PIN: partner sessions opened
   * with an older one end.
   */
  pinVersion: number;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** A prize a partner gives. */
export interface Prize {
  id: string;
  partnerId: string;
  name: BothLanguages;
  description: BothLanguages;
  requirement: PrizeRequirement;
  /** First and last day it may be claimed and redeemed (`YYYY-MM-DD`, the municipality's), inclusive. */
  validFrom: string;
  validUntil: string;
  /** Units in all; a claim takes one. */
  stockTotal: number;
  /** Units a day at most, or null for no daily bound. */
  stockPerDay: number | null;
  /** How many times one passport may claim it. */
  perPassport: number;
  /** Guest passports may not claim it: a signed-in account is needed. */
  requiresAccount: boolean;
  status: "active" | "paused";
  createdAt: string;
  updatedAt: string;
}

/**
 * One claim of a prize by one passport: what the phone shows at the
 * counter. The secret makes the changing digits (lib/prizes/counter_code.ts).
 */
export interface PrizeClaim {
  claimId: string;
  prizeId: string;
  partnerId: string;
  /** Five characters, unique among claims: what the partner types first. */
  reference: string;
  secret: string;
  /** ISO 8601. */
  claimedAt: string;
  /** ISO 8601 of the partner's confirmation, or null while not redeemed. */
  redeemedAt: string | null;
  /** The partner page's request that redeemed it: its retry gets the same answer. */
  redeemRequestId: string | null;
}
