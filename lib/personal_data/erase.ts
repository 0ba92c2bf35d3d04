/**
 * Erasing a tourist's personal data (the right to cancellation): the
 * passport's sessions, identity links, ticket, visits (with their
 * check-ins' receipts), ratings, notes, badges, counters, prize claims, rate-limit entries and last-use records in KV, and the
 * ticket's post in the CMS. The record is written first (lib/db/erasures.ts,
 * with the share codes' tombstones: the route page and card are 404 from
 * that commit on, on every instance), then each step runs and is marked
 * done; a step that fails (the CMS is down) leaves the erasure pending, and
 * the retry schedule or the next start runs the missing steps again. Every
 * step is idempotent. The anonymous counters (the attractions' visits and
 * ratings, the dashboard's sums) keep counting.
 */
import type { TicketCms } from "@/lib/types/cms.ts";
import type { DataChange, OnDataChange } from "@/lib/db/changes.ts";
import {
  createErasure,
  type Erasure,
  ERASURE_STEPS,
  type ErasureOrigin,
  type ErasureStep,
  type ErasureSubject,
  finishErasure,
  getErasure,
  markErasureStepDone,
  postponeErasure,
  recordErasureFailure,
} from "@/lib/db/erasures.ts";
import { deleteCheckInReceiptsOfUser } from "@/lib/db/check_ins.ts";
import { deletePassportActivity } from "@/lib/db/passport_activity.ts";
import { deleteRateLimitsOfSubject } from "@/lib/db/rate_limits.ts";
import {
  deleteIdentitiesOfUser,
  deleteSessionsOfUser,
} from "@/lib/db/sessions.ts";
import { deleteRouteCard } from "@/lib/db/card_images.ts";
import { deleteTicketRecords, getShareCodeOfUser } from "@/lib/db/tickets.ts";
import { deleteBadgesOfUser, deleteVisitsOfUser } from "@/lib/db/visits.ts";
import { deleteClaimsOfUser } from "@/lib/db/rewards.ts";
import { listVisits } from "@/lib/db/visits.ts";
import { PAGE_TTL_MS, ROUTE_PAGE_TTL_MS } from "@/lib/pages/page_cache.ts";
import { ROUTE_CARD_ANSWER_MS } from "@/lib/og/mod.ts";
import { apiMessage, NotFoundError } from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/**
 * How long another instance may still serve a route page, its card or an
 * attraction page (with the notes) from its memory after the erasure was
 * recorded: an erasure is not reported done before this has passed, so
 * "done" holds on every instance.
 */
export const ERASURE_CACHE_GRACE_MS = Math.max(
  PAGE_TTL_MS,
  ROUTE_PAGE_TTL_MS,
  ROUTE_CARD_ANSWER_MS,
) + 1_000;

/** What erasing needs from the app. */
export interface ErasureDeps {
  kv: Deno.Kv;
  cms: TicketCms;
  now: () => Date;
  onChange: OnDataChange;
}

/**
 * Records an erasure of a passport (with its ticket) or of tickets without
 * one, or joins the one already running for that passport, and drops this
 * instance's cached pages and cards of it at once. Does not run the steps:
 * {@linkcode runErasure} does (inline, by the retry schedule, at start).
 */
export async function requestErasure(
  deps: ErasureDeps,
  { userId, shareCodes = [], origin, staff }: {
    userId: string | null;
    /** Tickets to erase besides the passport's own (found here). */
    shareCodes?: string[];
    origin: ErasureOrigin;
    staff?: StaffMember;
  },
): Promise<Erasure> {
  const codes = new Set(shareCodes.map((code) => code.toLowerCase()));
  if (userId) {
    const own = await getShareCodeOfUser(deps.kv, userId);
    if (own) codes.add(own.toLowerCase());
  }
  const subject: ErasureSubject = { userId, shareCodes: [...codes] };
  // The attractions whose pages show this passport's notes.
  const slugs = userId
    ? (await listVisits(deps.kv, userId)).filter((visit) => visit.notes)
      .map((visit) => visit.slug)
    : [];
  const { erasure } = await createErasure(deps.kv, {
    subject,
    origin,
    now: deps.now(),
    staff,
  });
  deps.onChange(toChange(subject, slugs));
  return erasure;
}

