/**
 * Partners, prizes, claims and redemptions in KV. The rules that must hold
 * under concurrency are each one atomic here:
 *
 * - A claim checks the prize's stock record (and the day's) and the
 *   passport's claims of that prize by versionstamp and moves them in one
 *   commit: stock never goes below zero, the per-passport limit holds, and a
 *   retried claim whose first answer was lost gets the claim it made.
 * - A redemption checks the passport's claims by versionstamp and marks the
 *   claim redeemed with the partner phone's request id: the same claim is
 *   redeemed once with two phones on two instances, and a phone's retry of
 *   a lost reply hears "valid" again, not "already redeemed".
 *
 * A claim names its passport (user id) and is erased with it; the stock and
 * the day counts name no one and stay.
 */
import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import { getLocalDate } from "@/lib/calendar/mod.ts";
import {
  apiMessage,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnprocessableEntityError,
} from "@/lib/errors/mod.ts";
import {
  getPrizeProgress,
  type PassportProgress,
  type PrizeProgress,
  type RewardsData,
} from "@/lib/prizes/eligibility.ts";
import {
  isCurrentCounterCode,
  newClaimReference,
  newClaimSecret,
} from "@/lib/prizes/counter_code.ts";
import type { Partner, Prize, PrizeClaim } from "@/lib/prizes/types.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { getErasedUserKey, UserErasedError } from "./erased_users.ts";
import { keys, LIFETIMES } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import type { StoredUserStats } from "./visits.ts";
import { listVisits } from "./visits.ts";

export type { Partner, Prize, PrizeClaim };

/** A passport's claims of one prize, as stored. */
interface StoredClaims {
  claims: PrizeClaim[];
}
/** Units claimed, as stored (the prize's, or one day's). */
interface StoredStock {
  claimed: number;
}
/** A claim's place, by its reference. */
interface ClaimLocation {
  userId: string;
  prizeId: string;
  claimId: string;
}
/** A partner as stored: with its PIN's hash, which never leaves this module. */
interface StoredPartner extends Partner {
  pinHash?: string;
}

function toPartner({ pinHash: _, ...partner }: StoredPartner): Partner {
  return partner;
}

/** A partner's PIN, by its hash. */
interface StoredPin {
  partnerId: string;
  pinVersion: number;
}
/** A partner's signed-in phone. */
export interface PartnerSession {
  partnerId: string;
  pinVersion: number;
  /** ISO 8601. */
  createdAt: string;
}

const ONE = new Deno.KvU64(1n);

// --- Partners and prizes: the console's side -------------------------------

/** Every partner, by name. */
export async function listPartners(kv: Deno.Kv): Promise<Partner[]> {
  const partners: Partner[] = [];
  for await (
    const entry of kv.list<StoredPartner>({ prefix: keys.partners() })
  ) {
    partners.push(toPartner(entry.value));
  }
  return partners.sort((a, b) => a.name.localeCompare(b.name, "es"));
}

/**
 * Longer than any id given here ({@linkcode newRewardsId}) or by a seed: a
 * URL's 4,000-character segment is no partner or prize, before KV refuses
 * the key as too large.
 */
const MAX_REWARDS_ID_LENGTH = 64;

function noEntry<T>(key: Deno.KvKey): Deno.KvEntryMaybe<T> {
  return { key, value: null, versionstamp: null };
}

export async function getPartner(
  kv: Deno.Kv,
  partnerId: string,
): Promise<Deno.KvEntryMaybe<Partner>> {
  if (partnerId.length > MAX_REWARDS_ID_LENGTH) {
    return noEntry(keys.partner(""));
  }
  const entry = await kv.get<StoredPartner>(keys.partner(partnerId));
  return entry.value === null
    ? entry
    : { ...entry, value: toPartner(entry.value) };
}

