/**
 * The dashboard's counters (written by ./stats.ts in each fact's atomic)
 * read back as plain rows: each family's key parts named, its value a
 * signed number, zero and malformed entries left to the reader. Range
 * reads only, never a visit. The figures each audience sees (the
 * dashboard, an attraction's page, the workbook) are assembled from these
 * rows in lib/figures, which knows no key; the open data freezes its
 * periods from them (./open_data.ts). The notes index is read here too,
 * by the rule of hidden notes (./notes.ts).
 */
import { getNextDay } from "@/lib/calendar/mod.ts";
import { type NoteFields, readNote } from "./notes.ts";
import { keys } from "./keys.ts";
import { type CountedVisit, type StoredNote, toSigned } from "./stats.ts";

/** Days `from`..`to`, inclusive (`YYYY-MM-DD`). */
export interface DaySpan {
  from: string;
  to: string;
}

async function listRange(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  { from, to }: DaySpan,
): Promise<{ key: Deno.KvKey; n: number }[]> {
  const rows = [];
  const iterator = kv.list<Deno.KvU64>({
    start: [...prefix, from],
    end: [...prefix, getNextDay(to)],
  }, { batchSize: 1000 });
  for await (const { key, value } of iterator) {
    rows.push({ key, n: toSigned(value) });
  }
  return rows;
}

async function listAll(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<{ key: Deno.KvKey; n: number }[]> {
  const rows = [];
  for await (
    const { key, value } of kv.list<Deno.KvU64>({ prefix }, {
      batchSize: 1000,
    })
  ) rows.push({ key, n: toSigned(value) });
  return rows;
}

/** Verified visits per day and attraction. */
export async function listVisitCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; slug: string; n: number }[]> {
  return (await listRange(kv, keys.visitCountsByDay(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, slug: key[2] as string, n }));
}

/** Verified visits per day, attraction and check-in method (`code`, `gps`; counted from version 3). */
export async function listVisitMethodCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; slug: string; method: string; n: number }[]> {
  return (await listRange(kv, keys.visitCountsByMethod(), span)).map((
    { key, n },
  ) => ({
    day: key[1] as string,
    slug: key[2] as string,
    method: key[3] as string,
    n,
  }));
}

/** Verified visits, all attractions, per day and hour (0..23). */
export async function listHourCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; hour: number; n: number }[]> {
  return (await listRange(kv, keys.visitCountsByHour(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, hour: key[2] as number, n }));
}

/** One attraction's verified visits per day and hour (0..23). */
export async function listAttractionHourCounts(
  kv: Deno.Kv,
  { slug, ...span }: DaySpan & { slug: string },
): Promise<{ day: string; hour: number; n: number }[]> {
  return (await listRange(kv, keys.visitCountsByAttractionHour(slug), span))
    .map(({ key, n }) => ({
      day: key[2] as string,
      hour: key[3] as number,
      n,
    }));
}

/** Tourists whose passport reached `stamps` (a visit count) per day. */
export async function listStampCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; stamps: number; n: number }[]> {
  return (await listRange(kv, keys.stampCountsByDay(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, stamps: key[2] as number, n }));
}

/** Tourists whose passport reached `stamps`, since the start. */
export async function listStampTotals(
  kv: Deno.Kv,
): Promise<{ stamps: number; n: number }[]> {
  return (await listAll(kv, keys.stampCounts())).map(({ key, n }) => ({
    stamps: key[1] as number,
    n,
  }));
}

/** Passports opened per day: `guest` or `account`. */
export async function listPassportCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; kind: string; n: number }[]> {
  return (await listRange(kv, keys.passportCountsByDay(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, kind: key[2] as string, n }));
}

/** Tickets created per day. */
export async function listTicketCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; n: number }[]> {
  return (await listRange(kv, keys.ticketCountsByDay(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, n }));
}

/** Chat requests per day and outcome (`questions`, `answered`, `no_data`, `refused`, `failed`). */
export async function listChatCounts(
  kv: Deno.Kv,
  span: DaySpan,
): Promise<{ day: string; outcome: string; n: number }[]> {
  return (await listRange(kv, keys.chatCountsByDay(), span)).map((
    { key, n },
  ) => ({ day: key[1] as string, outcome: key[2] as string, n }));
}

/** Ratings standing now per attraction and value (1..5), of `slug` only when given. */
export async function listRatingTotals(
  kv: Deno.Kv,
  { slug }: { slug?: string } = {},
): Promise<{ slug: string; rating: number; n: number }[]> {
  if (slug === undefined) {
    return (await listAll(kv, keys.ratingCounts())).map(({ key, n }) => ({
      slug: key[1] as string,
      rating: key[2] as number,
      n,
    }));
  }
  const ratings = [1, 2, 3, 4, 5];
  const entries = await kv.getMany<Deno.KvU64[]>(
    ratings.map((rating) => keys.ratingCount(slug, rating)),
  );
  return ratings.map((rating, i) => ({
    slug,
    rating,
    n: toSigned(entries[i].value),
  }));
}

/**
 * The newest notes first, `limit` at a time, from the notes index (no
 * scan of visits). `cursor` continues a listing.
 */
