/**
 * Erasures of a tourist's personal data, as KV keeps them: a record
 * written first (who, which share codes, the steps done so far), then each
 * step done and marked, idempotently, so an erasure interrupted by a crash
 * or a CMS outage is finished later by the same steps
 * (lib/personal_data/erase.ts runs them). The record and the tombstones of
 * the share codes and of the user id are written in one atomic: from that
 * commit on, the codes' route pages and cards are 404 on every instance
 * (`getTicket` reads the tombstone), and every token of the user id is a
 * 401 (lib/db/erased_users.ts). When the last step is done, the record
 * keeps only its id, state and dates.
 */
import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { addStaffActionTo } from "./audit.ts";
import { keys, LIFETIMES } from "./keys.ts";
import { commit, CONFLICT, runTransaction } from "./kv.ts";
import { markRoutesChanged } from "./route_changes.ts";
import { getErasedShareCodeKey } from "./tickets.ts";
import { addErasedUserTo } from "./erased_users.ts";

/** How long a finished erasure's record (its id, state and dates only: no one named) is kept. */
export const ERASURE_RECORD_KEPT_MS = LIFETIMES.erasureRecordKeptMs;
/** The first retry of a failed erasure comes after this long; each next one waits twice as long... */
export const ERASURE_RETRY_MS = 30_000;
/** ...up to this. */
export const ERASURE_MAX_RETRY_MS = 60 * 60_000;

/** The steps of an erasure, in the order they run. */
export const ERASURE_STEPS = [
  /** Every session of the passport: no device can write to it any more. */
  "sessions",
  /** The identity links: a later sign-in opens a new passport. */
  "identities",
  /** The tickets in KV, with their links and e-mail index. */
  "tickets",
  /** Visits, ratings and notes, their id index and the notes index. */
  "visits",
  /** Badges and the user's counters. */
  "badges",
  /** Prize claims and their counter references (an unredeemed claim's unit goes back to the stock). */
  "prizes",
  /** Rate-limit entries keyed by the user id. */
  "rate_limits",
  /** The last-use records. */
  "activity",
  /** The tickets' posts in the CMS (WordPress: through its REST API). */
  "cms",
] as const;

/** One step of an erasure. */
export type ErasureStep = typeof ERASURE_STEPS[number];

/** Who asked for an erasure. */
export type ErasureOrigin = "tourist" | "staff" | "retention";

/** Whose data an erasure removes: a passport (with its ticket), or tickets without one. */
export interface ErasureSubject {
  /** The passport's user id, or null for tickets without a passport. */
  userId: string | null;
  /** The share codes (lower case) of the tickets to erase. */
  shareCodes: string[];
}

/** An erasure as stored. */
export interface Erasure {
  /** A random UUID: the only name of the erasure a tourist or staff member sees. */
  id: string;
  /** `pending` until every step is done; never `done` before. */
  state: "pending" | "done";
  origin: ErasureOrigin;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, once done. */
  doneAt: string | null;
  /** Present while pending; dropped with the last step. */
  subject?: ErasureSubject;
  /** The steps done so far. */
  stepsDone: ErasureStep[];
  /** Failed runs so far. */
  attempts: number;
  /** Epoch milliseconds: the retry schedule runs it again from then. */
  nextAttemptAt: number;
  /** The step that failed last and why (never personal data), or null. */
  lastError: string | null;
}

/**
 * Records an erasure, or joins the one already running for the same
 * passport (a second request is harmless). In the same atomic: the
 * tombstones of the share codes and of the user id, the user's "erasure running" link, the
 * pending index and, for staff, the audit entry.
 */
