/**
 * The reads behind the open data and the panel's exports: day-keyed visit
 * counts by range (never a visit), and, for the admins' ratings export,
 * every rated visit streamed in key order.
 */
import { keys } from "./keys.ts";
import { toSigned } from "./stats.ts";
import type { Visit } from "./visits.ts";

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
 * have no row.
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

/**
 * Every rated visit, in batches as KV hands them over: for the admins'
 * ratings export, which is a download (streamed), never a page.
 */
export async function* listRatedVisits(kv: Deno.Kv): AsyncGenerator<Visit> {
  const iterator = kv.list<Visit>({ prefix: keys.visits() }, {
    batchSize: 500,
  });
  for await (const { value } of iterator) {
    if (value.rating !== null || value.notes !== null) yield value;
  }
}
