/**
 * A new badge is a row of the badge table and its name in each catalogue
 * (docs/ARCHITECTURE.md, "What a new badge touches"): this test adds one,
 * "every distillery", whose rule reads the attractions visited rather than
 * a count, to the real app, and checks it is awarded exactly once under
 * concurrent verifications and shows by its name where badges show.
 */
import assert from "node:assert/strict";
import { createApp } from "@/app.ts";
import {
  type BadgeRule,
  BADGES,
  getFunnelStamps,
} from "@/lib/badges/badges.ts";
import { saveTicket } from "@/lib/db/tickets.ts";
import { type Dashboard, getFunnelMilestones } from "@/lib/figures/mod.ts";
import { getUserStats, listBadges } from "@/lib/db/visits.ts";
import { getNamespaceMessages } from "@/lib/i18n/catalogue.ts";
import { renderDashboardCharts } from "@/lib/staff/dashboard.ts";
import {
  assertJson,
  createTestContext,
  getPage,
  randomTicket,
  randomUserId,
  SHIPPED,
} from "../test_utils.ts";

/** The data set's distilleries (two in the shipped one). */
const DISTILLERIES = SHIPPED.attractions.filter((a) =>
  a.slug.startsWith("destileria-")
);

/** The shipped table and one more row: every distillery visited. */
const TABLE: BadgeRule[] = [
  ...BADGES,
  {
    id: "destilerias",
    icon: "🥃",
    rule: ({ visited }) => DISTILLERIES.every((a) => visited.has(a.slug)),
  },
];

/** The badge's line in each catalogue, as `locales/<lang>/badges.json` would hold it. */
const NAMES: Record<string, string> = {
  es: "Ruta de las destilerías",
  en: "Distillery trail",
};

Deno.test("a badge added to the table", async (t) => {
  assert.equal(DISTILLERIES.length, 2);
  for (const [lang, name] of Object.entries(NAMES)) {
    getNamespaceMessages(lang, "badges").set("destilerias.name", name);
  }
  await using ctx = await createTestContext();
  const app = createApp({ ...ctx.deps, badges: TABLE });
  const verify = async (userId: string, code: string) =>
    await app.request("/api/turismo/verify-visit", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${await ctx.tokenFor(userId)}`,
      },
      body: JSON.stringify({ code, userId }),
    });

  try {
    await t.step(
      "each distillery's code sent twice at once: the badge comes with exactly one answer",
      async () => {
        const users = Array.from({ length: 4 }, () => randomUserId());
        await Promise.all(users.map(async (userId) => {
          const codes = DISTILLERIES.flatMap((a) => [a.guideCode, a.guideCode]);
          const responses = await Promise.all(
            codes.map((code) => verify(userId, code)),
          );
          const statuses = responses.map((res) => res.status).sort();
          assert.deepEqual(statuses, [200, 200, 409, 409]);
          const bodies = await Promise.all(responses.map((res) => res.json()));
          const badges = bodies.filter((body) => body.badge).map((b) =>
            b.badge
          );
          assert.deepEqual(badges, [
            { id: "destilerias", name: "Ruta de las destilerías", icon: "🥃" },
          ]);
          assert.deepEqual(
            (await listBadges(ctx.deps.kv, userId)).map((b) => b.id),
            ["destilerias"],
          );
          assert.deepEqual(await getUserStats(ctx.deps.kv, userId), {
            visitCount: 2,
            badgeCount: 1,
          });
        }));
      },
    );

    await t.step(
      "every code at once: each badge of the table once, the new one with them",
      async () => {
        const userId = randomUserId();
        const responses = await Promise.all(
          SHIPPED.attractions.map((a) => verify(userId, a.guideCode)),
        );
        for (const res of responses) await assertJson(res, 200);
        const held = (await listBadges(ctx.deps.kv, userId)).map((b) => b.id);
        assert.deepEqual(held.toSorted(), [
          "destilerias",
          "explorador",
          "leyenda",
          "veterano",
        ]);
        assert.deepEqual(await getUserStats(ctx.deps.kv, userId), {
          visitCount: 17,
          badgeCount: 4,
        });
      },
    );

    await t.step(
      "the route page names it in each language, from the catalogue",
      async () => {
        const userId = randomUserId();
        for (const a of DISTILLERIES) {
          assert.equal((await verify(userId, a.guideCode)).status, 200);
        }
        const ticket = randomTicket({ userId });
        await saveTicket(ctx.deps.kv, ticket);
        const { html } = await getPage(
          { ...ctx, app },
          `/ruta/${ticket.shareCode}`,
        );
        assert.match(
          html,
          /<li class="badge badge--on"><span class="badge__icon" aria-hidden="true">🥃<\/span><span><strong>Ruta de las destilerías<\/strong>/,
        );
        const en = await (await app.request(`/en/ruta/${ticket.shareCode}`))
          .text();
        assert.match(en, /<strong>Distillery trail<\/strong>/);
      },
    );
  } finally {
    for (const lang of Object.keys(NAMES)) {
      getNamespaceMessages(lang, "badges").delete("destilerias.name");
    }
  }
});

Deno.test("the dashboard's funnel note lists the table's stamps", async (t) => {
  const figures = (stamps: number[]): Dashboard => ({
    from: "2026-11-21",
    to: "2026-11-22",
    days: ["2026-11-21", "2026-11-22"],
    visitsByAttraction: [],
    visitsByMethod: [],
    visitsByDay: [],
    visitsByHour: [],
    funnel: stamps.map((n) => ({ stamps: n, inRange: 0, allTime: 0 })),
    passportsByDay: [],
    ticketsByDay: [],
    ratings: [],
    chatByDay: [],
    latestNotes: [],
  });
  const note = async (stamps: number[]) =>
    (await renderDashboardCharts(figures(stamps), new Map())).funnel;

  await t.step("the shipped table: 1, 5, 10 and 17 stamps", async () => {
    const shipped = getFunnelMilestones(17);
    assert.deepEqual(shipped, [1, 5, 10, 17]);
    assert.match(
      await note(shipped),
      /Columnas: turistas que llegaron a 1, 5, 10 y 17 sellos del 21 al 22 de noviembre de 2026\./,
    );
  });

  await t.step(
    "a badge at 15 stamps joins the funnel and its note",
    async () => {
      const stamps = getFunnelStamps(17, [
        ...BADGES,
        { id: "quince", icon: "⭐", stamps: 15, rule: () => false },
      ]);
      assert.deepEqual(stamps, [1, 5, 10, 15, 17]);
      assert.match(await note(stamps), /llegaron a 1, 5, 10, 15 y 17 sellos/);
    },
  );
});