export async function createErasure(
  kv: Deno.Kv,
  { subject, origin, now, staff }: {
    subject: ErasureSubject;
    origin: ErasureOrigin;
    now: Date;
    /** The staff member who asked (audited as "erasure", target the erasure's id). */
    staff?: StaffMember;
  },
): Promise<{ erasure: Erasure; created: boolean }> {
  return await runTransaction(async () => {
    const running = subject.userId
      ? await kv.get<string>(keys.erasureByUser(subject.userId))
      : null;
    if (running?.value) {
      const existing = await getErasure(kv, running.value);
      if (existing) {
        // A ticket found since (a staff request naming another code) joins it.
        const extra = subject.shareCodes.filter((code) =>
          !existing.subject?.shareCodes.includes(code)
        );
        if (extra.length === 0 || existing.state === "done") {
          return { erasure: existing, created: false };
        }
        return await addShareCodes(kv, existing, extra, now);
      }
    }
    const erasure: Erasure = {
      id: crypto.randomUUID(),
      state: "pending",
      origin,
      createdAt: now.toISOString(),
      doneAt: null,
      subject: {
        userId: subject.userId,
        shareCodes: [...new Set(subject.shareCodes.map(toLower))],
      },
      stepsDone: [],
      attempts: 0,
      nextAttemptAt: now.getTime(),
      lastError: null,
    };
    const operation = kv.atomic()
      .set(keys.erasure(erasure.id), erasure)
      .set(keys.pendingErasure(erasure.id), erasure.createdAt);
    if (running && subject.userId) {
      operation.check(running).set(
        keys.erasureByUser(subject.userId),
        erasure.id,
      );
    }
    await addTombstones(operation, erasure.subject!.shareCodes, now);
    // From this commit on, every token of the user id is refused, for good.
    if (subject.userId) await addErasedUserTo(operation, subject.userId);
    if (staff) {
      addStaffActionTo(operation, {
        staff,
        action: "erasure",
        // The id opens the erasure's status page: the log names it by hash.
        target: `erasure:${(await sha256Base64Url(erasure.id)).slice(0, 12)}`,
        at: now,
      });
    }
    return (await commit(operation)).ok ? { erasure, created: true } : CONFLICT;
  });
}

async function addShareCodes(
  kv: Deno.Kv,
  erasure: Erasure,
  codes: string[],
  now: Date,
): Promise<{ erasure: Erasure; created: boolean } | typeof CONFLICT> {
  const entry = await kv.get<Erasure>(keys.erasure(erasure.id));
  if (!entry.value?.subject) return CONFLICT;
  const updated: Erasure = {
    ...entry.value,
    subject: {
      ...entry.value.subject,
      shareCodes: [...entry.value.subject.shareCodes, ...codes.map(toLower)],
    },
    // The ticket steps run again for the new codes.
    stepsDone: entry.value.stepsDone.filter((step) =>
      step !== "tickets" && step !== "cms"
    ),
  };
  const operation = kv.atomic().check(entry).set(entry.key, updated);
  await addTombstones(operation, codes, now);
  return (await commit(operation)).ok
    ? { erasure: updated, created: false }
    : CONFLICT;
}

async function addTombstones(
  operation: Deno.AtomicOperation,
  codes: readonly string[],
  now: Date,
): Promise<void> {
  // Every instance's memory of these routes' pages and cards drops them.
  if (codes.length > 0) markRoutesChanged(operation);
  for (const code of codes) {
    operation.set(await getErasedShareCodeKey(code), {
      erasedAt: now.toISOString(),
    });
  }
}

function toLower(code: string): string {
  return code.toLowerCase();
}

/** An erasure by its id, or null (unknown, or its record's time is over). */
export async function getErasure(
  kv: Deno.Kv,
  erasureId: string,
): Promise<Erasure | null> {
  return (await kv.get<Erasure>(keys.erasure(erasureId))).value;
}

/** Marks a step of a pending erasure done; returns the record as stored. */
export async function markErasureStepDone(
  kv: Deno.Kv,
  erasureId: string,
  step: ErasureStep,
): Promise<Erasure | null> {
  return await updateErasure(kv, erasureId, (erasure) => ({
    ...erasure,
    stepsDone: erasure.stepsDone.includes(step)
      ? erasure.stepsDone
      : [...erasure.stepsDone, step],
  }));
}

/**
 * Records a failed run: the retry schedule takes it up again after
 * {@linkcode ERASURE_RETRY_MS}, doubling up to {@linkcode ERASURE_MAX_RETRY_MS}.
 */
