/**
 * Moderation of tourists' notes: an admin hides a visit's notes from every
 * page but the author's own and this moderation list (the rule is
 * lib/db/notes.ts), or shows them again. The flag lives on the visit itself
 * (`Visit.notesHiddenAt`), so a public page that reads the visit knows it
 * with no extra read; the tourist's own passport still shows the notes.
 * The console lists notes newest first from the notes index
 * (`keys.notesByTime`, written with the rating by lib/db/visits.ts).
 */
import { addStaffActionTo } from "./audit.ts";
import type { OnDataChange } from "./changes.ts";
import { keys } from "./keys.ts";
import { commit, CONFLICT, listFromCursor, runTransaction } from "./kv.ts";
import { readNote } from "./notes.ts";
import type { Visit } from "./visits.ts";
import { NotFoundError } from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

/** The most notes one page of the console lists. */
export const MAX_NOTES_PAGE = 100;

/** A note as the console lists it. */
export interface ModeratedNote {
  visitId: string;
  userId: string;
  slug: string;
  rating: number | null;
  notes: string;
  /** ISO 8601. */
  ratedAt: string;
  /** When it was hidden (ISO 8601), or null while it shows. */
  hiddenAt: string | null;
}

const VISIT_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Hides (`hidden: true`) or shows a visit's notes, with its audit entry, in
 * one atomic. Returns the visit (its user and slug say which pages to
 * refresh), or null when no visit has this id: nothing written.
 */
export async function setNotesHidden(
  kv: Deno.Kv,
  { visitId, hidden, staff, now }: {
    visitId: string;
    hidden: boolean;
    staff: StaffMember;
    now: Date;
  },
): Promise<Visit | null> {
  // Visit ids are UUIDs; anything else (a 3 KB path segment) is no visit.
  if (!VISIT_ID.test(visitId)) return null;
  return await runTransaction(async () => {
    const index = await kv.get<[string, string]>(keys.visitById(visitId));
    if (!index.value) return null;
    const visitKey = keys.visit(...index.value);
    const entry = await kv.get<Visit>(visitKey);
    if (entry.value?.visitId !== visitId) return null;
    const visit: Visit = {
      ...entry.value,
      notesHiddenAt: hidden ? now.toISOString() : null,
    };
    const operation = kv.atomic().check(index, entry).set(visitKey, visit);
    addStaffActionTo(operation, {
      staff,
      action: hidden ? "note_hidden" : "note_shown",
      target: visitId,
      at: now,
    });
    return (await commit(operation)).ok ? visit : CONFLICT;
  });
}

/**
 * One page of notes, newest first, as they stand now (from their visits:
 * a note changed or hidden since it was indexed shows as it is; one whose
 * visit is gone is skipped). `cursor` (from the previous page) goes on to
 * older ones, and is empty on the last page; one KV refuses starts again
 * from the newest.
 */
export async function listNotesForModeration(
  kv: Deno.Kv,
  { limit = 50, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: ModeratedNote[]; cursor: string }> {
  const page = await listFromCursor<{ visitId?: string }>(
    kv,
    { prefix: keys.notesByTime() },
    {
      reverse: true,
      limit: Math.max(1, Math.min(MAX_NOTES_PAGE, Math.trunc(limit))),
      cursor: cursor || undefined,
    },
  );
  const ids: string[] = [];
  for (const entry of page.entries) {
    const id = entry.value?.visitId ?? entry.key.at(-1);
    if (typeof id === "string") ids.push(id);
  }
  const visits = await getVisitsByIds(kv, ids);
  const values = visits.flatMap((visit): ModeratedNote[] => {
    // The one list where an admin reads a hidden note, to show it again.
    const notes = visit && readNote(visit, "moderation");
    return notes && visit.ratedAt
      ? [{
        visitId: visit.visitId,
        userId: visit.userId,
        slug: visit.slug,
        rating: visit.rating,
        notes,
        ratedAt: visit.ratedAt,
        hiddenAt: visit.notesHiddenAt ?? null,
      }]
      : [];
  });
  let next = page.cursor;
  if (next) {
    const ahead = kv.list({ prefix: keys.notesByTime() }, {
      reverse: true,
      limit: 1,
      cursor: next,
    });
    if ((await ahead.next()).done) next = "";
  }
  return { values, cursor: next };
}

/** Visits by id, in order (null where there is none), ten keys a read. */
async function getVisitsByIds(
  kv: Deno.Kv,
  ids: string[],
): Promise<(Visit | null)[]> {
  const indexes = await getAll<[string, string]>(
    kv,
    ids.map((id) => keys.visitById(id)),
  );
  const visits = await getAll<Visit>(
    kv,
    indexes.map((index) => keys.visit(...(index ?? ["", ""]))),
  );
  return visits.map((visit, i) => visit?.visitId === ids[i] ? visit : null);
}

async function getAll<T>(
  kv: Deno.Kv,
  all: Deno.KvKey[],
): Promise<(T | null)[]> {
  const batches: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
  for (let i = 0; i < all.length; i += 10) {
    batches.push(kv.getMany<T[]>(all.slice(i, i + 10)));
  }
  return (await Promise.all(batches)).flat().map((entry) => entry.value);
}

/**
 * Hides or shows a visit's notes ({@linkcode setNotesHidden}) and tells
 * `onChange`, so this instance's cached public pages drop them at once.
 * A visit that does not exist is a 404.
 */
export async function moderateNote(
  { kv, now, onChange }: {
    kv: Deno.Kv;
    now: () => Date;
    onChange: OnDataChange;
  },
  input: { visitId: string; hidden: boolean; staff: StaffMember },
): Promise<Visit> {
  const visit = await setNotesHidden(kv, { ...input, now: now() });
  if (!visit) throw new NotFoundError({ key: "panel_notes.error.noteGone" });
  onChange({ kind: "note_visibility", userId: visit.userId, slug: visit.slug });
  return visit;
}
