/**
 * The staff dashboard's server time with 1,000,000 visits in KV
 * (`deno bench -A bench/dashboard_bench.ts`; figures in docs/PERFORMANCE.md).
 *
 * A real KV file is seeded once (reused while its version matches; set
 * `DASHBOARD_BENCH_KV` to choose where, `DASHBOARD_BENCH_VISITS` for another
 * size): visits of 17 attractions over a year, day trips of 1 to 17 stamps
 * at realistic hours, 30% rated, one in ten with notes, and the tickets,
 * passports and chat questions of each day. The visits, their id index and
 * every counter are written as the service writes them (the counters by the
 * same `StatsDelta.addVisit` that `recordVisit` uses), in batches, without
 * going through `recordVisit`'s per-visit transaction: what matters is what
 * is in KV when the dashboard reads it. Seeding stops with an error past
 * `DASHBOARD_BENCH_SEED_MINUTES` (default 15).
 *
 * Measured, in one run: the read of the counters alone (`getDashboard`, the
 * baseline), the same read plus the charts, and `GET /panel` in process
 * (`app.request`, a staff session, the guard, the read, the charts, the
 * page) for the last 30 days, and one attraction's console page for them.
 */
import { renderDashboardCharts } from "@/lib/staff/mod.ts";
import { keys } from "@/lib/db/keys.ts";
import { createStaffSession } from "@/lib/db/staff_sessions.ts";
import { addDays, getLocalTime } from "@/lib/calendar/mod.ts";
import {
  type CountedVisit,
  STATS_VERSION,
  StatsDelta,
} from "@/lib/db/stats.ts";
import { getDashboard } from "@/lib/figures/mod.ts";
import type { StatsBackfillState } from "@/lib/db/stats_backfill.ts";
import { createTestContext } from "@/tests/test_utils.ts";

const TZ = "America/Mexico_City";
const VISITS = Number(Deno.env.get("DASHBOARD_BENCH_VISITS") ?? 1_000_000);
/** The last day seeded, and "today" for the dashboard: noon in the municipality. */
const TODAY = "2025-06-30";
const NOW = new Date(`${TODAY}T18:00:00Z`);
const DAYS = 365;
// v2: visits counted under the counters' version 2 (an hour counter per attraction).
const SEED_VERSION = `v2-${VISITS}`;
const KV_PATH = Deno.env.get("DASHBOARD_BENCH_KV") ??
  `${Deno.env.get("TMPDIR") ?? "/tmp"}/turismo-dashboard-bench-${VISITS}.kv`;
const SEED_LIMIT_MS =
  Number(Deno.env.get("DASHBOARD_BENCH_SEED_MINUTES") ?? 15) * 60_000;
const SEEDED_KEY = ["bench_seeded"];

const data = JSON.parse(
  await Deno.readTextFile(new URL("../data/turismo.json", import.meta.url)),
) as { attractions: { slug: string }[] };
const SLUGS = data.attractions.map((a) => a.slug);

/** A deterministic generator, so every seeded file holds the same visits. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Stamps of one day trip: mostly a few, some collectors. */
function sampleStamps(random: () => number): number {
  const r = random();
  if (r < 0.002) return 17;
  if (r < 0.02) return 10 + Math.floor(random() * 7);
  if (r < 0.12) return 5 + Math.floor(random() * 5);
  return 1 + Math.floor(random() * 4);
}

/** An hour of a visit, 9:00 to 19:59, busiest around 13:00. */
function sampleHour(random: () => number): number {
  const h = 9 + Math.round(((random() + random() + random()) / 3) * 10);
  return Math.min(19, Math.max(9, h));
}