export async function recordErasureFailure(
  kv: Deno.Kv,
  erasureId: string,
  { now, error }: { now: Date; error: string },
): Promise<Erasure | null> {
  return await updateErasure(kv, erasureId, (erasure) => {
    const wait = Math.min(
      ERASURE_MAX_RETRY_MS,
      ERASURE_RETRY_MS * 2 ** Math.min(erasure.attempts, 10),
    );
    return {
      ...erasure,
      attempts: erasure.attempts + 1,
      nextAttemptAt: now.getTime() + wait,
      lastError: error,
    };
  });
}

/** Sets when the retry schedule takes a pending erasure up again (its steps done, other instances' caches not yet expired). */
export async function postponeErasure(
  kv: Deno.Kv,
  erasureId: string,
  at: number,
): Promise<Erasure | null> {
  return await updateErasure(kv, erasureId, (erasure) => ({
    ...erasure,
    nextAttemptAt: at,
  }));
}

async function updateErasure(
  kv: Deno.Kv,
  erasureId: string,
  change: (erasure: Erasure) => Erasure,
): Promise<Erasure | null> {
  return await runTransaction(async () => {
    const entry = await kv.get<Erasure>(keys.erasure(erasureId));
    if (!entry.value || entry.value.state !== "pending") return entry.value;
    const updated = change(entry.value);
    const result = await commit(
      kv.atomic().check(entry).set(entry.key, updated),
    );
    return result.ok ? updated : CONFLICT;
  });
}

/**
 * Ends an erasure: the record keeps its id, state and dates only (for
 * {@linkcode ERASURE_RECORD_KEPT_MS}), and the pending index and the user's
 * link go, in one atomic. Finishing one already done changes nothing.
 */
export async function finishErasure(
  kv: Deno.Kv,
  erasureId: string,
  now: Date,
): Promise<Erasure | null> {
  return await runTransaction(async () => {
    const entry = await kv.get<Erasure>(keys.erasure(erasureId));
    if (!entry.value || entry.value.state === "done") return entry.value;
    const { subject: _subject, ...rest } = entry.value;
    const done: Erasure = {
      ...rest,
      state: "done",
      doneAt: now.toISOString(),
      stepsDone: [...ERASURE_STEPS],
      lastError: null,
    };
    const operation = kv.atomic().check(entry)
      .set(entry.key, done, { expireIn: ERASURE_RECORD_KEPT_MS })
      .delete(keys.pendingErasure(erasureId));
    const userId = entry.value.subject?.userId;
    if (userId) {
      const link = await kv.get<string>(keys.erasureByUser(userId));
      if (link.value === erasureId) {
        operation.check(link).delete(keys.erasureByUser(userId));
      }
    }
    return (await commit(operation)).ok ? done : CONFLICT;
  });
}

/**
 * The unfinished erasures whose next attempt is due at `now` (all of them
 * with `dueOnly: false`, as at start), oldest first.
 */
export async function listPendingErasures(
  kv: Deno.Kv,
  { now, dueOnly = true, limit = 100 }: {
    now: Date;
    dueOnly?: boolean;
    limit?: number;
  },
): Promise<Erasure[]> {
  const due: Erasure[] = [];
  for await (const entry of kv.list({ prefix: keys.pendingErasures() })) {
    const erasure = await getErasure(kv, entry.key[1] as string);
    if (!erasure || erasure.state === "done") {
      await kv.delete(entry.key); // A leftover of a finished one.
      continue;
    }
    if (dueOnly && erasure.nextAttemptAt > now.getTime()) continue;
    due.push(erasure);
    if (due.length >= limit) break;
  }
  return due.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The erasure running for a user, if any. */
export async function getRunningErasureOfUser(
  kv: Deno.Kv,
  userId: string,
): Promise<Erasure | null> {
  const link = await kv.get<string>(keys.erasureByUser(userId));
  return link.value ? await getErasure(kv, link.value) : null;
}
