/**
 * The open data's prize redemptions tried as someone who wants to single a
 * tourist out would: a prize redeemed by four passports in a closed month
 * is a blank, five a figure; a passport that redeems the same prize twice
 * counts once; the running month is not published; no total per business
 * could give a blank back; and a second download after a late redemption
 * shows the same closed months.
 */
import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import { claimPrize, redeemPrizeClaim } from "@/lib/db/rewards.ts";
import { recordVisit } from "@/lib/db/visits.ts";
import { counterCode } from "@/lib/prizes/counter_code.ts";
import type { Prize } from "@/lib/prizes/types.ts";
import { createTestContext, type TestContext } from "../test_utils.ts";
import { storePartnerWithPrizes } from "../rewards_fixtures.ts";

const TZ = "America/Mexico_City";
const OCTOBER = new Date("2026-10-05T18:00:00Z");
const NOVEMBER = new Date("2026-11-03T18:00:00Z");
const NOW = new Date("2026-11-10T18:00:00Z");

function prize(id: string, over: Partial<Prize> = {}): Partial<Prize> {
  return {
    id,
    name: { es: `Premio ${id}`, en: `Prize ${id}` },
    description: { es: "", en: "" },
    requirement: { kind: "stamps", count: 1 },
    validFrom: "2026-10-01",
    validUntil: "2026-12-31",
    stockTotal: 100,
    ...over,
  };
}

/** `times` redemptions of `prizeId` by one new passport with one stamp, at `now`. */
async function redeemBy(
  ctx: TestContext,
  prizeId: string,
  now: Date,
  { times = 1 } = {},
) {
  const { kv } = ctx.deps;
  const { data } = ctx.deps.data.current();
  const userId = crypto.randomUUID();
  await recordVisit(kv, {
    userId,
    slug: data.attractions[0].slug,
    now,
    totalAttractions: data.attractions.length,
    timeZone: TZ,
  });
  for (let i = 0; i < times; i++) {
    const { claim } = await claimPrize(kv, {
      userId,
      prizeId,
      guest: true,
      data: { attractionCount: data.attractions.length, routes: new Map() },
      now,
      timeZone: TZ,
    });
    const { digits } = await counterCode(claim, now.getTime());
    await redeemPrizeClaim(kv, {
      partnerId: "cafe-central",
      reference: claim.reference,
      digits,
      requestId: crypto.randomUUID(),
      now,
      timeZone: TZ,
    });
  }
  return userId;
}

async function getRows(ctx: TestContext): Promise<string[][]> {
  const res = await ctx.app.request("/datos/premios-canjeados-mensuales.csv");
  assert.equal(res.status, 200);
  return parse(await res.text());
}

Deno.test("open data: prizes redeemed per business and month, no one singled out", async (t) => {
  await using ctx = await createTestContext({ clockStart: NOW });
  const { kv } = ctx.deps;
  await storePartnerWithPrizes(kv, OCTOBER, {
    partner: { id: "cafe-central", name: "Café Central", hours: "" },
    prizes: [
      prize("cuatro"),
      prize("cinco"),
      prize("dos", { perPassport: 2 }),
    ],
  });
  for (let i = 0; i < 4; i++) await redeemBy(ctx, "cuatro", OCTOBER);
  for (let i = 0; i < 5; i++) await redeemBy(ctx, "cinco", OCTOBER);
  // Four passports, one of them twice: four people, five redemptions.
  await redeemBy(ctx, "dos", OCTOBER, { times: 2 });
  for (let i = 0; i < 3; i++) await redeemBy(ctx, "dos", OCTOBER);
  // November is running: nothing of it is published yet.
  for (let i = 0; i < 6; i++) await redeemBy(ctx, "cinco", NOVEMBER);

  await t.step("closed months only, a blank under five people", async () => {
    const rows = await getRows(ctx);
    assert.deepEqual(rows, [
      [
        "mes",
        "comercio",
        "nombre_comercio",
        "premio",
        "nombre_premio",
        "personas",
      ],
      ["2026-10", "cafe-central", "Café Central", "cinco", "Premio cinco", "5"],
      [
        "2026-10",
        "cafe-central",
        "Café Central",
        "cuatro",
        "Premio cuatro",
        "",
      ],
      ["2026-10", "cafe-central", "Café Central", "dos", "Premio dos", ""],
    ]);
  });

  await t.step("a redemption today moves no published figure", async () => {
    const before = await getRows(ctx);
    await redeemBy(ctx, "cuatro", NOW);
    assert.deepEqual(await getRows(ctx), before);
  });
});
