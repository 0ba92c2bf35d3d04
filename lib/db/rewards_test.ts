import assert from "node:assert/strict";
import { keys } from "./keys.ts";
import {
  claimPrize,
  deleteClaimsOfUser,
  issuePartnerPin,
  listPrizeCounts,
  openPartnerSession,
  type Partner,
  type Prize,
  redeemPrizeClaim,
  savePartner,
  savePrize,
} from "./rewards.ts";
import type { StoredUserStats } from "./visits.ts";
import {
  COUNTER_CODE_STEP_MS,
  counterCode,
  parseCounterCode,
} from "@/lib/prizes/counter_code.ts";
import type { RewardsData } from "@/lib/prizes/eligibility.ts";
import { HttpError } from "@/lib/errors/mod.ts";
import type { StaffMember } from "@/lib/types/staff.ts";

const ADMIN: StaffMember = {
  id: "s1",
  email: "ana@example.org",
  role: "admin",
};
const TIME_ZONE = "America/Mexico_City";
const NOW = new Date("2026-12-03T18:00:00Z");
const DATA: RewardsData = {
  attractionCount: 17,
  routes: new Map([["centro", ["plaza", "museo"]]]),
};
const SLUGS = ["plaza", "museo", "mirador", "cascada", "templo", "mercado"];

function partnerOf(id: string): Partner {
  return {
    id,
    name: `Café ${id}`,
    providerSlug: null,
    address: "Calle Hidalgo 3",
    hours: "De 9:00 a 18:00",
    location: null,
    active: true,
    pinVersion: 0,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
  };
}

function prizeOf(id: string, partnerId: string, over: Partial<Prize> = {}) {
  return {
    id,
    partnerId,
    name: { es: "Café de olla gratis", en: "Free café de olla" },
    description: { es: "Uno por pasaporte", en: "One per passport" },
    requirement: { kind: "stamps", count: 5 },
    validFrom: "2026-12-01",
    validUntil: "2026-12-31",
    stockTotal: 10,
    stockPerDay: null,
    perPassport: 1,
    requiresAccount: false,
    status: "active",
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
    ...over,
  } satisfies Prize;
}

/** A passport with `count` verified visits, as the visits' own atomic leaves its counters. */
async function seedPassport(kv: Deno.Kv, count: number): Promise<string> {
  const userId = crypto.randomUUID();
  const stats: StoredUserStats = {
    visitCount: count,
    badgeCount: 0,
    badges: [],
    visited: SLUGS.slice(0, count).map((slug, i) => [
      slug,
      NOW.toISOString(),
      null,
      i + 1,
    ]),
  };
  await kv.set(keys.userStats(userId), stats);
  return userId;
}

async function setUp(kv: Deno.Kv, prize: Partial<Prize> = {}) {
  await savePartner(kv, {
    partner: partnerOf("p1"),
    versionstamp: null,
    staff: ADMIN,
    now: NOW,
  });
  await savePrize(kv, {
    prize: prizeOf("cafe", "p1", prize),
    versionstamp: null,
    staff: ADMIN,
    now: NOW,
  });
}

function claim(kv: Deno.Kv, userId: string, now = NOW, guest = false) {
  return claimPrize(kv, {
    userId,
    prizeId: "cafe",
    guest,
    data: DATA,
    now,
    timeZone: TIME_ZONE,
  });
}

async function reasonOf(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) {
      return [
        error.status,
        String(error.options.body?.reason ?? error.details),
      ];
    }
    throw error;
  }
  throw new Error("expected a refusal");
}