async function seed(path: string): Promise<void> {
  using kv = await Deno.openKv(path);
  const seeded = await kv.get<string>(SEEDED_KEY);
  if (seeded.value === SEED_VERSION) return;
  if (seeded.value !== null) {
    throw new Error(`${path} holds another seed; remove it`);
  }
  const started = performance.now();
  const random = createRandom(22);
  const firstDay = addDays(TODAY, 1 - DAYS);
  let written = 0;
  let batch: { visit: CountedVisit & { userId: string } }[] = [];
  let delta = new StatsDelta();
  let notes: CountedVisit[] = [];

  const flush = async () => {
    if (batch.length === 0) return;
    const operation = kv.atomic();
    for (const { visit } of batch) {
      operation.set(keys.visit(visit.userId, visit.slug), visit);
      operation.set(keys.visitById(visit.visitId), [visit.userId, visit.slug]);
    }
    for (const visit of notes) {
      operation.set(
        keys.noteByTime(Date.parse(visit.ratedAt!), visit.visitId),
        {
          visitId: visit.visitId,
          slug: visit.slug,
          rating: visit.rating,
          notes: visit.notes!,
          ratedAt: visit.ratedAt!,
        },
      );
    }
    delta.applyTo(operation);
    const result = await operation.commit();
    if (!result.ok) throw new Error("seed batch refused");
    batch = [];
    notes = [];
    delta = new StatsDelta();
    if (performance.now() - started > SEED_LIMIT_MS) {
      throw new Error(`Seeding took over ${SEED_LIMIT_MS / 60_000} minutes`);
    }
  };

  for (let d = 0; d < DAYS && written < VISITS; d++) {
    const day = addDays(firstDay, d);
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    // Weekends and the summer are busier; the total comes to VISITS.
    const season = 1 + 0.3 * Math.sin((d / DAYS) * 2 * Math.PI);
    // Weekend days draw 1.6 times, weekdays 0.85 (averaging 1 over a week).
    const weekend = (weekday === 0 || weekday === 6 ? 1.6 : 0.85) /
      ((5 * 0.85 + 2 * 1.6) / 7);
    const dayTarget = d === DAYS - 1
      ? VISITS - written
      : Math.round((VISITS / DAYS) * season * weekend);
    let dayVisits = 0;
    while (dayVisits < dayTarget && written < VISITS) {
      const userId = crypto.randomUUID();
      const stamps = Math.min(
        sampleStamps(random),
        dayTarget - dayVisits,
        VISITS - written,
      );
      const offset = Math.floor(random() * 17);
      const hours = Array.from({ length: stamps }, () => sampleHour(random))
        .sort((a, b) => a - b);
      for (let seq = 1; seq <= stamps; seq++) {
        const hour = hours[seq - 1];
        const minute = Math.floor(random() * 60);
        // The municipality is UTC-6 all year.
        const visitedAt = new Date(
          Date.parse(`${day}T00:00:00Z`) + ((hour + 6) * 60 + minute) * 60_000 +
            seq * 1000,
        );
        const rated = random() < 0.3;
        const visit: CountedVisit & { userId: string } = {
          visitId: crypto.randomUUID(),
          userId,
          slug: SLUGS[(offset + seq * 7) % SLUGS.length],
          visitedAt: visitedAt.toISOString(),
          seq,
          rating: rated ? 1 + Math.floor(random() * 5) : null,
          notes: rated && random() < 0.33
            ? "Muy recomendable, volveremos."
            : null,
          ratedAt: rated
            ? new Date(visitedAt.getTime() + 30 * 60_000).toISOString()
            : null,
          inStats: true,
          statsVersion: STATS_VERSION,
        };
        delta.addVisit(visit, 1, TZ);
        if (visit.notes) notes.push(visit);
        batch.push({ visit });
        written++;
        dayVisits++;
        if (batch.length === 200) await flush();
      }
    }
    await flush();
    // The day's tickets, passports and chat questions.
    const dayDelta = new StatsDelta()
      .add(keys.ticketCountByDay(day), Math.round(dayTarget / 40))
      .add(keys.passportCountByDay(day, "guest"), Math.round(dayTarget / 4))
      .add(keys.passportCountByDay(day, "account"), Math.round(dayTarget / 60))
      .add(keys.chatCountByDay(day, "questions"), Math.round(dayTarget / 10))
      .add(keys.chatCountByDay(day, "answered"), Math.round(dayTarget / 11))
      .add(keys.chatCountByDay(day, "refused"), 3)
      .add(keys.chatCountByDay(day, "failed"), 1);
    await dayDelta.applyTo(kv.atomic()).commit();
    if (d % 30 === 0) {
      console.error(
        `seeding ${day}: ${written} visits, ${
          Math.round((performance.now() - started) / 1000)
        } s`,
      );
    }
  }
  // What a service writing live leaves: the backfill has nothing to do.
  await kv.set(
    keys.statsBackfill(),
    {
      status: "done",
      owner: "bench",
      cutoff: new Date(`${firstDay}T00:00:00Z`).toISOString(),
      phase: "accounts",
      cursor: null,
      heartbeatAt: 0,
      counted: { visits: 0, tickets: 0, passports: 0 },
      version: STATS_VERSION,
    } satisfies StatsBackfillState,
  );
  await kv.set(SEEDED_KEY, SEED_VERSION);
  console.error(
    `Seeded ${written} visits into ${path} in ${
      Math.round((performance.now() - started) / 1000)
    } s`,
  );
}

