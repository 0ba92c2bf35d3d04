import {
  type Badge,
  type BadgeRule,
  BADGES,
  getBadgesEarned,
} from "@/lib/badges/badges.ts";
import { addCheckInReceiptsMoveTo, readCheckInReceipts } from "./check_ins.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, MAX_GET_MANY_KEYS, runTransaction } from "./kv.ts";
import { markRoutesChanged } from "./route_changes.ts";
import { DEFAULT_TIME_ZONE, replaceVisitStats } from "./stats.ts";
import type { Ticket } from "./tickets.ts";
import {
  type AttractionStats,
  type StoredUserStats,
  toAttractionStats,
  type UnlockedBadge,
  type Visit,
} from "./visits.ts";

/** What merging a guest passport into an account did. */
export interface MergeResult {
  /** Visits the account gained (attractions it had not visited). */
  moved: number;
  /** Attractions both had visited: one visit kept, the earliest. */
  merged: number;
  /** Badges the merged count unlocked that neither passport held. */
  unlocked: Badge[];
  /** Every attraction whose aggregates changed. */
  slugs: string[];
}

/**
 * Moves everything of the passport `from` (a guest) into `into` (the
 * account it signed in to) in one transaction: visits (an attraction in
 * both keeps the earliest visit, with the other's rating and notes when it
 * has none), the visit-id index, the attraction aggregates (a duplicate
 * visit and its rating leave them), the counters, the badges (held by
 * either, the earliest unlock kept, and any badge the merged passport
 * now earns unlocked once), the ticket link (a passport keeps one ticket:
 * the account's, else the guest's; a guest ticket shows the account's
 * visits from then on) and the check-in receipts (lib/db/check_ins.ts,
 * `addCheckInReceiptsMoveTo`), so a check-in the guest's queue sends again
 * gets the answer it got before. Every entry read is checked and the user counters
 * guard the lists, so a visit recorded meanwhile or a second tab merging at
 * the same time makes the attempt retry; the second merge then finds an
 * empty guest passport and does nothing. The dashboard's counters follow in
 * the same atomic: a duplicate visit leaves them with its rating and note,
 * and the stamp funnel counts the merged passport once, by its new order.
 */
