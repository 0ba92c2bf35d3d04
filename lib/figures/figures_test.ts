import assert from "node:assert/strict";
import { getLocalTime } from "@/lib/calendar/mod.ts";
import { keys } from "@/lib/db/keys.ts";
import { mergePassports } from "@/lib/db/passports.ts";
import {
  createSession,
  getOrCreateUserForIdentity,
} from "@/lib/db/sessions.ts";
import { listLatestNotes, listMonthlyRatingCounts } from "@/lib/db/counters.ts";
import { recordChatNoData, recordChatOutcome } from "@/lib/db/stats.ts";
import { runStatsBackfill } from "@/lib/db/stats_backfill.ts";
import { saveTicket, type Ticket } from "@/lib/db/tickets.ts";
import { rateVisit, recordVisit, type Visit } from "@/lib/db/visits.ts";
import {
  type Dashboard,
  getAttractionFigures,
  getDashboard,
  getPeriodTotals,
} from "./mod.ts";

const TZ = "America/Mexico_City";
/** Monday 10 March 2025, 12:00 in the municipality (UTC-6). */
const NOON = new Date("2025-03-10T18:00:00Z");
const SLUGS = [
  "plaza-principal",
  "mercado",
  "museo",
  "destileria",
  "barranca",
  "capilla",
];

function at(hoursAfterNoon: number): Date {
  return new Date(NOON.getTime() + hoursAfterNoon * 3_600_000);
}

function visit(kv: Deno.Kv, userId: string, slug: string, now: Date) {
  return recordVisit(kv, { userId, slug, now, totalAttractions: 17 });
}

function read(kv: Deno.Kv, slugs = SLUGS): Promise<Dashboard> {
  return getDashboard(kv, { from: "2025-03-01", to: "2025-03-31", slugs });
}

function visitsOf(dashboard: Dashboard, slug: string): number {
  return dashboard.visitsByAttraction.find((row) => row.slug === slug)!.visits;
}

function ratingsOf(dashboard: Dashboard, slug: string) {
  return dashboard.ratings.find((row) => row.slug === slug)!;
}