async function withTwoInstances(
  run: (a: Deno.Kv, b: Deno.Kv) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "turismo-rewards-" });
  const a = await Deno.openKv(`${dir}/kv.sqlite`);
  const b = await Deno.openKv(`${dir}/kv.sqlite`);
  try {
    await run(a, b);
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("rewards: 50 concurrent claims on 10 units, from two instances on one KV file, give exactly 10", async () => {
  await withTwoInstances(async (a, b) => {
    await setUp(a);
    const users = await Promise.all(
      Array.from({ length: 50 }, () => seedPassport(a, 5)),
    );
    const results = await Promise.allSettled(
      users.map((userId, i) => claim(i % 2 ? a : b, userId)),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    assert.equal(won.length, 10);
    for (const lost of results.filter((r) => r.status === "rejected")) {
      const error = (lost as PromiseRejectedResult).reason as HttpError;
      assert.equal(error.status, 409);
      assert.equal(error.options.body?.reason, "out_of_stock");
    }
    assert.deepEqual((await a.get(keys.prizeStock("cafe"))).value, {
      claimed: 10,
    });
    const references = new Set(
      won.map((r) =>
        (r as PromiseFulfilledResult<{ claim: { reference: string } }>).value
          .claim.reference
      ),
    );
    assert.equal(references.size, 10);
    const [counts] = await listPrizeCounts(a, {
      from: "2026-12-03",
      to: "2026-12-03",
    });
    assert.deepEqual(counts, {
      day: "2026-12-03",
      prizeId: "cafe",
      claimed: 10,
      redeemed: 0,
      people: 0,
    });
  });
});

Deno.test("rewards: a claim needs the stamps, the dates, an account when asked, and holds the limits", async (t) => {
  const kv = await Deno.openKv(":memory:");
  try {
    await setUp(kv, { stockPerDay: 1, requiresAccount: false });
    await t.step("four stamps of five: locked, nothing taken", async () => {
      const userId = await seedPassport(kv, 4);
      const error = await claim(kv, userId).catch((e) => e);
      assert.ok(error instanceof HttpError);
      assert.equal(error.status, 403);
      assert.equal(error.details, "Todavía no: llevas 4 de 5");
      assert.equal(error.describe("en").details, "Not yet: you have 4 of 5");
      assert.equal((await kv.get(keys.prizeStock("cafe"))).value, null);
    });
    await t.step(
      "a second tap gets the same open claim, and the day's bound holds",
      async () => {
        const userId = await seedPassport(kv, 5);
        const first = await claim(kv, userId);
        assert.equal(first.created, true);
        const again = await claim(kv, userId);
        assert.deepEqual(again, { claim: first.claim, created: false });
        const other = await seedPassport(kv, 5);
        assert.deepEqual(await reasonOf(claim(kv, other)), [
          409,
          "out_of_stock_today",
        ]);
        // The next day (the municipality's), the bound starts again.
        const tomorrow = new Date(NOW.getTime() + 24 * 3600_000);
        assert.equal((await claim(kv, other, tomorrow)).created, true);
      },
    );
    await t.step("before and after its dates, with the reason", async () => {
      const userId = await seedPassport(kv, 5);
      assert.deepEqual(
        await reasonOf(claim(kv, userId, new Date("2026-11-30T18:00:00Z"))),
        [409, "not_yet"],
      );
      assert.deepEqual(
        await reasonOf(claim(kv, userId, new Date("2027-01-01T18:00:00Z"))),
        [409, "expired"],
      );
    });
  } finally {
    kv.close();
  }
});

Deno.test("rewards: accounts only and paused prizes are refused with their reason", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await setUp(kv, { requiresAccount: true });
    const userId = await seedPassport(kv, 5);
    assert.equal((await reasonOf(claim(kv, userId, NOW, true)))[0], 403);
    const paused = await kv.get<Prize>(keys.prize("cafe"));
    await savePrize(kv, {
      prize: { ...paused.value!, status: "paused" },
      versionstamp: paused.versionstamp,
      staff: ADMIN,
      now: NOW,
    });
    assert.deepEqual(await reasonOf(claim(kv, userId)), [409, "paused"]);
    // A save of the version read before the pause is refused: nothing lost.
    assert.equal(
      (await reasonOf(savePrize(kv, {
        prize: { ...paused.value!, stockTotal: 99 },
        versionstamp: paused.versionstamp,
        staff: ADMIN,
        now: NOW,
      })))[0],
      409,
    );
  } finally {
    kv.close();
  }
});

