/**
 * The rewards' figures for a span of days, per partner and prize: passports
 * that unlocked it, claims, redemptions, and the stock left now. One source
 * for the console, the council's PDF report and the workbook, so the three
 * cannot disagree. Counts only: no passport is named.
 */
import { listStampCounts } from "@/lib/db/counters.ts";
import {
  listPartners,
  listPrizeCounts,
  listPrizes,
  listPrizeStock,
} from "@/lib/db/rewards.ts";
import { BADGES } from "@/lib/badges/badges.ts";
import type { Partner, Prize, PrizeRequirement } from "@/lib/prizes/types.ts";

/** One prize's figures over the span. */
export interface PrizeReportRow {
  prize: Prize;
  /** Null for a partner removed from the store. */
  partner: Partner | null;
  /**
   * Passports that reached the prize's stamps in the span; null for a
   * prize that takes given attractions or a route (no counter holds those).
   */
  unlocked: number | null;
  claimed: number;
  redeemed: number;
  /** Units left now (not at the span's end). */
  stockLeft: number;
  /** Fewer than a tenth of its units left. */
  lowStock: boolean;
}

/** The figures of each prize on each day of the span that had any. */
export interface PrizeReportDay {
  day: string;
  prizeId: string;
  unlocked: number | null;
  claimed: number;
  redeemed: number;
}

export interface PrizeReport {
  prizes: PrizeReportRow[];
  days: PrizeReportDay[];
}

/** Whether `left` of `prize`'s units is under a tenth of them. */
export function isLowStock(prize: Prize, left: number): boolean {
  return left * 10 < prize.stockTotal;
}

/** The stamps a requirement comes down to, if it is a count of stamps. */
export function getRequiredStamps(
  requirement: PrizeRequirement,
  attractionCount: number,
): number | null {
  if (requirement.kind === "stamps") return requirement.count;
  if (requirement.kind === "badge") {
    const stamps = BADGES.find((b) => b.id === requirement.badgeId)?.stamps;
    return stamps === "all" ? attractionCount : stamps ?? null;
  }
  return null;
}

export async function loadPrizeReport(
  kv: Deno.Kv,
  { from, to, attractionCount, partnerId }: {
    from: string;
    to: string;
    attractionCount: number;
    /** One partner's prizes only (its own report). */
    partnerId?: string;
  },
): Promise<PrizeReport> {
  const [allPrizes, partners, stock, counts, stamps] = await Promise.all([
    listPrizes(kv),
    listPartners(kv),
    listPrizeStock(kv),
    listPrizeCounts(kv, { from, to }),
    listStampCounts(kv, { from, to }),
  ]);
  const prizes = partnerId === undefined
    ? allPrizes
    : allPrizes.filter((prize) => prize.partnerId === partnerId);
  const reached = new Map<string, number>();
  for (const { day, stamps: n, n: count } of stamps) {
    reached.set(`${day}|${n}`, count);
  }
  const days: PrizeReportDay[] = [];
  const byPrize = new Map(prizes.map((prize) => [prize.id, prize]));
  const dayKeys = new Set<string>();
  for (const row of counts) {
    if (!byPrize.has(row.prizeId)) continue;
    dayKeys.add(`${row.day}|${row.prizeId}`);
  }
  for (const prize of prizes) {
    const need = getRequiredStamps(prize.requirement, attractionCount);
    if (need === null) continue;
    for (const { day, stamps: n } of stamps) {
      if (n === need) dayKeys.add(`${day}|${prize.id}`);
    }
  }
  const countOf = new Map(
    counts.map((row) => [`${row.day}|${row.prizeId}`, row]),
  );
  for (const key of [...dayKeys].sort()) {
    const [day, prizeId] = key.split("|");
    const prize = byPrize.get(prizeId)!;
    const need = getRequiredStamps(prize.requirement, attractionCount);
    days.push({
      day,
      prizeId,
      unlocked: need === null ? null : reached.get(`${day}|${need}`) ?? 0,
      claimed: countOf.get(key)?.claimed ?? 0,
      redeemed: countOf.get(key)?.redeemed ?? 0,
    });
  }
  const partnerById = new Map(partners.map((p) => [p.id, p]));
  const rows = prizes.map((prize): PrizeReportRow => {
    const own = days.filter((day) => day.prizeId === prize.id);
    const sum = (pick: (day: PrizeReportDay) => number | null) =>
      own.reduce((total, day) => total + (pick(day) ?? 0), 0);
    const stockLeft = Math.max(
      0,
      prize.stockTotal - (stock.get(prize.id) ?? 0),
    );
    return {
      prize,
      partner: partnerById.get(prize.partnerId) ?? null,
      unlocked: getRequiredStamps(prize.requirement, attractionCount) === null
        ? null
        : sum((day) => day.unlocked),
      claimed: sum((day) => day.claimed),
      redeemed: sum((day) => day.redeemed),
      stockLeft,
      lowStock: isLowStock(prize, stockLeft),
    };
  });
  rows.sort((a, b) =>
    (a.partner?.name ?? "").localeCompare(b.partner?.name ?? "", "es") ||
    a.prize.name.es.localeCompare(b.prize.name.es, "es")
  );
  return { prizes: rows, days };
}
