/**
 * An attraction's visits by hour of the day: counted per attraction with
 * each visit (lib/db/stats.ts), shown as "Visitas por hora" on its console
 * page within the range asked for, and counted once by the backfill for
 * visits an earlier version stored (counted live without this counter, or
 * never counted).
 */
import assert from "node:assert/strict";
import { keys } from "@/lib/db/keys.ts";
import { STATS_VERSION } from "@/lib/db/stats.ts";
import { getAttractionFigures, getDashboard } from "@/lib/figures/mod.ts";
import {
  runStatsBackfill,
  type StatsBackfillState,
} from "@/lib/db/stats_backfill.ts";
import { rateVisit, recordVisit } from "@/lib/db/visits.ts";
import { createTestContext, SHIPPED, signInStaff } from "../test_utils.ts";

const TZ = "America/Mexico_City";
/** Monday 10 March 2025, 00:00 in the municipality (UTC-6). */
const MIDNIGHT = Date.parse("2025-03-10T06:00:00Z");
const HOUR = 3_600_000;
const [PLAZA, MERCADO] = SHIPPED.attractions.map((a) => a.slug);

/** Local `hour`:15 on day `day` (0 = Monday 10 March 2025). */
function at(day: number, hour: number): Date {
  return new Date(MIDNIGHT + day * 24 * HOUR + hour * HOUR + 15 * 60_000);
}

/** The visits: [slug, day, local hour]. */
const VISITS: [string, number, number][] = [
  [PLAZA, 0, 9],
  [PLAZA, 0, 9],
  [PLAZA, 0, 13],
  [PLAZA, 1, 9],
  [PLAZA, 1, 21],
  [PLAZA, 0, 0],
  [PLAZA, 0, 23],
  [MERCADO, 0, 9],
  [MERCADO, 0, 17],
  // Outside the range the page asks for (14 March).
  [PLAZA, 4, 9],
];

async function seed(kv: Deno.Kv): Promise<string[]> {
  const users: string[] = [];
  for (const [slug, day, hour] of VISITS) {
    const userId = crypto.randomUUID();
    users.push(userId);
    const result = await recordVisit(kv, {
      userId,
      slug,
      now: at(day, hour),
      totalAttractions: 17,
      timeZone: TZ,
    });
    assert.equal(result.status, "created");
  }
  return users;
}

/** 24 zeros with `cells` set. */
function hours(cells: Record<number, number>): number[] {
  return Array.from({ length: 24 }, (_, h) => cells[h] ?? 0);
}

/** The rows of the data table whose caption is `caption`, as text cells. */
function readTable(html: string, caption: string): string[][] {
  const start = html.indexOf(`<caption>${caption}</caption>`);
  assert.ok(start > 0, `table "${caption}"`);
  const body = html.slice(start, html.indexOf("</table>", start));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1).map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/gs)].map((cell) =>
      cell[1].replace(/<[^>]+>/g, "").trim()
    )
  );
}

Deno.test("an attraction's visits by hour on its console page", async () => {
  await using ctx = await createTestContext({
    clockStart: new Date(MIDNIGHT + 6 * 24 * HOUR),
  });
  await seed(ctx.deps.kv);
  const cookie = await signInStaff(ctx, { role: "viewer" });
  const res = await ctx.app.request(
    `/panel/atractivos/${PLAZA}?desde=2025-03-10&hasta=2025-03-12`,
    { headers: { cookie } },
  );
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<h2 id="grafica-horas">Visitas por hora<\/h2>/);
  assert.match(html, /aria-label="Visitas por hora: /);
  const rows = readTable(html, "Visitas por hora");
  assert.equal(rows.length, 24);
  assert.deepEqual(rows[0], ["00:00 a 00:59", "1"]);
  assert.deepEqual(rows[9], ["09:00 a 09:59", "3"]);
  assert.deepEqual(rows[13], ["13:00 a 13:59", "1"]);
  assert.deepEqual(rows[17], ["17:00 a 17:59", "0"], "the market's, not here");
  assert.deepEqual(rows[21], ["21:00 a 21:59", "1"]);
  assert.deepEqual(rows[23], ["23:00 a 23:59", "1"]);
  assert.equal(
    rows.reduce((sum, row) => sum + Number(row[1]), 0),
    7,
    "the range's 7 visits, not the one on 14 March",
  );
  // The other attraction's page has its own hours.
  const other = await ctx.app.request(
    `/panel/atractivos/${MERCADO}?desde=2025-03-10&hasta=2025-03-12`,
    { headers: { cookie } },
  );
  const otherRows = readTable(await other.text(), "Visitas por hora");
  assert.deepEqual(
    otherRows.map((row) => Number(row[1])),
    hours({ 9: 1, 17: 1 }),
  );
});