export async function listLatestNotes(
  kv: Deno.Kv,
  { limit = 10, cursor }: { limit?: number; cursor?: string } = {},
): Promise<{ values: StoredNote[]; cursor: string | null }> {
  const iterator = kv.list<StoredNote>({ prefix: keys.notesByTime() }, {
    reverse: true,
    limit,
    cursor,
  });
  const values: StoredNote[] = [];
  for await (const entry of iterator) values.push(entry.value);
  return {
    values,
    cursor: values.length === limit && iterator.cursor ? iterator.cursor : null,
  };
}

/**
 * The newest notes that show (`limit` at most), of one attraction when
 * `slug` is given, among the newest `scan` entries of the notes index (all
 * of them by default), as they stand now: each entry is checked against
 * its visit and read by the rule of hidden notes (lib/db/notes.ts) for
 * `others`, so a note an admin hid never appears, whatever the index held
 * when it was written; a note whose visit cannot be found by its id cannot
 * have been hidden, and shows as indexed. The one list of notes for every
 * page but moderation: the dashboard's latest notes, an attraction's page,
 * the workbook.
 */
export async function listShownNotes(
  kv: Deno.Kv,
  { limit = 10, slug, scan }: {
    limit?: number;
    slug?: string;
    scan?: number;
  } = {},
): Promise<StoredNote[]> {
  const shown: StoredNote[] = [];
  if (limit <= 0) return shown;
  const take = async (batch: StoredNote[]) => {
    const ids = await kv.getMany<[string, string][]>(
      batch.map((note) => keys.visitById(note.visitId)),
    );
    const visits = await kv.getMany<(CountedVisit & NoteFields)[]>(
      ids.map((id) => keys.visit(...(id.value ?? ["", ""]))),
    );
    for (const [i, indexed] of batch.entries()) {
      const visit = visits[i].value;
      if (visit?.visitId !== indexed.visitId) {
        shown.push(indexed);
      } else {
        const notes = readNote(visit, "others");
        const { visitId, rating } = visit;
        if (notes) {
          shown.push({
            visitId,
            slug: visit.slug,
            rating,
            notes,
            ratedAt: visit.ratedAt ?? visit.visitedAt,
          });
        }
      }
      if (shown.length >= limit) return true;
    }
    return false;
  };
  let batch: StoredNote[] = [];
  for await (
    const entry of kv.list<StoredNote>({ prefix: keys.notesByTime() }, {
      reverse: true,
      limit: scan,
      // One attraction's notes are a few among many entries.
      batchSize: slug ? 500 : 10,
    })
  ) {
    if (slug && entry.value?.slug !== slug) continue;
    batch.push(entry.value);
    if (batch.length === 10) {
      if (await take(batch)) return shown;
      batch = [];
    }
  }
  if (batch.length > 0) await take(batch);
  return shown;
}

/**
 * Monthly ratings per attraction and value (`rating_counts_by_month`), for
 * the open data: `[month, slug, rating, count]` rows of the months
 * `fromMonth`..`toMonth` (`YYYY-MM`, inclusive), zero counts left out.
 */
export async function listMonthlyRatingCounts(
  kv: Deno.Kv,
  { fromMonth, toMonth }: { fromMonth: string; toMonth: string },
): Promise<{ month: string; slug: string; rating: number; count: number }[]> {
  const rows = [];
  const iterator = kv.list<Deno.KvU64>({
    start: [...keys.ratingCountsByMonth(), fromMonth],
    end: [...keys.ratingCountsByMonth(), `${toMonth}\uffff`],
  }, { batchSize: 1000 });
  for await (const { key, value } of iterator) {
    const [, month, slug, rating] = key as [string, string, string, number];
    const count = toSigned(value);
    if (count > 0) rows.push({ month, slug, rating, count });
  }
  return rows;
}

/** Visits of one attraction on one day (the municipality's). */
export interface DailyVisitCount {
  /** `YYYY-MM-DD`. */
  day: string;
  slug: string;
  count: number;
}

/**
 * Visit counts per day and attraction for the days `from`..`to`
 * (`YYYY-MM-DD`, inclusive), in day then slug order; days without visits
 * have no row. Live counters: for the staff, never published as they are.
 */
export async function listDailyVisitCounts(
  kv: Deno.Kv,
  { from, to }: { from: string; to: string },
): Promise<DailyVisitCount[]> {
  const rows: DailyVisitCount[] = [];
  const iterator = kv.list<Deno.KvU64>({
    start: [...keys.visitCountsByDay(), from],
    end: [...keys.visitCountsByDay(), `${to}\uffff`],
  }, { batchSize: 1000 });
  for await (const { key, value } of iterator) {
    const [, day, slug] = key as [string, string, string];
    const count = toSigned(value);
    if (count > 0) rows.push({ day, slug, count });
  }
  return rows;
}

/** The first day any visit was counted, or null before the first visit. */
export async function getFirstVisitDay(kv: Deno.Kv): Promise<string | null> {
  for await (
    const { key } of kv.list({ prefix: keys.visitCountsByDay() }, { limit: 1 })
  ) {
    return key[1] as string;
  }
  return null;
}