/**
 * Runs the steps an erasure still lacks, in order, marking each done; then
 * sweeps the passport's keys once more (a write that raced the first pass
 * goes too), waits out the other instances' page caches and ends the
 * record. A failing step records the failure for the retry schedule and
 * returns the erasure still pending: never reported done before it is.
 */
export async function runErasure(
  deps: ErasureDeps,
  erasureId: string,
  { signal, waitForCaches = true }: {
    signal?: AbortSignal;
    /**
     * Wait out the other instances' caches here; false (a request that
     * answers at once): the erasure stays pending until then and the retry
     * schedule ends it.
     */
    waitForCaches?: boolean;
  } = {},
): Promise<Erasure | null> {
  let erasure = await getErasure(deps.kv, erasureId);
  if (!erasure || erasure.state === "done" || !erasure.subject) return erasure;
  const subject = erasure.subject;
  let current: ErasureStep | "sweep" = ERASURE_STEPS[0];
  try {
    for (const step of ERASURE_STEPS) {
      if (erasure!.stepsDone.includes(step)) continue;
      if (signal?.aborted) return erasure;
      current = step;
      await runStep(deps, subject, step);
      erasure = await markErasureStepDone(deps.kv, erasureId, step);
      if (!erasure || erasure.state === "done") return erasure;
    }
    current = "sweep";
    for (const step of ERASURE_STEPS) {
      if (step !== "cms") await runStep(deps, subject, step);
    }
  } catch (error) {
    console.error(
      `Erasure ${erasureId}: step ${current} failed, to be retried: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
    return await recordErasureFailure(deps.kv, erasureId, {
      now: deps.now(),
      error: `${current}: ${error instanceof Error ? error.name : "error"}`,
    });
  }
  const readyAt = Date.parse(erasure!.createdAt) + ERASURE_CACHE_GRACE_MS;
  const wait = readyAt - deps.now().getTime();
  if (wait > 0) {
    if (!waitForCaches || signal?.aborted) {
      return await postponeErasure(deps.kv, erasureId, readyAt);
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.min(wait, ERASURE_CACHE_GRACE_MS))
    );
  }
  const done = await finishErasure(deps.kv, erasureId, deps.now());
  deps.onChange(toChange(subject, []));
  return done;
}

async function runStep(
  { kv, cms }: ErasureDeps,
  { userId, shareCodes }: ErasureSubject,
  step: ErasureStep,
): Promise<void> {
  switch (step) {
    case "sessions":
      if (userId) await deleteSessionsOfUser(kv, userId);
      return;
    case "identities":
      if (userId) await deleteIdentitiesOfUser(kv, userId);
      return;
    case "tickets":
      for (const code of shareCodes) {
        await deleteTicketRecords(kv, code);
        // The card shows the name; none is stored again once the tombstone is there.
        await deleteRouteCard(kv, code);
      }
      return;
    case "visits":
      if (userId) {
        await deleteVisitsOfUser(kv, userId);
        // The check-ins' receipts answer a device's retries of those visits.
        await deleteCheckInReceiptsOfUser(kv, userId);
      }
      return;
    case "badges":
      if (userId) await deleteBadgesOfUser(kv, userId);
      return;
    case "prizes":
      if (userId) await deleteClaimsOfUser(kv, userId);
      return;
    case "rate_limits":
      if (userId) await deleteRateLimitsOfSubject(kv, userId);
      return;
    case "activity":
      if (userId) await deletePassportActivity(kv, userId);
      return;
    case "cms":
      for (const code of shareCodes) await cms.deleteTicket(code);
      return;
  }
}

function toChange(
  { userId, shareCodes }: ErasureSubject,
  slugs: string[],
): DataChange {
  return { kind: "erasure", userId, shareCodes, slugs };
}

/** An erasure by its id, for its status; 404 when there is none. */
export async function getErasureStatus(
  { kv }: Pick<ErasureDeps, "kv">,
  erasureId: string,
): Promise<Erasure> {
  const erasure = await getErasure(kv, erasureId);
  if (!erasure) {
    throw new NotFoundError(apiMessage("erasure.unknown"));
  }
  return erasure;
}
