/**
 * The tourist's side of the rewards: GET /api/turismo/prizes and
 * POST /api/turismo/prizes/{prizeId}/claim, over the real app and KV.
 */
import assert from "node:assert/strict";
import {
  assertJson,
  createTestContext,
  postJson,
  randomUserId,
  serveApp,
  SHIPPED,
  type TestContext,
  verifyVisits,
} from "@/tests/test_utils.ts";
import { listPrizeStock, type Partner, type Prize } from "@/lib/db/rewards.ts";
import { getOrCreateUserForIdentity } from "@/lib/db/sessions.ts";
import { storePartnerWithPrizes } from "@/tests/rewards_fixtures.ts";

/** A partner and a prize of it, stored the way the console saves them. */
async function seedPrize(
  ctx: TestContext,
  prizeOverrides: Partial<Prize> = {},
): Promise<{ partner: Partner; prize: Prize }> {
  const { partner, prizes: [prize] } = await storePartnerWithPrizes(
    ctx.deps.kv,
    ctx.deps.now(),
    {
      partner: {
        name: "Cafetería La Parroquia",
        address: "Calle Hidalgo 5, Centro",
        hours: "Todos los días, de 8:00 a 20:00",
        location: { lat: 20.8826, lng: -103.8366 },
      },
      prizes: [{
        name: { es: "Café de olla gratis", en: "A free café de olla" },
        description: { es: "Con cinco sellos", en: "With five stamps" },
        stockTotal: 100,
        ...prizeOverrides,
      }],
    },
  );
  return { partner, prize };
}

async function bearer(ctx: TestContext, userId: string) {
  return { authorization: `Bearer ${await ctx.tokenFor(userId)}` };
}

async function listPrizes(
  ctx: TestContext,
  userId: string,
  headers: Record<string, string> = {},
) {
  const res = await ctx.app.request("/api/turismo/prizes", {
    headers: { ...await bearer(ctx, userId), ...headers },
  });
  return await assertJson(res, 200);
}

async function claim(
  ctx: TestContext,
  userId: string,
  prizeId: string,
  headers: Record<string, string> = {},
) {
  return await postJson(ctx, `/api/turismo/prizes/${prizeId}/claim`, {}, {
    ...await bearer(ctx, userId),
    ...headers,
  });
}

Deno.test("five stamps unlock the prize; a claim gives a reference and a secret, a second the same claim", async () => {
  await using ctx = await createTestContext();
  const { prize } = await seedPrize(ctx);
  const userId = randomUserId();
  await verifyVisits(ctx, userId, 4);

  const locked = (await listPrizes(ctx, userId)).prizes;
  assert.equal(locked.length, 1);
  assert.equal(locked[0].name, "Café de olla gratis");
  assert.equal(locked[0].partner.name, "Cafetería La Parroquia");
  assert.equal(locked[0].partner.address, "Calle Hidalgo 5, Centro");
  assert.equal(locked[0].partner.hours, "Todos los días, de 8:00 a 20:00");
  assert.match(
    locked[0].partner.mapUrl,
    /^https:\/\/www\.openstreetmap\.org\/\?mlat=20\.8826&mlon=-103\.8366/,
  );
  assert.deepEqual(locked[0].progress, { have: 4, need: 5, unlocked: false });
  assert.deepEqual(locked[0].claims, []);
  const refused = await assertJson(await claim(ctx, userId, prize.id), 403);
  assert.match(refused.details ?? refused.error, /4 de 5/);

  const fifth = SHIPPED.attractions[4];
  await assertJson(
    await postJson(ctx, "/api/turismo/verify-visit", {
      code: fifth.guideCode,
      userId,
    }, await bearer(ctx, userId)),
    200,
  );
  const english = (await listPrizes(ctx, userId, { "accept-language": "en" }))
    .prizes;
  assert.equal(english[0].name, "A free café de olla");
  assert.deepEqual(english[0].progress, { have: 5, need: 5, unlocked: true });

  const first = await assertJson(await claim(ctx, userId, prize.id), 201);
  assert.equal(first.created, true);
  assert.match(first.claim.reference, /^[2-9A-HJKMNP-Z]{5}$/);
  assert.match(first.claim.secret, /^[A-Za-z0-9_-]{20,}$/);
  assert.equal(first.claim.redeemedAt, null);

  const second = await assertJson(await claim(ctx, userId, prize.id), 200);
  assert.equal(second.created, false);
  assert.deepEqual(second.claim, first.claim);

  const listed = (await listPrizes(ctx, userId)).prizes;
  assert.deepEqual(listed[0].claims, [first.claim]);
  assert.deepEqual(await listPrizeStock(ctx.deps.kv), new Map([[prize.id, 1]]));
});