await seed(KV_PATH);

const ctx = await createTestContext({
  kvPath: KV_PATH,
  clockStart: NOW,
  env: { IP_BUDGET_PER_MINUTE: "0" },
});
const { kv } = ctx.deps;
const names = new Map(
  ctx.deps.data.current().data.attractions.map((a) => [a.slug, a.name]),
);
const { sessionId } = await createStaffSession(kv, {
  staff: {
    id: "bench@municipio.gob.mx",
    email: "bench@municipio.gob.mx",
    role: "viewer",
  },
  now: NOW,
});
const to = getLocalTime(NOW, TZ).day;
const from = addDays(to, -29);
const range = { from, to, slugs: [...names.keys()] };

async function getPanel(): Promise<void> {
  const res = await ctx.app.request("/panel", {
    headers: { cookie: `staff=${sessionId}` },
  });
  const html = await res.text();
  if (res.status !== 200 || !html.includes("<svg")) {
    throw new Error(`/panel: ${res.status}`);
  }
}

/** The console's page of one attraction (the data set's first), same 30 days. */
const attraction = [...names.keys()][0];
async function getAttractionPanel(): Promise<void> {
  const res = await ctx.app.request(`/panel/atractivos/${attraction}`, {
    headers: { cookie: `staff=${sessionId}` },
  });
  const html = await res.text();
  if (res.status !== 200 || !html.includes("<svg")) {
    throw new Error(`/panel/atractivos/${attraction}: ${res.status}`);
  }
}

// Plot and linkedom are imported by the first render: measured apart.
const coldStart = performance.now();
await getPanel();
console.error(
  `first GET /panel (imports Plot and linkedom): ${
    (performance.now() - coldStart).toFixed(1)
  } ms`,
);
const check = await getDashboard(kv, range);
console.error(
  `30 days ${from}..${to}: ${
    check.visitsByDay.reduce((s, r) => s + r.visits, 0)
  } visits; all-time first stamps ${check.funnel[0].allTime}`,
);

Deno.bench("getDashboard: the counters of 30 days", {
  group: "dashboard, 30 days, 1,000,000 visits",
  baseline: true,
}, async () => {
  await getDashboard(kv, range);
});

Deno.bench("getDashboard + the charts (Plot)", {
  group: "dashboard, 30 days, 1,000,000 visits",
}, async () => {
  await renderDashboardCharts(await getDashboard(kv, range), names);
});

Deno.bench("GET /panel (guard, read, charts, page)", {
  group: "dashboard, 30 days, 1,000,000 visits",
}, async () => {
  await getPanel();
});

Deno.bench("GET /panel/atractivos/<slug> (one attraction's page)", {
  group: "dashboard, 30 days, 1,000,000 visits",
}, async () => {
  await getAttractionPanel();
});

globalThis.addEventListener("unload", () => {
  ctx.deps.close();
});
