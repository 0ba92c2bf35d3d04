/**
 * The disclosure rule (lib/open_data/disclosure.ts), attacked as an
 * attacker would: tourists visit and rate one at a time while the clock
 * moves, and after every action the test downloads every public figure
 * (both open-data files, each attraction's page in Spanish and English, the
 * attraction list) and keeps them all. From that history it tries to get
 * one person's visit or rating back: a figure from fewer than 5 people, a
 * figure that moved between two downloads, or a total minus the cells
 * published beside it.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { keys } from "@/lib/db/keys.ts";
import { formatMonth } from "@/lib/format/format.ts";
import { MIN_PEOPLE } from "@/lib/open_data/disclosure.ts";
import {
  createTestContext,
  postAsUser,
  randomUserId,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const [PLAZA, SECOND] = SHIPPED.attractions;
const SLUGS = [PLAZA.slug, SECOND.slug];
const LANGS = ["es", "en"] as const;
const MINUTE_MS = 60 * 1000;

/** One public figure: where it was read, whose, of what period, and its value (null: a blank). */
interface Figure {
  source: string;
  slug: string;
  kind: "ratings" | "visits";
  /** `YYYY-MM-DD`, `YYYY-MM`, or `all` (a figure that names no period). */
  period: string;
  count: number | null;
  /** The stars' sum, from the average (ratings only). */
  sum?: number | null;
}

/** The month a page names (`marzo de 2026`, `March 2026`), as `YYYY-MM`. */
const MONTHS = new Map(
  LANGS.flatMap((lang) =>
    Array.from({ length: 12 }, (_, i) => {
      const month = `2026-${String(i + 1).padStart(2, "0")}`;
      return [formatMonth(month, lang), month] as const;
    })
  ),
);

const PAGE_PATTERNS = {
  es: {
    ratings:
      /([\d.]+) de 5 · (\d+) calificaci(?:ón|ones)(?: en ([a-z]+ de \d{4}))?/,
    visits: /(\d+) visitas? verificadas?(?: en ([a-z]+ de \d{4}))?/,
  },
  en: {
    ratings: /([\d.]+) out of 5 · (\d+) ratings?(?: in ([A-Za-z]+ \d{4}))?/,
    visits: /(\d+) verified visits?(?: in ([A-Za-z]+ \d{4}))?/,
  },
};