Deno.test("dashboard counters", async (t) => {
  await t.step(
    "concurrent verifications of different users at one attraction count exactly",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const users = Array.from({ length: 40 }, () => crypto.randomUUID());
      await Promise.all(
        users.map((userId) => visit(kv, userId, "plaza-principal", NOON)),
      );
      const dashboard = await read(kv);
      assert.equal(visitsOf(dashboard, "plaza-principal"), 40);
      assert.equal(
        dashboard.visitsByDay.find((row) => row.day === "2025-03-10")!.visits,
        40,
      );
      // Monday (0) at 12:00.
      assert.equal(dashboard.visitsByHour[0 * 24 + 12].visits, 40);
      assert.equal(
        dashboard.visitsByHour.reduce((sum, cell) => sum + cell.visits, 0),
        40,
      );
      assert.deepEqual(dashboard.funnel.map((row) => row.inRange), [40, 0, 0]);
    },
  );

  await t.step(
    "the funnel's milestones are the data set's: its last is every attraction of it",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const userId = crypto.randomUUID();
      for (const [i, slug] of SLUGS.entries()) {
        await visit(
          kv,
          userId,
          slug,
          new Date(NOON.getTime() + i * 86_400_000),
        );
      }
      const dashboard = await read(kv);
      assert.deepEqual(
        dashboard.funnel.map(({ stamps, inRange, allTime }) => [
          stamps,
          inRange,
          allTime,
        ]),
        // Six attractions: the sixth stamp is "every attraction".
        [[1, 1, 1], [5, 1, 1], [6, 1, 1]],
      );
      const shipped = Array.from({ length: 17 }, (_, i) => `a${i}`);
      assert.deepEqual(
        (await read(kv, shipped)).funnel.map((row) => row.stamps),
        [1, 5, 10, 17],
      );
      const fifthDay = await getDashboard(kv, {
        from: "2025-03-14",
        to: "2025-03-14",
      });
      assert.deepEqual(fifthDay.funnel.map((row) => row.inRange), [0, 1, 0]);
    },
  );

  await t.step(
    "a re-rate moves the distribution, the monthly counts and the note",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const userId = crypto.randomUUID();
      await visit(kv, userId, "museo", NOON);
      await rateVisit(kv, {
        userId,
        slug: "museo",
        rating: 5,
        notes: "Precioso",
        now: at(1),
      });
      let ratings = ratingsOf(await read(kv), "museo");
      assert.deepEqual(ratings.distribution, [0, 0, 0, 0, 1]);
      assert.equal(ratings.average, 5);

      // Rated again in April: March loses the 5, April gains the 3.
      const april = new Date("2025-04-02T18:00:00Z");
      await rateVisit(kv, {
        userId,
        slug: "museo",
        rating: 3,
        notes: "Bien, pero lleno",
        now: april,
      });
      ratings = ratingsOf(await read(kv), "museo");
      assert.deepEqual(ratings.distribution, [0, 0, 1, 0, 0]);
      assert.equal(ratings.count, 1);
      assert.equal(ratings.sum, 3);
      assert.deepEqual(
        await listMonthlyRatingCounts(kv, {
          fromMonth: "2025-01",
          toMonth: "2025-12",
        }),
        [{ month: "2025-04", slug: "museo", rating: 3, count: 1 }],
      );
      const notes = await listLatestNotes(kv);
      assert.deepEqual(notes.values.map((note) => note.notes), [
        "Bien, pero lleno",
      ]);
      assert.equal(notes.values[0].ratedAt, april.toISOString());
      assert.equal(notes.values[0].rating, 3);

      // A cleared rating leaves the counts; cleared notes leave the index.
      await rateVisit(kv, {
        userId,
        slug: "museo",
        rating: null,
        notes: null,
        now: april,
      });
      ratings = ratingsOf(await read(kv), "museo");
      assert.deepEqual(ratings.distribution, [0, 0, 0, 0, 0]);
      assert.equal(ratings.average, null);
      assert.deepEqual((await listLatestNotes(kv)).values, []);
      // The visit itself is still counted once.
      assert.equal(visitsOf(await read(kv), "museo"), 1);
    },
  );

  await t.step("the latest notes come newest first", async () => {
    using kv = await Deno.openKv(":memory:");
    for (const [i, slug] of SLUGS.slice(0, 4).entries()) {
      const userId = crypto.randomUUID();
      await visit(kv, userId, slug, NOON);
      await rateVisit(kv, {
        userId,
        slug,
        rating: 4,
        notes: `nota ${i}`,
        now: at(i + 1),
      });
    }
    const first = await listLatestNotes(kv, { limit: 3 });
    assert.deepEqual(first.values.map((n) => n.notes), [
      "nota 3",
      "nota 2",
      "nota 1",
    ]);
    assert.deepEqual(Object.keys(first.values[0]).sort(), [
      "notes",
      "ratedAt",
      "rating",
      "slug",
      "visitId",
    ]);
    const rest = await listLatestNotes(kv, {
      limit: 3,
      cursor: first.cursor!,
    });
    assert.deepEqual(rest.values.map((n) => n.notes), ["nota 0"]);
    assert.equal(rest.cursor, null);
  });

  await t.step("a merge of passports keeps the counts honest", async () => {
    using kv = await Deno.openKv(":memory:");
    const guest = crypto.randomUUID();
    const account = crypto.randomUUID();
    // The account: 3 visits; the guest: 3, one of the same attraction.
    for (const [i, slug] of ["plaza-principal", "mercado", "museo"].entries()) {
      await visit(kv, account, slug, at(i));
    }
    for (const [i, slug] of ["museo", "destileria", "barranca"].entries()) {
      await visit(kv, guest, slug, at(i + 0.5));
    }
    await rateVisit(kv, {
      userId: account,
      slug: "museo",
      rating: 2,
      notes: "Cerrado a medias",
      now: at(5),
    });
    await rateVisit(kv, {
      userId: guest,
      slug: "museo",
      rating: 4,
      notes: "Me gustó",
      now: at(6),
    });
    const before = await read(kv);
    assert.equal(visitsOf(before, "museo"), 2);
    assert.deepEqual(before.funnel.map((row) => row.allTime), [2, 0, 0]);
    assert.deepEqual(ratingsOf(before, "museo").distribution, [0, 1, 0, 1, 0]);

    await mergePassports(kv, {
      from: guest,
      into: account,
      now: at(7),
      totalAttractions: 17,
    });
    const after = await read(kv);
    // One tourist, 5 distinct attractions: the duplicate visit left.
    assert.equal(
      after.visitsByAttraction.reduce((sum, row) => sum + row.visits, 0),
      5,
    );
    assert.equal(visitsOf(after, "museo"), 1);
    assert.deepEqual(after.funnel.map((row) => row.allTime), [1, 1, 0]);
    assert.deepEqual(after.funnel.map((row) => row.inRange), [1, 1, 0]);
    assert.equal(
      after.visitsByHour.reduce((sum, cell) => sum + cell.visits, 0),
      5,
    );
    // The guest's museum visit is the earlier one: kept, with its rating and note.
    assert.deepEqual(ratingsOf(after, "museo").distribution, [0, 0, 0, 1, 0]);
    assert.deepEqual(
      (await listLatestNotes(kv)).values.map((note) => note.notes),
      ["Me gustó"],
    );
  });

  await t.step(
    "a visit at 23:30 in the municipality counts on its local day and hour",
    async () => {
      using kv = await Deno.openKv(":memory:");
      // 23:30 on Monday 10 March in Tequila is 05:30 UTC on the 11th.
      const late = new Date("2025-03-11T05:30:00Z");
      assert.deepEqual(getLocalTime(late, TZ), {
        day: "2025-03-10",
        month: "2025-03",
        hour: 23,
      });
      await recordVisit(kv, {
        userId: crypto.randomUUID(),
        slug: "mercado",
        now: late,
        totalAttractions: 17,
        timeZone: TZ,
      });
      const monday = await getDashboard(kv, {
        from: "2025-03-10",
        to: "2025-03-10",
      });
      assert.deepEqual(monday.visitsByDay, [{ day: "2025-03-10", visits: 1 }]);
      assert.equal(monday.visitsByHour[0 * 24 + 23].visits, 1);
      const tuesday = await getDashboard(kv, {
        from: "2025-03-11",
        to: "2025-03-11",
      });
      assert.deepEqual(tuesday.visitsByDay, [{ day: "2025-03-11", visits: 0 }]);
    },
  );

  await t.step(
    "tickets, passports and chat outcomes count on their day",
    async () => {
      using kv = await Deno.openKv(":memory:");
      await saveTicket(kv, ticket("ruta-uno", at(0)));
      await saveTicket(kv, ticket("ruta-uno", at(0))); // Found again: not new.
      await saveTicket(kv, ticket("ruta-dos", at(30)));
      await createSession(kv, {
        userId: crypto.randomUUID(),
        name: null,
        now: at(0),
        ttlMs: 60_000,
        guest: true,
      });
      await createSession(kv, {
        userId: crypto.randomUUID(),
        name: "Ana",
        now: at(0),
        ttlMs: 60_000,
      });
      await getOrCreateUserForIdentity(kv, {
        issuer: "https://id.example",
        subject: "ana",
        now: at(0),
      });
      await getOrCreateUserForIdentity(kv, {
        issuer: "https://id.example",
        subject: "ana",
        now: at(1),
      });
      for (const outcome of ["answered", "answered", "refused", "failed"]) {
        await recordChatOutcome(kv, {
          outcome: outcome as "answered",
          at: at(0),
          timeZone: TZ,
        });
      }
      await recordChatOutcome(kv, {
        outcome: "other",
        at: at(0),
        timeZone: TZ,
      });
      const dashboard = await read(kv);
      const day = (rows: { day: string }[], d: string) =>
        rows.find((row) => row.day === d);
      assert.deepEqual(day(dashboard.ticketsByDay, "2025-03-10"), {
        day: "2025-03-10",
        tickets: 1,
      });
      assert.deepEqual(day(dashboard.ticketsByDay, "2025-03-11"), {
        day: "2025-03-11",
        tickets: 1,
      });
      assert.deepEqual(day(dashboard.passportsByDay, "2025-03-10"), {
        day: "2025-03-10",
        guest: 1,
        account: 1,
      });
      assert.deepEqual(day(dashboard.chatByDay, "2025-03-10"), {
        day: "2025-03-10",
        questions: 5,
        answered: 2,
        noData: 0,
        refused: 1,
        failed: 1,
      });
    },
  );

  await t.step(
    "a reply without the data is not counted as answered",
    async () => {
      using kv = await Deno.openKv(":memory:");
      for (let i = 0; i < 5; i++) {
        await recordChatOutcome(kv, {
          outcome: "answered",
          at: at(0),
          timeZone: TZ,
        });
      }
      // Two of the five said "No tengo ese dato" (listed as unanswered).
      await recordChatNoData(kv, { at: at(0), timeZone: TZ });
      await recordChatNoData(kv, { at: at(0), timeZone: TZ });
      const dashboard = await read(kv);
      assert.deepEqual(
        dashboard.chatByDay.find((row) => row.day === "2025-03-10"),
        {
          day: "2025-03-10",
          questions: 5,
          answered: 3,
          noData: 2,
          refused: 0,
          failed: 0,
        },
      );
      const range = { from: "2025-03-01", to: "2025-03-31" };
      const totals = await getPeriodTotals(kv, range);
      assert.equal(totals.answered, 3);
      assert.equal(totals.questions, 5);
      assert.deepEqual(
        await getPeriodTotals(kv, { ...range, dashboard }),
        totals,
      );
    },
  );

  await t.step(
    "visits are counted by how they were checked in: code and position",
    async () => {
      using kv = await Deno.openKv(":memory:");
      await visit(kv, crypto.randomUUID(), "museo", NOON);
      await recordVisit(kv, {
        userId: crypto.randomUUID(),
        slug: "museo",
        now: NOON,
        totalAttractions: 17,
        method: "gps",
      });
      await recordVisit(kv, {
        userId: crypto.randomUUID(),
        slug: "mercado",
        now: NOON,
        totalAttractions: 17,
        method: "gps",
      });
      const dashboard = await read(kv);
      assert.deepEqual(dashboard.visitsByMethod, [
        { method: "code", visits: 1 },
        { method: "gps", visits: 2 },
      ]);
      const totals = await getPeriodTotals(kv, {
        from: "2025-03-01",
        to: "2025-03-31",
      });
      assert.equal(totals.visits, 3);
      assert.deepEqual(totals.visitsByMethod, dashboard.visitsByMethod);
      const museo = await getAttractionFigures(kv, {
        slug: "museo",
        from: "2025-03-01",
        to: "2025-03-31",
      });
      assert.deepEqual(museo.visitsByMethod, [
        { method: "code", visits: 1 },
        { method: "gps", visits: 1 },
      ]);
    },
  );

  await t.step("a reversed or too long range is refused", async () => {
    using kv = await Deno.openKv(":memory:");
    await assert.rejects(
      getDashboard(kv, { from: "2025-03-10", to: "2025-03-09" }),
      RangeError,
    );
    await assert.rejects(
      getDashboard(kv, { from: "2023-01-01", to: "2025-03-09" }),
      RangeError,
    );
  });
});

