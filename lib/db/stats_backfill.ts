/**
 * The one-time backfill of the dashboard's counters from what earlier
 * versions stored without them: visits (with their ratings and notes),
 * tickets, guest passports still open, accounts. It runs at start, in the
 * background, and is safe with several instances on one KV: one claims it
 * with an atomic check and the others watch its heartbeat, taking over
 * where it stopped when it goes quiet. Each batch commits its counters
 * together with the cursor, under a check of the claim, so an interrupted
 * run resumes without counting anything twice. A visit counted live
 * (`inStats`) is skipped (a visit changes: rated, merged; the mark travels
 * with it); tickets, passports and accounts, which never change, are
 * counted when created before the claim (`cutoff`), from which on every
 * instance counts them live (the claim is taken before an instance serves).
 *
 * When a contribution grows ({@linkcode STATS_VERSION}: 2 added the hour of
 * day per attraction), a store whose backfill is done under an older
 * version runs once more over the visits only: a visit counted under an
 * older version gets what it lacks and is marked with the current one, so
 * the new counter holds every visit stored before, once. Tickets, passports
 * and accounts, counted by the cutoff, are not scanned again.
 */
import type { Ticket } from "./tickets.ts";
import type { Visit } from "./visits.ts";
import type { IdentityUser, Session } from "./sessions.ts";
import { keys } from "./keys.ts";
import { commit } from "./kv.ts";
import {
  countPassportOpened,
  countTicketCreated,
  replaceVisitStats,
  STATS_VERSION,
  upgradeVisitStats,
} from "./stats.ts";

/** What is scanned, in order. */
const PHASES = ["visits", "tickets", "sessions", "accounts"] as const;
type Phase = typeof PHASES[number];

/** The backfill's state, in `keys.statsBackfill()`. */
export interface StatsBackfillState {
  status: "running" | "done";
  /** The run that holds the claim. */
  owner: string;
  /** ISO 8601: when it was first claimed. Passports and accounts created since are counted live. */
  cutoff: string;
  phase: Phase;
  /** Where the phase's listing goes on, or null at its start. */
  cursor: string | null;
  /** Epoch ms of the owner's last batch. */
  heartbeatAt: number;
  /** What it has counted so far. */
  counted: { visits: number; tickets: number; passports: number };
  /** The {@linkcode STATS_VERSION} it counts visits under (absent: 1). */
  version?: number;
  /** The phases this run scans, in order (absent: all of {@linkcode PHASES}). */
  phases?: Phase[];
}

/** What {@linkcode runStatsBackfill} did. */
export type StatsBackfillResult =
  | { status: "done"; counted: StatsBackfillState["counted"] }
  | { status: "already_done" }
  | { status: "stopped" };

/**
 * Counts into the dashboard's aggregates everything stored before they
 * existed, once (see the module's comment). Resolves when the backfill is
 * done (by this run or, seen from a follower, by another), or when `signal`
 * aborts. `staleMs`: how long a claim may go without a batch before another
 * instance takes it over.
 */
export async function runStatsBackfill(
  kv: Deno.Kv,
  options: StatsBackfillOptions,
): Promise<StatsBackfillResult> {
  return await (await startStatsBackfill(kv, options)).done;
}

/** How {@linkcode runStatsBackfill} runs. */
export interface StatsBackfillOptions {
  /** The municipality's time zone: the counters' calendar. */
  timeZone: string;
  now: () => Date;
  signal?: AbortSignal;
  /** Entries per atomic (a visit costs a check: at most 99). */
  batchSize?: number;
  staleMs?: number;
}

/**
 * Tries the claim once (a read and, on a KV that needs it, a write), then
 * runs the rest in the background: `done`. The service awaits the start
 * before serving, so every passport it counts live is newer than the
 * claim's cutoff.
 */
export async function startStatsBackfill(
  kv: Deno.Kv,
  { timeZone, now, signal, batchSize = 50, staleMs = 30_000 }:
    StatsBackfillOptions,
): Promise<{ done: Promise<StatsBackfillResult> }> {
  const owner = crypto.randomUUID();
  let claim = await claimBackfill(kv, { owner, now, staleMs });
  const run = async (): Promise<StatsBackfillResult> => {
    while (!signal?.aborted) {
      if (claim === "done") return { status: "already_done" };
      if (claim !== "busy") {
        return await scan(kv, claim, { timeZone, now, signal, batchSize });
      }
      await sleep(Math.max(10, staleMs / 2), signal);
      if (signal?.aborted) break;
      claim = await claimBackfill(kv, { owner, now, staleMs });
    }
    return { status: "stopped" };
  };
  return { done: run() };
}

/** Claims the backfill: the claim's entry, or why not. */
async function claimBackfill(
  kv: Deno.Kv,
  { owner, now, staleMs }: { owner: string; now: () => Date; staleMs: number },
): Promise<Deno.KvEntry<StatsBackfillState> | "done" | "busy"> {
  const key = keys.statsBackfill();
  while (true) {
    const entry = await kv.get<StatsBackfillState>(key);
    const state = entry.value;
    const current = (state?.version ?? 1) >= STATS_VERSION;
    if (state?.status === "done" && current) return "done";
    const at = now();
    if (
      state?.status === "running" && at.getTime() - state.heartbeatAt < staleMs
    ) return "busy";
    const claimed: StatsBackfillState = state?.status === "done"
      ? upgradeRun(state, owner, at)
      : state
      ? { ...state, owner, heartbeatAt: at.getTime() }
      : {
        status: "running",
        owner,
        cutoff: at.toISOString(),
        phase: PHASES[0],
        cursor: null,
        heartbeatAt: at.getTime(),
        counted: { visits: 0, tickets: 0, passports: 0 },
        version: STATS_VERSION,
      };
    const result = await commit(kv.atomic().check(entry).set(key, claimed));
    if (result.ok) {
      return { key, value: claimed, versionstamp: result.versionstamp };
    }
  }
}