function toText(html: string): string {
  return html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

/** Every figure anyone can read now. */
async function readPublicFigures(ctx: TestContext): Promise<Figure[]> {
  const figures: Figure[] = [];
  const visits = await getText(ctx, "/datos/visitas-diarias.csv");
  for (const [day, slug, , count] of parse(visits).slice(1)) {
    figures.push({
      source: "visitas-diarias.csv",
      slug,
      kind: "visits",
      period: day,
      count: count === "" ? null : Number(count),
    });
  }
  const ratings = await getText(ctx, "/datos/calificaciones-mensuales.csv");
  for (const [month, slug, , count, average] of parse(ratings).slice(1)) {
    figures.push({
      source: "calificaciones-mensuales.csv",
      slug,
      kind: "ratings",
      period: month,
      count: count === "" ? null : Number(count),
      sum: count === "" ? null : Math.round(Number(average) * Number(count)),
    });
  }
  for (const lang of LANGS) {
    const prefix = lang === "es" ? "" : `/${lang}`;
    const list = toText(await getText(ctx, `${prefix}/turismo/atractivos`));
    for (const pattern of Object.values(PAGE_PATTERNS[lang])) {
      assert.doesNotMatch(list, pattern, "the list shows no figures");
    }
    for (const slug of SLUGS) {
      const html = await getText(ctx, `${prefix}/turismo/atractivos/${slug}`);
      const text = toText(html);
      const rating = PAGE_PATTERNS[lang].ratings.exec(text);
      if (rating) {
        const count = Number(rating[2]);
        figures.push({
          source: `page:${lang}`,
          slug,
          kind: "ratings",
          period: rating[3] ? MONTHS.get(rating[3])! : "all",
          count,
          sum: Math.round(Number(rating[1]) * count),
        });
      }
      const visit = PAGE_PATTERNS[lang].visits.exec(text);
      if (visit) {
        figures.push({
          source: `page:${lang}`,
          slug,
          kind: "visits",
          period: visit[2] ? MONTHS.get(visit[2])! : "all",
          count: Number(visit[1]),
        });
      }
    }
  }
  return figures;
}

async function getText(ctx: TestContext, path: string): Promise<string> {
  const res = await ctx.app.request(path);
  assert.equal(res.status, 200, path);
  return await res.text();
}

/**
 * What an attacker holding every download so far learns about fewer than
 * MIN_PEOPLE people: each finding says how.
 */
function attack(history: Figure[][]): string[] {
  const findings = new Set<string>();
  const seen = new Map<string, string>();
  for (const snapshot of history) {
    for (const f of snapshot) {
      const id = `${f.source} ${f.slug} ${f.kind} ${f.period}`;
      const value = JSON.stringify([f.count, f.sum ?? null]);
      if (f.count !== null && f.count < MIN_PEOPLE) {
        findings.add(`${id}: a figure from ${f.count} people`);
      }
      const before = seen.get(id);
      if (before !== undefined && before !== value) {
        findings.add(`${id}: moved from ${before} to ${value}`);
      }
      seen.set(id, value);
    }
    // A page's figure minus the file cells it covers.
    for (const f of snapshot.filter((f) => f.source.startsWith("page:"))) {
      const cells = snapshot.filter((c) =>
        !c.source.startsWith("page:") && c.slug === f.slug &&
        c.kind === f.kind &&
        (f.period === "all" || c.period.startsWith(f.period))
      );
      const shown = cells.filter((c) => c.count !== null);
      const blanks = cells.length - shown.length;
      const remainder = f.count! -
        shown.reduce((a, c) => a + c.count!, 0);
      if (
        remainder > 0 &&
        (remainder < MIN_PEOPLE || remainder === blanks ||
          remainder === blanks * (MIN_PEOPLE - 1))
      ) {
        findings.add(
          `${f.source} ${f.slug} ${f.kind} ${f.period}: total minus cells leaves ${remainder} people in ${blanks} blanks`,
        );
      }
    }
  }
  return [...findings];
}

/** The disclosure rule's actors: tourists who verify and rate, one action at a time, watched. */
function createScene(ctx: TestContext) {
  const history: Figure[][] = [];
  const watch = async () => {
    history.push(await readPublicFigures(ctx));
    ctx.clock.advance(MINUTE_MS);
  };
  return {
    history,
    watch,
    /** Sets the clock to `iso` (it only moves forward). */
    moveTo(iso: string) {
      const ms = Date.parse(iso) - ctx.clock.now().getTime();
      assert.ok(ms >= 0, `${iso} is ahead`);
      ctx.clock.advance(ms);
    },
    async visit(attraction: { slug: string; guideCode: string }) {
      const userId = randomUserId();
      const res = await postAsUser(ctx, "/api/turismo/verify-visit", userId, {
        code: attraction.guideCode,
        userId,
      });
      assert.equal(res.status, 200, await res.text());
      await watch();
      return userId;
    },
    async rate(userId: string, slug: string, rating: number) {
      const res = await postAsUser(ctx, "/api/turismo/rate-visit", userId, {
        userId,
        atractivoSlug: slug,
        rating,
        notes: null,
      });
      assert.equal(res.status, 200, await res.text());
      await watch();
    },
  };
}

Deno.test("disclosure rule: no public figure gives one tourist back", async (t) => {
  // Noon in Tequila (UTC-6) on 10 March 2026.
  await using ctx = await createTestContext({
    clockStart: new Date("2026-03-10T18:00:00Z"),
  });
  const scene = createScene(ctx);
  await scene.watch();

  const plazaRaters: string[] = [];
  await t.step(
    "a month with four ratings, then a fifth: nothing public moves until the month is over",
    async () => {
      for (const stars of [2, 5, 4, 3]) {
        const userId = await scene.visit(PLAZA);
        await scene.rate(userId, PLAZA.slug, stars);
        plazaRaters.push(userId);
      }
      const fifth = await scene.visit(PLAZA);
      await scene.rate(fifth, PLAZA.slug, 5);
      plazaRaters.push(fifth);
      assert.deepEqual(attack(scene.history), []);
      const first = JSON.stringify(scene.history[0]);
      for (const snapshot of scene.history) {
        assert.equal(JSON.stringify(snapshot), first, "same as before");
      }
    },
  );

  await t.step(
    "a closed day's blank cell is not given back by the month's total",
    async () => {
      scene.moveTo("2026-03-11T18:00:00Z");
      await scene.visit(PLAZA);
      await scene.visit(PLAZA);
      scene.moveTo("2026-04-02T18:00:00Z");
      await scene.watch();
      const now = scene.history.at(-1)!;
      const plaza = now.filter((f) => f.slug === PLAZA.slug);
      assert.deepEqual(
        plaza.filter((f) => f.source === "visitas-diarias.csv").map((f) => [
          f.period,
          f.count,
        ]),
        [["2026-03-10", 5], ["2026-03-11", null]],
      );
      assert.deepEqual(
        plaza.filter((f) => f.source === "calificaciones-mensuales.csv"),
        [{
          source: "calificaciones-mensuales.csv",
          slug: PLAZA.slug,
          kind: "ratings",
          period: "2026-03",
          count: 5,
          sum: 19,
        }],
      );
      // March's 7 visits would give back 11 March's 2: the page has none.
      assert.deepEqual(
        plaza.filter((f) => f.source.startsWith("page:")).map((f) => [
          f.source,
          f.kind,
          f.period,
          f.count,
        ]),
        [["page:es", "ratings", "2026-03", 5], [
          "page:en",
          "ratings",
          "2026-03",
          5,
        ]],
      );
      assert.deepEqual(attack(scene.history), []);
    },
  );

  await t.step(
    "a re-rating after its month closed moves neither March's file row nor the page",
    async () => {
      await scene.rate(plazaRaters[0], PLAZA.slug, 5);
      await scene.rate(plazaRaters[1], PLAZA.slug, 1);
      assert.deepEqual(attack(scene.history), []);
    },
  );

  await t.step(
    "an attraction with 5 ratings in a month and 1 the next: no total gives the sixth back",
    async () => {
      for (const stars of [4, 4, 5, 3, 4]) {
        const userId = await scene.visit(SECOND);
        await scene.rate(userId, SECOND.slug, stars);
      }
      scene.moveTo("2026-04-20T18:00:00Z");
      await scene.visit(SECOND);
      await scene.visit(SECOND);
      scene.moveTo("2026-04-21T18:00:00Z");
      await scene.visit(SECOND);
      await scene.visit(SECOND);
      await scene.visit(SECOND);
      scene.moveTo("2026-05-03T18:00:00Z");
      const sixth = await scene.visit(SECOND);
      await scene.rate(sixth, SECOND.slug, 1);
      scene.moveTo("2026-06-01T18:00:00Z");
      await scene.watch();
      const now = scene.history.at(-1)!.filter((f) => f.slug === SECOND.slug);
      assert.deepEqual(
        now.filter((f) => f.source === "calificaciones-mensuales.csv").map((
          f,
        ) => [f.period, f.count]),
        [["2026-04", 5], ["2026-05", null]],
      );
      assert.deepEqual(
        now.filter((f) => f.source.startsWith("page:")),
        [],
        "May's one rating and one visit: nothing on the page",
      );
      assert.deepEqual(attack(scene.history), []);
    },
  );

  await t.step(
    "April's total stands beside two blank days that hold 5 visits between them",
    () => {
      // Read in May: April's 10 visits (5 + 2 + 3) are on both pages.
      const may = scene.history.find((snapshot) =>
        snapshot.some((f) =>
          f.source === "page:en" && f.slug === SECOND.slug &&
          f.kind === "visits"
        )
      )!;
      assert.deepEqual(
        may.filter((f) => f.slug === SECOND.slug && f.kind === "visits").map((
          f,
        ) => [f.source, f.period, f.count]),
        [
          ["visitas-diarias.csv", "2026-04-02", 5],
          ["visitas-diarias.csv", "2026-04-20", null],
          ["visitas-diarias.csv", "2026-04-21", null],
          ["page:es", "2026-04", 10],
          ["page:en", "2026-04", 10],
        ],
      );
    },
  );

  await t.step(
    "concurrent first reads after a day closes publish one frozen day",
    async () => {
      scene.moveTo("2026-06-01T20:00:00Z");
      await scene.visit(PLAZA);
      await scene.visit(PLAZA);
      scene.moveTo("2026-06-02T18:00:00Z");
      const reads = await Promise.all(
        Array.from(
          { length: 8 },
          (_, i) =>
            i % 2
              ? getText(ctx, "/datos/visitas-diarias.csv")
              : getText(ctx, `/turismo/atractivos/${PLAZA.slug}`).then(() =>
                getText(ctx, "/datos/visitas-diarias.csv")
              ),
        ),
      );
      assert.equal(new Set(reads).size, 1);
      assert.match(reads[0], new RegExp(`2026-06-01,${PLAZA.slug},[^,]*,\n`));
      await scene.watch();
      assert.deepEqual(attack(scene.history), []);
    },
  );
});

Deno.test("GET /datos: the rule is said in each language", async (t) => {
  await using ctx = await createTestContext();
  for (
    const [path, phrases] of [
      ["/datos", [
        /Ninguna cifra viene de menos de 5 personas/,
        /Solo publicamos periodos cerrados/,
        /Lo publicado ya no cambia/,
        /un total con el que se pueda deducir una celda vacía/,
      ]],
      ["/en/datos", [
        /No figure comes from fewer than 5 people/,
        /We only publish periods that are over/,
        /What is published never changes afterwards/,
        /a total that would let anyone work out a blank cell/,
      ]],
    ] as const
  ) {
    await t.step(path, async () => {
      const text = toText(await getText(ctx, path));
      for (const phrase of phrases) assert.match(text, phrase);
    });
  }
});

Deno.test("disclosure rule: no period is frozen while the counters' backfill runs", async (t) => {
  await using ctx = await createTestContext({
    clockStart: new Date("2026-03-10T18:00:00Z"),
  });
  const scene = createScene(ctx);
  for (let i = 0; i < 5; i++) await scene.visit(PLAZA);
  const kv = ctx.deps.kv;
  const done = await kv.get<{ status: string }>(keys.statsBackfill());
  assert.equal(done.value?.status, "done");
  // As a backfill that an earlier version's visits are still waiting for.
  await kv.set(keys.statsBackfill(), { ...done.value, status: "running" });
  scene.moveTo("2026-03-11T18:00:00Z");

  await t.step("a closed day waits for the backfill", async () => {
    const text = await getText(ctx, "/datos/visitas-diarias.csv");
    assert.equal(text, "fecha,atractivo,nombre,visitas\n");
  });

  await t.step("then it is published, with every visit", async () => {
    await kv.set(keys.statsBackfill(), done.value);
    const rows = parse(await getText(ctx, "/datos/visitas-diarias.csv"));
    assert.deepEqual(rows.slice(1), [[
      "2026-03-10",
      PLAZA.slug,
      PLAZA.name,
      "5",
    ]]);
  });
});

Deno.test("disclosure rule: two instances on one KV file freeze a closed day once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const kvPath = `${dir}/kv.sqlite3`;
    const clockStart = new Date("2026-03-10T18:00:00Z");
    await using first = await createTestContext({ kvPath, clockStart });
    await using second = await createTestContext({ kvPath, clockStart });
    const scene = createScene(first);
    for (let i = 0; i < 6; i++) await scene.visit(PLAZA);
    // Both read for the first time after the day closes, at once.
    for (const ctx of [first, second]) {
      ctx.clock.advance(
        Date.parse("2026-03-11T18:00:00Z") - ctx.clock.now().getTime(),
      );
    }
    const reads = await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => getText(i % 2 ? first : second, "/datos/visitas-diarias.csv"),
      ),
    );
    assert.equal(new Set(reads).size, 1);
    assert.equal(
      reads[0],
      `fecha,atractivo,nombre,visitas\n2026-03-10,${PLAZA.slug},${PLAZA.name},6\n`,
    );
    const frozen = await first.deps.kv.get(keys.publishedDay("2026-03-10"));
    // A visit counted late on the closed day moves the live counter only.
    await first.deps.kv.atomic().sum(
      keys.visitCountByDay("2026-03-10", PLAZA.slug),
      1n,
    ).commit();
    assert.equal(
      await getText(second, "/datos/visitas-diarias.csv"),
      reads[0],
    );
    const again = await second.deps.kv.get(keys.publishedDay("2026-03-10"));
    assert.equal(again.versionstamp, frozen.versionstamp, "written once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
