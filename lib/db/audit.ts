/**
 * The audit log of the staff console: every staff action (sign-in and
 * sign-out, a code replaced, a note hidden or shown, an export downloaded)
 * with who, what, on what and when. Kept {@linkcode AUDIT_RETENTION_MS}
 * (one year) by KV's `expireIn`, then dropped by KV itself.
 */
import type { StaffAction, StaffMember, StaffRole } from "@/lib/types/staff.ts";
import { keys, LIFETIMES } from "./keys.ts";
import { commit, listFromCursor } from "./kv.ts";

export type { StaffAction } from "@/lib/types/staff.ts";

/** How long an audit entry is kept: one year. */
export const AUDIT_RETENTION_MS = LIFETIMES.staffActionMs;
/** The most entries one page of the log lists. */
export const MAX_AUDIT_PAGE = 200;

/** One recorded staff action. */
export interface StaffActionEntry {
  /** Unique; with `at`, the entry's key. */
  id: string;
  /** ISO 8601. */
  at: string;
  /** Who did it, as they were signed in then (a later change of role does not rewrite history). */
  staff: StaffMember;
  action: StaffAction;
  /** What it was done to, e.g. an attraction's slug or a visit id; absent for sign-in and sign-out. Never a secret (a token, a session id). */
  target?: string;
  /** A sign-in's way in: a link from `deno task staff-link` or the identity provider. */
  method?: "link" | "provider";
  /** The role a member was given (`staff_invited`, `staff_role_changed`). */
  role?: StaffRole;
}

/** What {@linkcode recordStaffAction} is told. */
export interface StaffActionInput {
  staff: StaffMember;
  action: StaffAction;
  target?: string;
  method?: "link" | "provider";
  role?: StaffRole;
  at: Date;
}

/**
 * Adds the audit entry's write to `operation`, so that an action and its
 * record commit together (or neither does): the staff link's sign-in
 * consumes the link, opens the session and records it in one atomic.
 */
export function addStaffActionTo(
  operation: Deno.AtomicOperation,
  input: StaffActionInput,
): Deno.AtomicOperation {
  const entry: StaffActionEntry = {
    id: crypto.randomUUID(),
    at: input.at.toISOString(),
    staff: {
      id: input.staff.id,
      email: input.staff.email,
      role: input.staff.role,
    },
    action: input.action,
    ...(input.target !== undefined ? { target: input.target } : {}),
    ...(input.method !== undefined ? { method: input.method } : {}),
    ...(input.role !== undefined ? { role: input.role } : {}),
  };
  return operation.set(
    keys.staffAction(input.at.getTime(), entry.id),
    entry,
    { expireIn: AUDIT_RETENTION_MS },
  );
}

/**
 * Records one staff action. Its key is new (a random id), so the write
 * never conflicts; a KV file busy in another process is retried a few times.
 */
export async function recordStaffAction(
  kv: Deno.Kv,
  input: StaffActionInput,
): Promise<void> {
  for (let attempt = 0;; attempt++) {
    const result = await commit(addStaffActionTo(kv.atomic(), input));
    if (result.ok) return;
    if (attempt >= 20) throw new Error("Could not record the staff action");
    await new Promise((resolve) => setTimeout(resolve, 5 + attempt * 5));
  }
}

/**
 * One page of the audit log, newest first; `cursor` (from the previous
 * page) goes on to older entries, and is empty on the last page. A cursor
 * KV does not recognise (edited by hand) starts again from the newest.
 */
export async function listStaffActions(
  kv: Deno.Kv,
  { limit = 50, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: StaffActionEntry[]; cursor: string }> {
  const page = await listFromCursor<StaffActionEntry>(
    kv,
    { prefix: keys.staffActions() },
    {
      reverse: true,
      limit: Math.max(1, Math.min(MAX_AUDIT_PAGE, Math.trunc(limit) || 1)),
      cursor: cursor || undefined,
    },
  );
  const values = page.entries.map((entry) => entry.value);
  // KV hands out a cursor after a full page even when nothing follows:
  // look one entry ahead so the last page has none.
  let next = page.cursor;
  if (next) {
    const ahead = kv.list({ prefix: keys.staffActions() }, {
      reverse: true,
      limit: 1,
      cursor: next,
    });
    if ((await ahead.next()).done) next = "";
  }
  return { values, cursor: next };
}

/** Which entries a filtered reading of the log keeps. */
export interface StaffActionFilter {
  /** Epoch milliseconds, included; absent: from the oldest. */
  fromMs?: number;
  /** Epoch milliseconds, excluded; absent: up to the newest. */
  untilMs?: number;
  /** Keep an entry when this says so (who, what): applied after the time range, which KV reads by key. */
  matches?: (entry: StaffActionEntry) => boolean;
}

/**
 * One page of the entries `filter` keeps, newest first: KV reads only the
 * keys of the time range (epoch milliseconds lead the key), the rest is
 * checked entry by entry. `cursor` (from the previous page) goes on to
 * older entries; it is empty on the last page. A cursor KV does not
 * recognise starts again from the newest.
 */
export async function listStaffActionsMatching(
  kv: Deno.Kv,
  filter: StaffActionFilter,
  { limit = 50, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: StaffActionEntry[]; cursor: string }> {
  const wanted = Math.max(1, Math.min(MAX_AUDIT_PAGE, Math.trunc(limit) || 1));
  const selector = getActionSelector(filter);
  const read = async (from: string | undefined) => {
    const iterator = kv.list<StaffActionEntry>(selector, {
      reverse: true,
      cursor: from,
      batchSize: 100,
    });
    const values: StaffActionEntry[] = [];
    let next = "";
    let more = false;
    for await (const entry of iterator) {
      if (filter.matches && !filter.matches(entry.value)) continue;
      if (values.length === wanted) {
        // One more match exists: the page ends before it.
        more = true;
        break;
      }
      values.push(entry.value);
      next = iterator.cursor;
    }
    return { values, cursor: more ? next : "" };
  };
  if (!cursor) return await read(undefined);
  try {
    return await read(cursor);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return await read(undefined);
  }
}

/** Every entry `filter` keeps, newest first (for an export); streamed from KV. */
export async function* iterateStaffActionsMatching(
  kv: Deno.Kv,
  filter: StaffActionFilter,
): AsyncGenerator<StaffActionEntry> {
  const iterator = kv.list<StaffActionEntry>(getActionSelector(filter), {
    reverse: true,
    batchSize: 500,
  });
  for await (const entry of iterator) {
    if (!filter.matches || filter.matches(entry.value)) yield entry.value;
  }
}

function getActionSelector(
  { fromMs, untilMs }: StaffActionFilter,
): Deno.KvListSelector {
  const prefix = keys.staffActions();
  if (fromMs === undefined && untilMs === undefined) return { prefix };
  return {
    start: fromMs === undefined ? [...prefix] : [...prefix, fromMs],
    end: untilMs === undefined ? [...prefix, Infinity] : [...prefix, untilMs],
  };
}