/** Every prize, newest first. */
export async function listPrizes(kv: Deno.Kv): Promise<Prize[]> {
  const prizes: Prize[] = [];
  for await (const entry of kv.list<Prize>({ prefix: keys.prizes() })) {
    prizes.push(entry.value);
  }
  return prizes.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

export async function getPrize(
  kv: Deno.Kv,
  prizeId: string,
): Promise<Deno.KvEntryMaybe<Prize>> {
  if (prizeId.length > MAX_REWARDS_ID_LENGTH) return noEntry(keys.prize(""));
  return await kv.get<Prize>(keys.prize(prizeId));
}

/** Units of each prize claimed so far, by prize id. */
export async function listPrizeStock(
  kv: Deno.Kv,
): Promise<Map<string, number>> {
  const claimed = new Map<string, number>();
  for await (
    const entry of kv.list<StoredStock>({ prefix: keys.prizeStocks() })
  ) {
    claimed.set(String(entry.key[1]), entry.value.claimed);
  }
  return claimed;
}

/** A random id for a new partner or prize. */
export function newRewardsId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 12);
}

/**
 * Saves a partner (new, or changed from the version read: `versionstamp`,
 * null for a new one) and audits it in one atomic. A second editor's save of
 * the same version is a {@linkcode ConflictError}.
 */
export async function savePartner(
  kv: Deno.Kv,
  { partner, versionstamp, staff, now }: {
    partner: Partner;
    versionstamp: string | null;
    staff: StaffMember;
    now: Date;
  },
): Promise<Partner> {
  const stored = await kv.get<StoredPartner>(keys.partner(partner.id));
  if (stored.versionstamp !== versionstamp) {
    throw new ConflictError(apiMessage("rewards.changed_meanwhile"));
  }
  // The PIN is never the form's: it stays as issued.
  const saved: StoredPartner = {
    ...partner,
    pinVersion: stored.value?.pinVersion ?? 0,
    ...(stored.value?.pinHash ? { pinHash: stored.value.pinHash } : {}),
    updatedAt: now.toISOString(),
  };
  const operation = kv.atomic().check(stored)
    .set(keys.partner(partner.id), saved);
  addStaffActionTo(operation, {
    staff,
    action: "partner_saved",
    target: partner.id,
    at: now,
  });
  if (!(await commit(operation)).ok) {
    throw new ConflictError(apiMessage("rewards.changed_meanwhile"));
  }
  return toPartner(saved);
}

/** Saves a prize like {@linkcode savePartner} does a partner. */
export async function savePrize(
  kv: Deno.Kv,
  { prize, versionstamp, staff, now }: {
    prize: Prize;
    versionstamp: string | null;
    staff: StaffMember;
    now: Date;
  },
): Promise<Prize> {
  const saved = { ...prize, updatedAt: now.toISOString() };
  const partner = await getPartner(kv, prize.partnerId);
  if (partner.value === null) {
    throw new NotFoundError(apiMessage("rewards.partner_not_found"));
  }
  // The partner checked too: a prize is never saved for one removed meanwhile.
  const checked = kv.atomic()
    .check({ key: keys.prize(prize.id), versionstamp })
    .check(partner)
    .set(keys.prize(prize.id), saved);
  addStaffActionTo(checked, {
    staff,
    action: "prize_saved",
    target: prize.id,
    at: now,
  });
  if (!(await commit(checked)).ok) {
    throw new ConflictError(apiMessage("rewards.changed_meanwhile"));
  }
  return saved;
}

/** A new eight-digit PIN. */
function newPin(): string {
  const values = crypto.getRandomValues(new Uint32Array(2));
  return String(values[0] % 10_000).padStart(4, "0") +
    String(values[1] % 10_000).padStart(4, "0");
}

/**
 * Gives a partner a new PIN, returned once (only its hash is kept): the old
 * PIN stops opening the partner page, and the phones signed in with it are
 * signed out at their next request. Audited in the same atomic.
 */
export async function issuePartnerPin(
  kv: Deno.Kv,
  { partnerId, staff, now }: {
    partnerId: string;
    staff: StaffMember;
    now: Date;
  },
): Promise<string> {
  return await runTransaction(async () => {
    const entry = await kv.get<StoredPartner>(keys.partner(partnerId));
    if (entry.value === null) {
      throw new NotFoundError(apiMessage("rewards.partner_not_found"));
    }
    const pin = newPin();
    const pinHash = await sha256Base64Url(`partner-pin:${pin}`);
    const taken = await kv.get(keys.partnerPin(pinHash));
    if (taken.value !== null) return CONFLICT;
    const partner = {
      ...entry.value,
      pinVersion: entry.value.pinVersion + 1,
      updatedAt: now.toISOString(),
    };
    const operation = kv.atomic().check(entry).check(taken)
      .set(keys.partner(partnerId), { ...partner, pinHash })
      .set(
        keys.partnerPin(pinHash),
        {
          partnerId,
          pinVersion: partner.pinVersion,
        } satisfies StoredPin,
      );
    if (entry.value.pinHash) {
      operation.delete(keys.partnerPin(entry.value.pinHash));
    }
    addStaffActionTo(operation, {
      staff,
      action: "partner_pin_issued",
      target: partnerId,
      at: now,
    });
    return (await commit(operation)).ok ? pin : CONFLICT;
  });
}

