/**
 * A tourist checking in everywhere at once: their route's card is drawn
 * when the route changes, coalesced (at once, then at most once per
 * cool-down with the latest state), so a burst of writes renders a
 * handful of cards, not one per write, and the card stored at the end
 * shows the final route to every instance without a render.
 */
import assert from "node:assert/strict";
import { deleteRouteCard } from "@/lib/db/card_images.ts";
import {
  createTestContext,
  postAsUser,
  randomEmail,
  randomShareCode,
  randomUserId,
  SHIPPED,
  type TestContext,
} from "../test_utils.ts";

const BURST = 100;
/** The most renders a burst may cost: one at once, one after each cool-down. */
const MAX_RENDERS = 5;

async function getCard(ctx: TestContext, code: string) {
  const res = await ctx.app.request(`/api/turismo/og/${code}`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/png");
  return {
    etag: res.headers.get("etag")!,
    png: new Uint8Array(await res.arrayBuffer()),
  };
}

Deno.test("share cards: a burst of check-ins on one route", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-card-burst-" });
  const kvPath = `${dir}/turismo.kv`;
  try {
    await using ctx = await createTestContext({ kvPath });
    const { renderPool, shareCards } = ctx.deps;
    const userId = randomUserId();
    const code = randomShareCode();
    const ticket = await postAsUser(ctx, "/api/turismo/ticket", userId, {
      name: "Ana Lucía Pérez",
      email: randomEmail(),
      shareCode: code,
    });
    assert.equal(ticket.status, 200, await ticket.text());
    // The ticket's card, drawn on the write, and its cool-down.
    await shareCards.settled();
    const before = renderPool.stats.rendered;
    assert.equal(before, 1, "the ticket's card is drawn on the write");

    await t.step(
      `${BURST} concurrent check-ins and ratings render a handful of times, not ${BURST}`,
      async () => {
        const attractions = SHIPPED.attractions;
        assert.equal(attractions.length, 17);
        // Each attraction's verification, and the ratings of that visit
        // sent as soon as it is recorded, all in flight together.
        const ratings = BURST - attractions.length;
        const chains = attractions.map(async (attraction, i) => {
          const verify = await postAsUser(
            ctx,
            "/api/turismo/verify-visit",
            userId,
            { code: attraction.guideCode, userId },
          );
          const { atractivo } = await verify.json();
          const mine = Array.from(
            { length: ratings },
            (_, r) => r,
          ).filter((r) => r % attractions.length === i);
          const rated = await Promise.all(
            mine.map((r) =>
              postAsUser(ctx, "/api/turismo/rate-visit", userId, {
                userId,
                atractivoSlug: atractivo,
                rating: 1 + r % 5,
              })
            ),
          );
          await Promise.all(rated.map((res) => res.body?.cancel()));
          return [verify.status, ...rated.map((res) => res.status)];
        });
        const statuses = (await Promise.all(chains)).flat();
        assert.equal(statuses.length, BURST);
        assert.deepEqual(statuses, Array(BURST).fill(200));
        await shareCards.settled();
        const renders = renderPool.stats.rendered - before;
        console.log(`${BURST} writes on one route: ${renders} renders`);
        assert.ok(renders >= 1, "the route's card follows the check-ins");
        assert.ok(renders <= MAX_RENDERS, `${renders} renders`);
      },
    );

    await t.step(
      "the stored card shows the final route: served without a render, the same on another instance, equal to a fresh render",
      async () => {
        const rendered = renderPool.stats.rendered;
        const { misses, hits } = shareCards.stats;
        const stored = await getCard(ctx, code);
        assert.equal(renderPool.stats.rendered, rendered, "no render");
        assert.equal(shareCards.stats.misses, misses);
        assert.equal(shareCards.stats.hits, hits + 1);

        // Another instance on the same KV computes the same card from the
        // route and serves the stored one without a worker.
        await using other = await createTestContext({ kvPath });
        const there = await getCard(other, code);
        assert.equal(there.etag, stored.etag);
        assert.deepEqual(there.png, stored.png);
        assert.equal(other.deps.renderPool.stats.rendered, 0);
        assert.equal(other.deps.renderPool.stats.workers, 0, "no worker");

        // With nothing stored, it draws the final route itself: the same picture.
        await deleteRouteCard(other.deps.kv, code);
        // Deleted behind the service's back (no write of its own does that):
        // what the instance remembers of the card's URL is dropped by hand.
        other.deps.shareCards.forgetRoutes();
        const fresh = await getCard(other, code);
        assert.equal(other.deps.renderPool.stats.rendered, 1);
        assert.equal(fresh.etag, stored.etag);
        assert.deepEqual(fresh.png, stored.png);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