function ticket(shareCode: string, createdAt: Date): Ticket {
  return {
    shareCode,
    name: "Ana",
    email: "ana@example.com",
    phone: null,
    wpId: 1,
    userId: null,
    createdAt: createdAt.toISOString(),
  };
}

/**
 * The same facts, written live into `live` and the way an earlier version
 * stored them (no counters, no `inStats`) into `old`.
 */
async function writeFacts(live: Deno.Kv, old: Deno.Kv) {
  const users = Array.from({ length: 7 }, () => crypto.randomUUID());
  let n = 0;
  for (const [u, userId] of users.entries()) {
    for (const [i, slug] of SLUGS.slice(0, u + 1).entries()) {
      const now = at(n++ * 5 + i);
      const result = await recordVisit(live, {
        userId,
        slug,
        now,
        totalAttractions: 17,
        timeZone: TZ,
      });
      assert.equal(result.status, "created");
      let stored = (result as { visit: Visit }).visit;
      if ((u + i) % 3 === 0) {
        stored = (await rateVisit(live, {
          userId,
          slug,
          rating: 1 + (u + i) % 5,
          notes: (u + i) % 2 ? `nota ${u}-${i}` : null,
          now: at(n * 5 + 2),
          timeZone: TZ,
        }))!;
      }
      const { inStats: _, ...asOld } = stored;
      await old.set(keys.visit(userId, slug), asOld);
    }
  }
  for (const [i, code] of ["uno", "dos", "tres"].entries()) {
    const t = ticket(`ruta-${code}`, at(i * 20));
    await saveTicket(live, t, { timeZone: TZ });
    await old.set(keys.ticket(t.shareCode), t);
  }
  for (let i = 0; i < 3; i++) {
    const opened = await createSession(live, {
      userId: crypto.randomUUID(),
      name: null,
      now: at(i * 10),
      ttlMs: 3_600_000 * 24 * 365,
      guest: true,
      timeZone: TZ,
    });
    const { session } = opened;
    await old.set(keys.session(session.handle), session);
  }
  await getOrCreateUserForIdentity(live, {
    issuer: "https://id.example",
    subject: "luis",
    now: at(3),
    timeZone: TZ,
  });
  await old.set(keys.userByIdentity("https://id.example", "luis"), {
    userId: crypto.randomUUID(),
    createdAt: at(3).toISOString(),
  });
}