Deno.test("a guest passport is refused a prize kept for accounts, in the tourist's language", async () => {
  await using ctx = await createTestContext();
  const { prize } = await seedPrize(ctx, {
    requiresAccount: true,
    requirement: { kind: "stamps", count: 1 },
  });
  const guest = randomUserId();
  await verifyVisits(ctx, guest, 1);
  const es = await assertJson(await claim(ctx, guest, prize.id), 403);
  assert.match(`${es.error} ${es.details}`, /iniciar sesión con una cuenta/);
  const en = await assertJson(
    await claim(ctx, guest, prize.id, { "accept-language": "en-GB,en;q=0.9" }),
    403,
  );
  assert.match(`${en.error} ${en.details}`, /account/i);
  assert.doesNotMatch(`${en.error} ${en.details}`, /cuenta/);

  const { userId: account } = await getOrCreateUserForIdentity(ctx.deps.kv, {
    issuer: "https://id.example.mx",
    subject: "tourist-1",
    now: ctx.deps.now(),
  });
  await verifyVisits(ctx, account, 1);
  await assertJson(await claim(ctx, account, prize.id), 201);
});

Deno.test("a paused prize is refused with its reason; an erased passport gets 401", async () => {
  await using ctx = await createTestContext();
  const { prize } = await seedPrize(ctx, {
    requirement: { kind: "stamps", count: 1 },
  });
  const userId = randomUserId();
  await verifyVisits(ctx, userId, 1);
  const { prize: paused } = await seedPrize(ctx, {
    status: "paused",
    requirement: { kind: "stamps", count: 1 },
  });
  const refused = await assertJson(await claim(ctx, userId, paused.id), 409);
  assert.equal(refused.reason, "paused");
  assert.match(`${refused.error} ${refused.details}`, /en pausa/);

  const erase = await postJson(
    ctx,
    `/api/turismo/users/${userId}/erase`,
    {},
    await bearer(ctx, userId),
  );
  await assertJson(erase, 202);
  assert.equal((await claim(ctx, userId, prize.id)).status, 401);
  const listed = await ctx.app.request("/api/turismo/prizes", {
    headers: await bearer(ctx, userId),
  });
  assert.equal(listed.status, 401);
});

Deno.test("50 concurrent claims on a prize with 10 left give exactly 10", async () => {
  await using ctx = await createTestContext();
  const { prize } = await seedPrize(ctx, {
    requirement: { kind: "stamps", count: 1 },
    stockTotal: 10,
  });
  const tourists = Array.from({ length: 50 }, randomUserId);
  for (const userId of tourists) await verifyVisits(ctx, userId, 1, 0);
  const headers = await Promise.all(tourists.map((id) => bearer(ctx, id)));
  await using server = serveApp((request) => ctx.app.fetch(request));
  const responses = await Promise.all(
    tourists.map((_, i) =>
      fetch(`${server.origin}/api/turismo/prizes/${prize.id}/claim`, {
        method: "POST",
        headers: { ...headers[i], "content-type": "application/json" },
        body: "{}",
      })
    ),
  );
  const bodies = await Promise.all(responses.map((res) => res.json()));
  const statuses = responses.map((res) => res.status);
  assert.equal(statuses.filter((s) => s === 201).length, 10);
  assert.equal(statuses.filter((s) => s === 409).length, 40);
  for (const [i, body] of bodies.entries()) {
    if (statuses[i] === 409) {
      assert.equal(body.reason, "out_of_stock");
      assert.match(`${body.error} ${body.details}`, /agotaron/);
    }
  }
  assert.equal((await listPrizeStock(ctx.deps.kv)).get(prize.id), 10);
});