// --- The partner's phone ------------------------------------------------------

/**
 * Signs a partner's phone in with its PIN: a new session (its handle is the
 * SHA-256 of the cookie's id, which is returned). Null for a PIN that opens
 * nothing, or a paused partner's.
 */
export async function openPartnerSession(
  kv: Deno.Kv,
  { pin, now }: { pin: string; now: Date },
): Promise<{ cookieId: string; partner: Partner } | null> {
  const digits = pin.replace(/\D/g, "");
  if (digits.length !== 8) return null;
  const stored = await kv.get<StoredPin>(
    keys.partnerPin(await sha256Base64Url(`partner-pin:${digits}`)),
  );
  if (stored.value === null) return null;
  const partner = await getPartner(kv, stored.value.partnerId);
  if (
    !partner.value?.active ||
    partner.value.pinVersion !== stored.value.pinVersion
  ) return null;
  const cookieId = newClaimSecret();
  const session: PartnerSession = {
    partnerId: partner.value.id,
    pinVersion: partner.value.pinVersion,
    createdAt: now.toISOString(),
  };
  await kv.set(keys.partnerSession(await sha256Base64Url(cookieId)), session, {
    expireIn: LIFETIMES.partnerSessionMs,
  });
  return { cookieId, partner: partner.value };
}

/** The partner a phone's cookie signs in, or null (unknown, expired, a PIN replaced since, a paused partner). */
export async function getPartnerOfSession(
  kv: Deno.Kv,
  cookieId: string,
): Promise<Partner | null> {
  const session = await kv.get<PartnerSession>(
    keys.partnerSession(await sha256Base64Url(cookieId)),
  );
  if (session.value === null) return null;
  const partner = await getPartner(kv, session.value.partnerId);
  if (
    !partner.value?.active ||
    partner.value.pinVersion !== session.value.pinVersion
  ) return null;
  return partner.value;
}

/** Signs a phone out. */
export async function closePartnerSession(
  kv: Deno.Kv,
  cookieId: string,
): Promise<void> {
  await kv.delete(keys.partnerSession(await sha256Base64Url(cookieId)));
}

// --- The tourist's side -------------------------------------------------------

/** What a passport's stored counters say of its progress. */
function progressOfStats(
  stats: StoredUserStats | null,
  visitedSlugs?: readonly string[],
): PassportProgress {
  return {
    visited: new Set(visitedSlugs ?? stats?.visited?.map(([slug]) => slug)),
    badges: new Set(stats?.badges ?? []),
  };
}

/** A passport's progress: its counters, or its visits where the counters lack them (earlier versions). */
async function readProgress(
  kv: Deno.Kv,
  userId: string,
  stats: StoredUserStats | null,
): Promise<PassportProgress> {
  if (stats === null || stats.visited !== undefined) {
    return progressOfStats(stats);
  }
  const visits = await listVisits(kv, userId);
  return progressOfStats(stats, visits.map((visit) => visit.slug));
}

/** Why a prize cannot be claimed or redeemed today, or null when it can. */
export function getPrizeRefusal(
  prize: Prize,
  partner: Partner | null,
  day: string,
): "paused" | "not_yet" | "expired" | null {
  if (prize.status !== "active" || !partner?.active) return "paused";
  if (day < prize.validFrom) return "not_yet";
  if (day > prize.validUntil) return "expired";
  return null;
}

/** A `YYYY-MM-DD` day as a date to format: its noon, UTC, the same day in every time zone near the Americas and Europe. */
function dayAsDate(day: string): Date {
  return new Date(`${day}T12:00:00Z`);
}

function refusalError(
  refusal: "paused" | "not_yet" | "expired",
  prize: Prize,
): ConflictError {
  return new ConflictError(
    apiMessage(`rewards.${refusal}`, {
      from: dayAsDate(prize.validFrom),
      until: dayAsDate(prize.validUntil),
    }),
    { reason: refusal },
  );
}