/** A run over the visits only, bringing a done backfill of an older version up to date. */
function upgradeRun(
  state: StatsBackfillState,
  owner: string,
  at: Date,
): StatsBackfillState {
  return {
    ...state,
    status: "running",
    owner,
    phase: "visits",
    phases: ["visits"],
    cursor: null,
    heartbeatAt: at.getTime(),
    counted: { visits: 0, tickets: 0, passports: 0 },
    version: STATS_VERSION,
  };
}

async function scan(
  kv: Deno.Kv,
  claim: Deno.KvEntry<StatsBackfillState>,
  { timeZone, now, signal, batchSize }: {
    timeZone: string;
    now: () => Date;
    signal?: AbortSignal;
    batchSize: number;
  },
): Promise<StatsBackfillResult> {
  let entry = claim;
  const cutoff = Date.parse(entry.value.cutoff);
  while (!signal?.aborted) {
    const state = entry.value;
    const iterator = kv.list<unknown>(
      { prefix: [PREFIXES[state.phase]] },
      { limit: batchSize, cursor: state.cursor ?? undefined, batchSize },
    );
    const batch: Deno.KvEntry<unknown>[] = [];
    for await (const item of iterator) batch.push(item);
    const finished = batch.length < batchSize;
    const operation = kv.atomic().check(entry);
    const counted = { ...state.counted };
    const tally = state.phase === "visits" || state.phase === "tickets"
      ? state.phase
      : "passports";
    for (const item of batch) {
      if (
        countEntry(operation, item, { phase: state.phase, cutoff, timeZone })
      ) {
        counted[tally]++;
      }
    }
    const phases = state.phases ?? PHASES;
    const phaseIndex = phases.indexOf(state.phase);
    // A run of an older version taken over: done after one more pass over the visits.
    const next: StatsBackfillState = !finished
      ? { ...state, cursor: iterator.cursor, counted }
      : phaseIndex + 1 < phases.length
      ? { ...state, phase: phases[phaseIndex + 1], cursor: null, counted }
      : (state.version ?? 1) < STATS_VERSION
      ? { ...upgradeRun(state, state.owner, now()), counted }
      : { ...state, status: "done", cursor: null, counted };
    next.heartbeatAt = now().getTime();
    const result = await commit(operation.set(entry.key, next));
    if (result.ok) {
      entry = { ...entry, value: next, versionstamp: result.versionstamp };
      if (next.status === "done") {
        if (Object.values(counted).some((n) => n > 0)) {
          console.info(
            `Dashboard: counted what earlier versions stored: ${counted.visits} visits, ${counted.tickets} tickets, ${counted.passports} passports`,
          );
        }
        return { status: "done", counted };
      }
      continue;
    }
    // A visit changed under the batch, or the claim was taken over.
    const current = await kv.get<StatsBackfillState>(entry.key);
    if (!current.value || current.value.owner !== state.owner) {
      return current.value?.status === "done"
        ? { status: "already_done" }
        : { status: "stopped" };
    }
    entry = current as Deno.KvEntry<StatsBackfillState>;
  }
  return { status: "stopped" };
}

const PREFIXES: Record<Phase, string> = {
  visits: keys.visitsOfUser("")[0],
  tickets: keys.ticket("")[0],
  sessions: keys.session("")[0],
  accounts: keys.userByIdentity("", "")[0],
};

/** Adds one stored entry's share of the counters to `operation`; whether it counted. */
function countEntry(
  operation: Deno.AtomicOperation,
  { key, value, versionstamp }: Deno.KvEntry<unknown>,
  { phase, cutoff, timeZone }: {
    phase: Phase;
    cutoff: number;
    timeZone: string;
  },
): boolean {
  if (!value || typeof value !== "object") return false;
  if (phase === "visits") {
    const visit = value as Visit & { statsVersion?: number };
    if (
      typeof visit.slug !== "string" ||
      typeof visit.visitedAt !== "string" || typeof visit.visitId !== "string"
    ) return false;
    if (visit.inStats) {
      // Counted live by an earlier version: add what it lacks.
      if ((visit.statsVersion ?? 1) >= STATS_VERSION) return false;
      const upgraded = upgradeVisitStats(operation, { visit, timeZone });
      operation.check({ key, versionstamp }).set(key, upgraded);
      return true;
    }
    const [counted] = replaceVisitStats(operation, {
      before: [],
      after: [{
        ...visit,
        rating: visit.rating ?? null,
        notes: visit.notes ?? null,
        ratedAt: visit.ratedAt ?? null,
      }],
      timeZone,
    });
    operation.check({ key, versionstamp }).set(key, counted);
    return true;
  }
  const created = (value as Partial<Ticket | Session | IdentityUser>)
    .createdAt;
  if (typeof created !== "string" || !(Date.parse(created) < cutoff)) {
    return false;
  }
  if (phase === "tickets") {
    countTicketCreated(operation, { createdAt: created, timeZone });
    return true;
  }
  if (phase === "sessions" && !(value as Session).guest) return false;
  countPassportOpened(operation, {
    kind: phase === "sessions" ? "guest" : "account",
    at: created,
    timeZone,
  });
  return true;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