Deno.test("the backfill counts an attraction's hours of visits stored before, once", async () => {
  using kv = await Deno.openKv(":memory:");
  const users = await seed(kv);
  const range = { from: "2025-03-10", to: "2025-03-16" };
  const expected = await getAttractionFigures(kv, { slug: PLAZA, ...range });
  assert.deepEqual(
    expected.visitsByHour,
    hours({ 0: 1, 9: 4, 13: 1, 21: 1, 23: 1 }),
  );
  const dashboard = await getDashboard(kv, range);

  // As an earlier version left it: visits counted without this counter
  // (no `statsVersion`), no hour counter per attraction, the backfill done.
  const visits: Deno.KvEntry<Record<string, unknown>>[] = [];
  for await (
    const entry of kv.list<Record<string, unknown>>({ prefix: ["visits"] })
  ) visits.push(entry);
  assert.equal(visits.length, VISITS.length);
  for (const { key, value } of visits) {
    assert.equal(
      value.statsVersion,
      STATS_VERSION,
      "a live visit says its version",
    );
    const { statsVersion: _, ...old } = value;
    await kv.set(key, old);
  }
  for (
    const prefix of [
      ["visit_counts_by_attraction_hour"],
      ["visit_counts_by_method"],
    ]
  ) {
    for await (const entry of kv.list({ prefix })) await kv.delete(entry.key);
  }
  const done = await kv.get<StatsBackfillState>(keys.statsBackfill());
  const { version: _, ...oldState } = done.value ?? {
    status: "done",
    owner: "earlier",
    cutoff: new Date(MIDNIGHT).toISOString(),
    phase: "accounts",
    cursor: null,
    heartbeatAt: MIDNIGHT,
    counted: { visits: 0, tickets: 0, passports: 0 },
  } satisfies StatsBackfillState;
  await kv.set(keys.statsBackfill(), { ...oldState, status: "done" });
  assert.deepEqual(
    (await getAttractionFigures(kv, { slug: PLAZA, ...range })).visitsByHour,
    hours({}),
  );

  // A visit rated live before the backfill runs: its old share is taken
  // back (without the counter it never had), its new one added.
  await rateVisit(kv, {
    userId: users[0],
    slug: PLAZA,
    rating: 5,
    notes: null,
    now: at(0, 10),
    timeZone: TZ,
  });
  assert.deepEqual(
    (await getAttractionFigures(kv, { slug: PLAZA, ...range })).visitsByHour,
    hours({ 9: 1 }),
  );

  const later = () => new Date(MIDNIGHT + 30 * 24 * HOUR);
  const first = await runStatsBackfill(kv, { timeZone: TZ, now: later });
  assert.equal(first.status, "done");
  assert.deepEqual(
    (first as { counted: unknown }).counted,
    { visits: VISITS.length - 1, tickets: 0, passports: 0 },
    "every visit but the one rated since, and nothing else again",
  );
  assert.deepEqual(
    (await getAttractionFigures(kv, { slug: PLAZA, ...range })).visitsByHour,
    expected.visitsByHour,
  );
  assert.deepEqual(
    (await getAttractionFigures(kv, { slug: MERCADO, ...range })).visitsByHour,
    hours({ 9: 1, 17: 1 }),
  );
  // The other counters did not move: nothing counted twice.
  const after = await getDashboard(kv, range);
  assert.deepEqual(after.visitsByHour, dashboard.visitsByHour);
  assert.deepEqual(after.visitsByDay, dashboard.visitsByDay);
  assert.deepEqual(after.funnel, dashboard.funnel);
  assert.deepEqual(after.visitsByMethod, dashboard.visitsByMethod);

  const second = await runStatsBackfill(kv, { timeZone: TZ, now: later });
  assert.equal(second.status, "already_done");
  assert.deepEqual(
    (await getAttractionFigures(kv, { slug: PLAZA, ...range })).visitsByHour,
    expected.visitsByHour,
  );
});