/** A prize as a passport sees it. */
export interface PrizeView {
  prize: Prize;
  partner: Partner;
  progress: PrizeProgress;
  /** Why it cannot be claimed today (null: it can, once unlocked). */
  refusal: "paused" | "not_yet" | "expired" | "out_of_stock" | null;
  /** This passport's claims of it, oldest first. */
  claims: PrizeClaim[];
  /** More claims this passport may make. */
  claimsLeft: number;
}

/**
 * The prizes a passport sees: every active prize of an active partner still
 * valid (and those it has claimed), with its progress and claims.
 */
export async function listPrizesOfPassport(
  kv: Deno.Kv,
  { userId, data, now, timeZone }: {
    userId: string;
    data: RewardsData;
    now: Date;
    timeZone: string;
  },
): Promise<PrizeView[]> {
  const day = getLocalDate(now, timeZone);
  const [prizes, partners, stock, statsEntry] = await Promise.all([
    listPrizes(kv),
    listPartners(kv),
    listPrizeStock(kv),
    kv.get<StoredUserStats>(keys.userStats(userId)),
  ]);
  const claimsByPrize = new Map<string, PrizeClaim[]>();
  for await (
    const entry of kv.list<StoredClaims>({
      prefix: keys.prizeClaimsOfUser(userId),
    })
  ) {
    claimsByPrize.set(String(entry.key[2]), entry.value.claims);
  }
  const progress = await readProgress(kv, userId, statsEntry.value);
  const partnerById = new Map(partners.map((p) => [p.id, p]));
  const views: PrizeView[] = [];
  for (const prize of prizes) {
    const partner = partnerById.get(prize.partnerId);
    const claims = claimsByPrize.get(prize.id) ?? [];
    if (!partner) continue;
    let refusal: PrizeView["refusal"] = getPrizeRefusal(prize, partner, day);
    if (refusal !== null && claims.length === 0) continue;
    if (refusal === null && (stock.get(prize.id) ?? 0) >= prize.stockTotal) {
      refusal = "out_of_stock";
    }
    views.push({
      prize,
      partner,
      progress: getPrizeProgress(prize.requirement, progress, data),
      refusal,
      claims,
      claimsLeft: Math.max(0, prize.perPassport - claims.length),
    });
  }
  return views;
}

/** A claim, and whether this request made it (false: the passport's open claim, answered again). */
export interface ClaimResult {
  claim: PrizeClaim;
  created: boolean;
}

/**
 * Claims one unit of a prize for a passport, in one atomic with the stock.
 * A passport with a claim not yet redeemed gets that claim again (a lost
 * reply, a second tap). Refusals, each with its reason: a prize unknown
 * (404), paused, not yet valid or expired (409), kept for accounts (403),
 * still locked (403), the passport's limit reached, out of stock in all or
 * for today (409); an erased passport is a 401 with nothing written.
 */