Deno.test("rewards: a code is redeemed once with two phones on two instances, a lost reply is answered again", async () => {
  await withTwoInstances(async (a, b) => {
    await setUp(a);
    const userId = await seedPassport(a, 5);
    const { claim: claimed } = await claim(a, userId);
    const later = new Date(NOW.getTime() + 10 * 60_000);
    const { digits } = await counterCode(claimed, later.getTime());
    const redeem = (kv: Deno.Kv, requestId: string, at = later, d = digits) =>
      redeemPrizeClaim(kv, {
        partnerId: "p1",
        reference: claimed.reference,
        digits: d,
        requestId,
        now: at,
        timeZone: TIME_ZONE,
      });

    const stale = await counterCode(
      claimed,
      later.getTime() - 3 * COUNTER_CODE_STEP_MS,
    );
    assert.deepEqual(
      await reasonOf(redeem(a, "r0", later, stale.digits)),
      [422, "stale"],
    );
    assert.equal(
      (await reasonOf(redeemPrizeClaim(a, {
        partnerId: "another",
        reference: claimed.reference,
        digits,
        requestId: "r0",
        now: later,
        timeZone: TIME_ZONE,
      })))[0],
      404,
    );

    const answers = await Promise.all([redeem(a, "r1"), redeem(b, "r2")]);
    assert.deepEqual(answers.map((x) => x.status).sort(), [
      "already_redeemed",
      "redeemed",
    ]);
    const winner = answers.find((x) => x.status === "redeemed")!;
    const winnerId = answers[0] === winner ? "r1" : "r2";
    // The winner's phone never heard back and sends it again.
    assert.equal((await redeem(b, winnerId)).status, "redeemed");
    assert.equal(
      (await redeem(a, "r3")).redeemedAt,
      later.toISOString(),
    );
    const [counts] = await listPrizeCounts(b, {
      from: "2026-12-03",
      to: "2026-12-03",
    });
    assert.equal(counts.redeemed, 1);
  });
});

Deno.test("rewards: an erased passport's claims go, an unredeemed one's unit back to the stock", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await setUp(kv);
    const userId = await seedPassport(kv, 5);
    const { claim: claimed } = await claim(kv, userId);
    await deleteClaimsOfUser(kv, userId);
    assert.equal((await kv.get(keys.prizeClaims(userId, "cafe"))).value, null);
    assert.equal(
      (await kv.get(keys.prizeClaimByReference(claimed.reference))).value,
      null,
    );
    assert.deepEqual((await kv.get(keys.prizeStock("cafe"))).value, {
      claimed: 0,
    });
  } finally {
    kv.close();
  }
});

Deno.test("rewards: a partner's PIN opens its page until a new one is issued", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await setUp(kv);
    const pin = await issuePartnerPin(kv, {
      partnerId: "p1",
      staff: ADMIN,
      now: NOW,
    });
    assert.match(pin, /^\d{8}$/);
    const opened = await openPartnerSession(kv, { pin, now: NOW });
    assert.equal(opened?.partner.id, "p1");
    assert.equal("pinHash" in opened!.partner, false);
    const next = await issuePartnerPin(kv, {
      partnerId: "p1",
      staff: ADMIN,
      now: NOW,
    });
    assert.equal(await openPartnerSession(kv, { pin, now: NOW }), null);
    assert.equal(
      (await openPartnerSession(kv, { pin: next, now: NOW }))?.partner.id,
      "p1",
    );
  } finally {
    kv.close();
  }
});

Deno.test("rewards: a typed counter code is read as staff type it", () => {
  assert.deepEqual(parseCounterCode("k7qpm 48-29"), {
    reference: "K7QPM",
    digits: "4829",
  });
  assert.deepEqual(parseCounterCode("K7QPM 482O"), {
    reference: "K7QPM",
    digits: "4820",
  });
  assert.equal(parseCounterCode("K7QP 4829"), null);
  assert.equal(parseCounterCode("K0QPM 4829"), null);
});