export async function mergePassports(
  kv: Deno.Kv,
  {
    from,
    into,
    now,
    totalAttractions,
    timeZone = DEFAULT_TIME_ZONE,
    badges: table = BADGES,
  }: {
    from: string;
    into: string;
    now: Date;
    totalAttractions: number;
    /** The municipality's time zone (the dashboard's calendar). */
    timeZone?: string;
    /** The badge table (lib/badges); tests pass their own. */
    badges?: readonly BadgeRule[];
  },
): Promise<MergeResult> {
  if (from === into) return { moved: 0, merged: 0, unlocked: [], slugs: [] };
  return await runTransaction(async () => {
    const [
      fromVisits,
      intoVisits,
      fromBadges,
      intoBadges,
      fromReceipts,
      intoReceipts,
    ] = await Promise.all([
      listEntries<Visit>(kv, keys.visitsOfUser(from)),
      listEntries<Visit>(kv, keys.visitsOfUser(into)),
      listEntries<UnlockedBadge>(kv, keys.badgesOfUser(from)),
      listEntries<UnlockedBadge>(kv, keys.badgesOfUser(into)),
      readCheckInReceipts(kv, from),
      readCheckInReceipts(kv, into),
    ]);
    const [fromStats, intoStats, fromLink, intoLink] = await kv.getMany<
      [StoredUserStats, StoredUserStats, string, string]
    >([
      keys.userStats(from),
      keys.userStats(into),
      keys.ticketByUser(from),
      keys.ticketByUser(into),
    ]);
    if (
      fromVisits.length === 0 && !fromLink.value && fromBadges.length === 0 &&
      fromReceipts.receipts.length === 0 && !fromReceipts.ledger.value
    ) {
      return { moved: 0, merged: 0, unlocked: [], slugs: [] };
    }

    const byIntoSlug = new Map(intoVisits.map((e) => [e.value.slug, e.value]));
    const slugs = fromVisits.map((e) => e.value.slug);
    const attractionEntries = await getAll<AttractionStats>(
      kv,
      slugs.map((slug) => keys.attractionStats(slug)),
    );
    const operation = kv.atomic().check(
      ...fromVisits,
      ...intoVisits,
      ...fromBadges,
      ...intoBadges,
      fromStats,
      intoStats,
      fromLink,
      intoLink,
      ...attractionEntries,
    );

    // Visits: the account's, plus the guest's of attractions it lacks; for
    // one in both, the earliest, with a rating from either.
    const visits = new Map(byIntoSlug);
    let moved = 0;
    let merged = 0;
    slugs.forEach((slug, i) => {
      const guest = fromVisits[i].value;
      const own = byIntoSlug.get(slug);
      operation.delete(keys.visit(from, slug));
      if (!own) {
        moved++;
        visits.set(slug, { ...guest, userId: into });
        operation.set(keys.visitById(guest.visitId), [into, slug]);
        return;
      }
      merged++;
      const [kept, dropped] = earlier(guest, own) === guest
        ? [guest, own]
        : [own, guest];
      const rated = kept.rating !== null ? kept : dropped;
      const visit: Visit = {
        ...kept,
        userId: into,
        rating: rated.rating,
        notes: kept.notes ?? dropped.notes,
        ratedAt: rated.ratedAt,
      };
      visits.set(slug, visit);
      operation.set(keys.visitById(kept.visitId), [into, slug]);
      operation.delete(keys.visitById(dropped.visitId));
      // One visit of the two leaves the aggregates, with its rating (the
      // visit count by its stored adjustment: the count itself is a sum).
      const stats = toAttractionStats(attractionEntries[i].value);
      const ratings = (own.rating !== null ? 1 : 0) +
        (guest.rating !== null ? 1 : 0);
      const sum = (own.rating ?? 0) + (guest.rating ?? 0);
      operation.set(
        keys.attractionStats(slug),
        {
          visitCount: stats.visitCount - 1,
          ratingCount: Math.max(
            0,
            stats.ratingCount - ratings + (visit.rating !== null ? 1 : 0),
          ),
          ratingSum: stats.ratingSum - sum + (visit.rating ?? 0),
        } satisfies AttractionStats,
      );
    });
    // Counted again in the order they happened.
    const ordered = [...visits.values()].sort((a, b) =>
      a.visitedAt < b.visitedAt ? -1 : a.visitedAt > b.visitedAt ? 1 : 0
    );
    const counted = replaceVisitStats(operation, {
      before: [...fromVisits, ...intoVisits].map((entry) => entry.value),
      after: ordered.map((visit, i) => ({ ...visit, seq: i + 1 })),
      timeZone,
    });
    for (const visit of counted) {
      operation.set(keys.visit(into, visit.slug), visit);
    }

    // Badges: each milestone once, unlocked at its earliest.
    const badges = new Map<string, UnlockedBadge>();
    for (const { value } of [...intoBadges, ...fromBadges]) {
      const held = badges.get(value.id);
      if (!held || value.unlockedAt < held.unlockedAt) {
        badges.set(value.id, value);
      }
    }
    const unlocked = getBadgesEarned({
      count: ordered.length,
      visited: new Set(ordered.map((visit) => visit.slug)),
      total: totalAttractions,
    }, table).filter((badge) => !badges.has(badge.id));
    for (const badge of unlocked) {
      badges.set(badge.id, { ...badge, unlockedAt: now.toISOString() });
    }
    for (const { value } of fromBadges) {
      operation.delete(keys.badge(from, value.id));
    }
    for (const badge of badges.values()) {
      operation.set(keys.badge(into, badge.id), badge);
    }
    operation.delete(keys.userStats(from));
    operation.set(
      keys.userStats(into),
      {
        visitCount: ordered.length,
        badgeCount: badges.size,
        badges: [...badges.keys()],
      } satisfies StoredUserStats,
    );

    // The ticket link: one per passport, the account's first.
    if (fromLink.value) {
      const ticketEntry = await kv.get<Ticket>(keys.ticket(fromLink.value));
      operation.check(ticketEntry).delete(keys.ticketByUser(from));
      if (ticketEntry.value) {
        operation.set(keys.ticket(fromLink.value), {
          ...ticketEntry.value,
          userId: into,
        });
        // The route now shows the account's visits, on every instance.
        markRoutesChanged(operation);
      }
      if (!intoLink.value) {
        operation.set(keys.ticketByUser(into), fromLink.value);
      }
    }

    // The receipts, so the guest's queue gets the same answers again.
    addCheckInReceiptsMoveTo(operation, {
      from: { userId: from, ...fromReceipts },
      into: { userId: into, ...intoReceipts },
      now,
    });

    if (!(await commit(operation)).ok) return CONFLICT;
    return { moved, merged, unlocked, slugs };
  });
}

/** `getMany` for any number of keys (it takes {@linkcode MAX_GET_MANY_KEYS}). */
async function getAll<T>(
  kv: Deno.Kv,
  keyList: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const batches: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
  for (let i = 0; i < keyList.length; i += MAX_GET_MANY_KEYS) {
    batches.push(kv.getMany<T[]>(keyList.slice(i, i + MAX_GET_MANY_KEYS)));
  }
  return (await Promise.all(batches)).flat();
}

async function listEntries<T>(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<Deno.KvEntry<T>[]> {
  const entries: Deno.KvEntry<T>[] = [];
  for await (const entry of kv.list<T>({ prefix })) entries.push(entry);
  return entries;
}

function earlier(a: Visit, b: Visit): Visit {
  return a.visitedAt <= b.visitedAt ? a : b;
}