export async function claimPrize(
  kv: Deno.Kv,
  { userId, prizeId, guest, data, now, timeZone }: {
    userId: string;
    prizeId: string;
    /** A guest passport (no account). */
    guest: boolean;
    data: RewardsData;
    now: Date;
    timeZone: string;
  },
): Promise<ClaimResult> {
  const day = getLocalDate(now, timeZone);
  const erasedKey = await getErasedUserKey(userId);
  return await runTransaction(async () => {
    const [prizeEntry, stockEntry, dayEntry, claimsEntry, statsEntry, erased] =
      await kv.getMany<
        [Prize, StoredStock, StoredStock, StoredClaims, StoredUserStats, true]
      >([
        keys.prize(prizeId),
        keys.prizeStock(prizeId),
        keys.prizeStockOfDay(prizeId, day),
        keys.prizeClaims(userId, prizeId),
        keys.userStats(userId),
        erasedKey,
      ]);
    if (erased.value !== null) throw new UserErasedError();
    const prize = prizeEntry.value;
    if (prize === null) {
      throw new NotFoundError(apiMessage("rewards.prize_not_found"));
    }
    const partner = (await getPartner(kv, prize.partnerId)).value;
    const refusal = getPrizeRefusal(prize, partner, day);
    if (refusal) throw refusalError(refusal, prize);
    const claims = claimsEntry.value?.claims ?? [];
    const open = claims.find((claim) => claim.redeemedAt === null);
    if (open) return { claim: open, created: false };
    if (prize.requiresAccount && guest) {
      throw new ForbiddenError(apiMessage("rewards.account_required"));
    }
    const progress = getPrizeProgress(
      prize.requirement,
      await readProgress(kv, userId, statsEntry.value),
      data,
    );
    if (!progress.unlocked) {
      throw new ForbiddenError(
        apiMessage("rewards.locked", {
          have: progress.have,
          need: progress.need,
        }),
      );
    }
    if (claims.length >= prize.perPassport) {
      throw new ConflictError(
        apiMessage("rewards.limit", { count: prize.perPassport }),
        { reason: "limit" },
      );
    }
    const claimed = stockEntry.value?.claimed ?? 0;
    if (claimed >= prize.stockTotal) {
      throw new ConflictError(apiMessage("rewards.out_of_stock"), {
        reason: "out_of_stock",
      });
    }
    const claimedToday = dayEntry.value?.claimed ?? 0;
    if (prize.stockPerDay !== null && claimedToday >= prize.stockPerDay) {
      throw new ConflictError(apiMessage("rewards.out_of_stock_today"), {
        reason: "out_of_stock_today",
      });
    }
    const claim: PrizeClaim = {
      claimId: crypto.randomUUID(),
      prizeId,
      partnerId: prize.partnerId,
      reference: newClaimReference(),
      secret: newClaimSecret(),
      claimedAt: now.toISOString(),
      redeemedAt: null,
      redeemRequestId: null,
    };
    const referenceKey = keys.prizeClaimByReference(claim.reference);
    const operation = kv.atomic()
      .check(prizeEntry, stockEntry, dayEntry, claimsEntry, erased)
      // A statsEntry check would make every visit of the passport a
      // conflict here; its progress only grows, except by erasure (checked).
      .check({ key: referenceKey, versionstamp: null })
      .set(keys.prizeStock(prizeId), { claimed: claimed + 1 })
      .set(keys.prizeStockOfDay(prizeId, day), { claimed: claimedToday + 1 })
      .set(keys.prizeClaims(userId, prizeId), { claims: [...claims, claim] })
      .set(
        referenceKey,
        {
          userId,
          prizeId,
          claimId: claim.claimId,
        } satisfies ClaimLocation,
      )
      .sum(keys.prizeCountByDay(day, prizeId, "claimed"), ONE.value);
    return (await commit(operation)).ok ? { claim, created: true } : CONFLICT;
  });
}

/** What the partner's check answers. */
export type RedemptionResult =
  | {
    status: "redeemed";
    prize: Prize;
    /** ISO 8601. */
    redeemedAt: string;
  }
  | { status: "already_redeemed"; prize: Prize; redeemedAt: string };

/**
 * Redeems the claim a counter code names, for the partner whose phone asks:
 * exactly once, whatever the number of phones and instances. `requestId` is
 * the phone's id for this check: its retry (a lost reply) is answered
 * "redeemed" again. A code of another partner's prize is unknown, as a
 * code that does not exist (404); stale digits (a screenshot) are a 422; a
 * paused or expired prize is refused with its reason (409).
 */
