import assert from "node:assert/strict";
import { keys } from "./keys.ts";
import { mergePassports } from "./passports.ts";
import { getTicket, saveTicket } from "./tickets.ts";
import {
  getAttractionStats,
  getUserStats,
  listBadges,
  listVisits,
  rateVisit,
  recordVisit,
} from "./visits.ts";

const SLUGS = Array.from({ length: 17 }, (_, i) => `atractivo-${i + 1}`);
const T0 = Date.parse("2026-11-20T12:00:00Z");

async function visit(
  kv: Deno.Kv,
  userId: string,
  slug: string,
  minutes: number,
  rating?: number,
) {
  const now = new Date(T0 + minutes * 60_000);
  await recordVisit(kv, { userId, slug, now, totalAttractions: 17 });
  if (rating) {
    await rateVisit(kv, { userId, slug, rating, notes: `nota ${slug}`, now });
  }
}

function ticket(shareCode: string, userId: string) {
  return {
    shareCode,
    name: "Ana",
    email: "ana@ejemplo.mx",
    phone: null,
    wpId: 1,
    userId,
    createdAt: new Date(T0).toISOString(),
  };
}

async function setUp() {
  const kv = await Deno.openKv(":memory:");
  const guest = crypto.randomUUID();
  const account = crypto.randomUUID();
  // The account visited 10 attractions on day one; the guest, all 17 later,
  // except the first two, which the guest saw earlier than the account.
  for (const [i, slug] of SLUGS.slice(0, 10).entries()) {
    await visit(kv, account, slug, 100 + i, i === 3 ? 4 : undefined);
  }
  for (const [i, slug] of SLUGS.entries()) {
    await visit(
      kv,
      guest,
      slug,
      i < 2 ? i : 1_000 + i,
      i === 4 ? 2 : undefined,
    );
  }
  return { kv, guest, account };
}

Deno.test("merging a guest passport into an account", async (t) => {
  await t.step(
    "a guest with 17 visits into an account with 10: 17 visits, the earliest of each, each badge once",
    async () => {
      const { kv, guest, account } = await setUp();
      const result = await mergePassports(kv, {
        from: guest,
        into: account,
        now: new Date(T0 + 5_000 * 60_000),
        totalAttractions: 17,
      });
      assert.equal(result.moved, 7);
      assert.equal(result.merged, 10);
      const visits = await listVisits(kv, account);
      assert.equal(visits.length, 17);
      assert.deepEqual(visits.map((v) => v.seq), SLUGS.map((_, i) => i + 1));
      const bySlug = new Map(visits.map((v) => [v.slug, v]));
      // The guest's two earlier visits won; the account's others did.
      assert.equal(bySlug.get(SLUGS[0])?.visitedAt, new Date(T0).toISOString());
      assert.equal(
        bySlug.get(SLUGS[5])?.visitedAt,
        new Date(T0 + 105 * 60_000).toISOString(),
      );
      // Ratings of either visit survive.
      assert.equal(bySlug.get(SLUGS[3])?.rating, 4);
      assert.equal(bySlug.get(SLUGS[4])?.rating, 2);
      assert.equal(bySlug.get(SLUGS[4])?.notes, `nota ${SLUGS[4]}`);
      const badges = await listBadges(kv, account);
      assert.deepEqual(badges.map((b) => b.id).sort(), [
        "explorador",
        "leyenda",
        "veterano",
      ]);
      assert.deepEqual(await getUserStats(kv, account), {
        visitCount: 17,
        badgeCount: 3,
      });
      // The guest's passport is empty.
      assert.deepEqual(await listVisits(kv, guest), []);
      assert.deepEqual(await listBadges(kv, guest), []);
      assert.deepEqual(await getUserStats(kv, guest), {
        visitCount: 0,
        badgeCount: 0,
      });
      // Each attraction counts one visitor again, with one rating at most.
      for (const slug of SLUGS) {
        const stats = await getAttractionStats(kv, slug);
        assert.equal(stats.visitCount, 1, slug);
      }
      assert.equal((await getAttractionStats(kv, SLUGS[3])).ratingSum, 4);
      assert.equal((await getAttractionStats(kv, SLUGS[4])).ratingCount, 1);
      // The index finds every kept visit under the account, none dropped.
      for (const visit of visits) {
        const index = await kv.get(keys.visitById(visit.visitId));
        assert.deepEqual(index.value, [account, visit.slug]);
      }
      let indexed = 0;
      for await (const _ of kv.list({ prefix: ["visits_by_id"] })) indexed++;
      assert.equal(indexed, 17);
      kv.close();
    },
  );

  await t.step(
    "two tabs merging at once come out the same, the second finding nothing",
    async () => {
      const { kv, guest, account } = await setUp();
      const merge = () =>
        mergePassports(kv, {
          from: guest,
          into: account,
          now: new Date(T0 + 5_000 * 60_000),
          totalAttractions: 17,
        });
      const results = await Promise.all([merge(), merge(), merge()]);
      assert.equal(results.filter((r) => r.moved + r.merged > 0).length, 1);
      assert.equal((await listVisits(kv, account)).length, 17);
      assert.equal((await listBadges(kv, account)).length, 3);
      for (const slug of SLUGS) {
        assert.equal((await getAttractionStats(kv, slug)).visitCount, 1);
      }
      kv.close();
    },
  );

  await t.step(
    "the guest's ticket moves to an account without one, and shows its visits",
    async () => {
      const kv = await Deno.openKv(":memory:");
      const guest = crypto.randomUUID();
      const account = crypto.randomUUID();
      await visit(kv, guest, SLUGS[0], 0);
      await saveTicket(kv, ticket("ruta-invitada", guest));
      await mergePassports(kv, {
        from: guest,
        into: account,
        now: new Date(T0),
        totalAttractions: 17,
      });
      assert.equal(
        (await kv.get(keys.ticketByUser(account))).value,
        "ruta-invitada",
      );
      assert.equal((await kv.get(keys.ticketByUser(guest))).value, null);
      assert.equal((await getTicket(kv, "ruta-invitada"))?.userId, account);
      kv.close();
    },
  );

  await t.step(
    "an account with a ticket keeps it; the guest's ticket shows the account's visits",
    async () => {
      const kv = await Deno.openKv(":memory:");
      const guest = crypto.randomUUID();
      const account = crypto.randomUUID();
      await saveTicket(kv, ticket("ruta-cuenta", account));
      await saveTicket(kv, ticket("ruta-invitada", guest));
      await mergePassports(kv, {
        from: guest,
        into: account,
        now: new Date(T0),
        totalAttractions: 17,
      });
      assert.equal(
        (await kv.get(keys.ticketByUser(account))).value,
        "ruta-cuenta",
      );
      assert.equal((await getTicket(kv, "ruta-invitada"))?.userId, account);
      kv.close();
    },
  );
});

Deno.test("a passport keeps its first ticket when a second one is saved", async () => {
  await using kv = await Deno.openKv(":memory:");
  const userId = crypto.randomUUID();
  await saveTicket(kv, ticket("primera-ruta", userId));
  const second = await saveTicket(kv, ticket("segunda-ruta", userId));
  assert.equal(second.userId, userId, "the second still shows the visits");
  assert.equal(
    (await kv.get<string>(keys.ticketByUser(userId))).value,
    "primera-ruta",
  );
});