Deno.test("stats backfill", async (t) => {
  const later = () => new Date(NOON.getTime() + 400 * 86_400_000);

  await t.step(
    "counts what an earlier version stored exactly as the live writes do, once",
    async () => {
      using live = await Deno.openKv(":memory:");
      using old = await Deno.openKv(":memory:");
      await writeFacts(live, old);
      const expected = await read(live);
      assert.ok(expected.visitsByAttraction.some((row) => row.visits > 0));

      const empty = await read(old);
      assert.equal(
        empty.visitsByAttraction.reduce((s, row) => s + row.visits, 0),
        0,
      );

      const first = await runStatsBackfill(old, { timeZone: TZ, now: later });
      assert.equal(first.status, "done");
      assert.deepEqual(
        (first as { counted: unknown }).counted,
        { visits: 27, tickets: 3, passports: 4 },
      );
      assert.deepEqual(await read(old), expected);

      const second = await runStatsBackfill(old, { timeZone: TZ, now: later });
      assert.equal(second.status, "already_done");
      assert.deepEqual(await read(old), expected);
    },
  );

  await t.step(
    "two instances starting at once on one KV count everything once",
    async () => {
      using live = await Deno.openKv(":memory:");
      using old = await Deno.openKv(":memory:");
      await writeFacts(live, old);
      const results = await Promise.all([
        runStatsBackfill(old, { timeZone: TZ, now: later, batchSize: 4 }),
        runStatsBackfill(old, {
          timeZone: TZ,
          now: later,
          batchSize: 4,
          staleMs: 50,
        }),
      ]);
      assert.deepEqual(
        results.map((r) => r.status).sort(),
        ["already_done", "done"],
      );
      assert.deepEqual(await read(old), await read(live));
    },
  );

  await t.step(
    "an interrupted backfill resumes from its cursor without counting twice",
    async () => {
      using live = await Deno.openKv(":memory:");
      using old = await Deno.openKv(":memory:");
      await writeFacts(live, old);
      const stop = new AbortController();
      let batches = 0;
      const stopped = await runStatsBackfill(old, {
        timeZone: TZ,
        batchSize: 3,
        signal: stop.signal,
        now: () => {
          // Called once per claim and per batch: stop after three batches.
          if (++batches === 4) stop.abort();
          return later();
        },
      });
      assert.equal(stopped.status, "stopped");
      const state = (await old.get<{ cursor: string | null }>(
        keys.statsBackfill(),
      )).value!;
      assert.ok(state.cursor, "a cursor was kept");
      const partial = await read(old);
      assert.ok(
        partial.visitsByAttraction.reduce((s, row) => s + row.visits, 0) > 0,
      );

      // The next start finds the claim gone quiet and takes it over.
      const resumed = await runStatsBackfill(old, {
        timeZone: TZ,
        now: () => new Date(later().getTime() + 60_000),
      });
      assert.equal(resumed.status, "done");
      assert.deepEqual(await read(old), await read(live));
    },
  );

  await t.step(
    "a visit rated before the backfill reaches it is counted once",
    async () => {
      using kv = await Deno.openKv(":memory:");
      const userId = crypto.randomUUID();
      const stored: Visit = {
        visitId: crypto.randomUUID(),
        userId,
        slug: "museo",
        visitedAt: NOON.toISOString(),
        seq: 1,
        rating: 2,
        notes: null,
        ratedAt: NOON.toISOString(),
      };
      await kv.set(keys.visit(userId, "museo"), stored);
      await rateVisit(kv, {
        userId,
        slug: "museo",
        rating: 5,
        notes: "Mejor la segunda vez",
        now: at(1),
      });
      await runStatsBackfill(kv, { timeZone: TZ, now: later });
      const dashboard = await read(kv);
      assert.equal(visitsOf(dashboard, "museo"), 1);
      assert.deepEqual(
        ratingsOf(dashboard, "museo").distribution,
        [0, 0, 0, 0, 1],
      );
      assert.deepEqual(dashboard.funnel.map((row) => row.allTime), [1, 0, 0]);
    },
  );
});