export async function redeemPrizeClaim(
  kv: Deno.Kv,
  { partnerId, reference, digits, requestId, now, timeZone }: {
    partnerId: string;
    reference: string;
    digits: string;
    requestId: string;
    now: Date;
    timeZone: string;
  },
): Promise<RedemptionResult> {
  const unknown = () =>
    new NotFoundError(apiMessage("rewards.code_unknown"), {
      reason: "unknown",
    });
  const location = await kv.get<ClaimLocation>(
    keys.prizeClaimByReference(reference),
  );
  if (location.value === null) throw unknown();
  const { userId, prizeId, claimId } = location.value;
  const day = getLocalDate(now, timeZone);
  return await runTransaction(async () => {
    const [claimsEntry, prizeEntry] = await kv.getMany<
      [StoredClaims, Prize]
    >([keys.prizeClaims(userId, prizeId), keys.prize(prizeId)]);
    const claims = claimsEntry.value?.claims ?? [];
    const claim = claims.find((each) => each.claimId === claimId);
    const prize = prizeEntry.value;
    if (!claim || !prize || prize.partnerId !== partnerId) throw unknown();
    if (claim.redeemedAt !== null) {
      return claim.redeemRequestId === requestId
        ? { status: "redeemed", prize, redeemedAt: claim.redeemedAt }
        : { status: "already_redeemed", prize, redeemedAt: claim.redeemedAt };
    }
    if (!(await isCurrentCounterCode(claim.secret, digits, now.getTime()))) {
      throw new UnprocessableEntityError(apiMessage("rewards.code_stale"), {
        reason: "stale",
      });
    }
    const partner = (await getPartner(kv, partnerId)).value;
    const refusal = getPrizeRefusal(prize, partner, day);
    if (refusal) throw refusalError(refusal, prize);
    const redeemedAt = now.toISOString();
    const redeemed = claims.map((each) =>
      each.claimId === claimId
        ? { ...each, redeemedAt, redeemRequestId: requestId }
        : each
    );
    const operation = kv.atomic().check(claimsEntry)
      .set(keys.prizeClaims(userId, prizeId), { claims: redeemed })
      .sum(keys.prizeCountByDay(day, prizeId, "redeemed"), ONE.value);
    // A passport's first claim of a prize is redeemed once at most: this
    // count is of distinct people, as the open data's threshold needs.
    if (claims[0].claimId === claimId) {
      operation.sum(keys.prizeCountByDay(day, prizeId, "people"), ONE.value);
    }
    return (await commit(operation)).ok
      ? { status: "redeemed", prize, redeemedAt }
      : CONFLICT;
  });
}

// --- Reports, export and erasure ------------------------------------------------

/** One prize's counts on one day. */
export interface PrizeDayCount {
  day: string;
  prizeId: string;
  claimed: number;
  redeemed: number;
  /** Passports that redeemed the prize for the first time: distinct people. */
  people: number;
}

/** Claims and redemptions of each prize on each day, from `from` to `to` (inclusive, `YYYY-MM-DD`). */
export async function listPrizeCounts(
  kv: Deno.Kv,
  { from, to }: { from: string; to: string },
): Promise<PrizeDayCount[]> {
  const rows = new Map<string, PrizeDayCount>();
  const prefix = keys.prizeCountsByDay();
  for await (
    const entry of kv.list<Deno.KvU64>({
      start: [...prefix, from],
      end: [...prefix, `${to}\uffff`],
    })
  ) {
    const [, day, prizeId, outcome] = entry.key as [
      string,
      string,
      string,
      string,
    ];
    const id = `${day}|${prizeId}`;
    const row = rows.get(id) ??
      { day, prizeId, claimed: 0, redeemed: 0, people: 0 };
    if (
      outcome === "claimed" || outcome === "redeemed" || outcome === "people"
    ) {
      row[outcome] = Number(entry.value.value);
    }
    rows.set(id, row);
  }
  return [...rows.values()];
}

/** Every claim of one passport (its export). */
export async function listClaimsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<PrizeClaim[]> {
  const claims: PrizeClaim[] = [];
  for await (
    const entry of kv.list<StoredClaims>({
      prefix: keys.prizeClaimsOfUser(userId),
    })
  ) {
    claims.push(...entry.value.claims);
  }
  return claims;
}

/**
 * Deletes a passport's claims and their references (its erasure). A claim
 * not redeemed gives its unit back to the stock. Idempotent.
 */
export async function deleteClaimsOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<void> {
  for await (
    const entry of kv.list<StoredClaims>({
      prefix: keys.prizeClaimsOfUser(userId),
    })
  ) {
    const prizeId = String(entry.key[2]);
    await runTransaction(async () => {
      const [claimsEntry, stockEntry] = await kv.getMany<
        [StoredClaims, StoredStock]
      >([entry.key, keys.prizeStock(prizeId)]);
      if (claimsEntry.value === null) return undefined;
      const open = claimsEntry.value.claims.filter((c) => c.redeemedAt === null)
        .length;
      const operation = kv.atomic().check(claimsEntry, stockEntry)
        .delete(entry.key);
      for (const claim of claimsEntry.value.claims) {
        operation.delete(keys.prizeClaimByReference(claim.reference));
      }
      if (open > 0 && stockEntry.value !== null) {
        operation.set(keys.prizeStock(prizeId), {
          claimed: Math.max(0, stockEntry.value.claimed - open),
        });
      }
      return (await commit(operation)).ok ? undefined : CONFLICT;
    });
  }
}
