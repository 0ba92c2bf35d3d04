/**
 * POST /api/turismo/check-in: a device's check-in (queued offline, or the
 * "Estoy aquí" button), by guide code or position, exactly once, with the
 * claimed time's bounds, grace codes, the radius, the accuracy and the
 * speed rules, and an admin's rule applying at once.
 */
import assert from "node:assert/strict";
import { MAX_REFUSAL_RECEIPTS } from "@/lib/db/check_ins.ts";
import { saveCheckInMethod } from "@/lib/db/check_in_methods.ts";
import { keys } from "@/lib/db/keys.ts";
import { mergePassports } from "@/lib/db/passports.ts";
import { peekRateLimit } from "@/lib/db/rate_limits.ts";
import {
  getAttractionStats,
  getUserStats,
  getVisit,
  getVisitById,
} from "@/lib/db/visits.ts";
import { replaceGuideCode } from "@/lib/passport/mod.ts";
import {
  GUIDE_CODE_ADDRESS_LIMIT,
  GUIDE_CODE_LIMIT,
} from "@/lib/check_in/rules.ts";
import type { StaffMember } from "@/lib/types/staff.ts";
import { ERASURE_CACHE_GRACE_MS } from "@/lib/personal_data/erase.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  postJson,
  randomUserId,
  SHIPPED,
  type TestContext,
  UUID,
} from "../test_utils.ts";
import { dumpKv } from "../kv_dump.ts";

const CHECK_IN = "/api/turismo/check-in";
const VERIFY = "/api/turismo/verify-visit";
const HOUR = 3_600_000;
const ADMIN: StaffMember = {
  id: "ana@municipio.gob.mx",
  email: "ana@municipio.gob.mx",
  role: "admin",
};

function attraction(slug: string) {
  const found = SHIPPED.attractions.find((a) => a.slug === slug);
  assert.ok(found, slug);
  return found;
}
const PLAZA = attraction("plaza-principal");
const BARRANCA = attraction("barranca-de-tequila");
const ROJENA = attraction("destileria-la-rojena");

/** A point `metres` north of `place` (1° of latitude is 111.195 km on the mean sphere). */
function north(
  place: { location: { lat: number; lng: number } },
  metres: number,
) {
  return {
    lat: place.location.lat + metres / 111_195,
    lng: place.location.lng,
  };
}

function send(
  ctx: TestContext,
  userId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return ctx.tokenFor(userId).then((token) =>
    postJson(ctx, CHECK_IN, { userId, ...body }, {
      authorization: `Bearer ${token}`,
      ...headers,
    })
  );
}

/** A check-in by code made `agoMs` before the server's now. */
function byCode(ctx: TestContext, code: string, agoMs = 0) {
  return {
    checkInId: crypto.randomUUID(),
    claimedAt: new Date(ctx.clock.now().getTime() - agoMs).toISOString(),
    code,
  };
}

/** A check-in by position at `slug`, `metres` north of it, with `accuracy`. */
function byPosition(
  ctx: TestContext,
  slug: string,
  metres: number,
  accuracy: number | undefined,
) {
  return {
    checkInId: crypto.randomUUID(),
    claimedAt: ctx.clock.now().toISOString(),
    atractivo: slug,
    position: { ...north(attraction(slug), metres), accuracy },
  };
}

function randomWrongCode(): string {
  return `X${crypto.randomUUID().slice(0, 7).toUpperCase()}`;
}

async function setRule(
  ctx: TestContext,
  slug: string,
  method: "code" | "gps" | "gps-or-code",
) {
  await saveCheckInMethod(ctx.deps.kv, {
    slug,
    rule: { method, radiusM: 150 },
    staff: ADMIN,
    now: ctx.clock.now(),
    auditTarget: slug,
  });
}

async function receiptsOf(ctx: TestContext, userId: string) {
  return await Array.fromAsync(
    ctx.deps.kv.list({ prefix: keys.checkInsOfUser(userId) }),
  );
}

async function guessesLeft(ctx: TestContext, userId: string) {
  return (await peekRateLimit(ctx.deps.kv, {
    ...GUIDE_CODE_LIMIT,
    subject: userId,
    now: ctx.clock.now(),
  })).remaining;
}

Deno.test("POST /api/turismo/check-in", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "a code typed two hours ago answers 200 with both times, and the visit keeps them",
    async () => {
      const userId = randomUserId();
      const request = byCode(ctx, " plz4ka ", 2 * HOUR);
      const res = await send(ctx, userId, request);
      const body = await assertJson(res, 200);
      assert.deepEqual(Object.keys(body), [
        "success",
        "checkInId",
        "visitId",
        "atractivo",
        "badge",
        "visitedAt",
        "checkedInAt",
        "method",
      ]);
      assert.equal(body.checkInId, request.checkInId);
      assert.match(body.visitId, UUID);
      assert.equal(body.atractivo, "plaza-principal");
      assert.equal(body.badge, null);
      assert.equal(body.visitedAt, ctx.clock.now().toISOString());
      assert.equal(body.checkedInAt, request.claimedAt);
      assert.equal(body.method, "code");
      const visit = await getVisit(kv, userId, "plaza-principal");
      assert.equal(visit?.visitId, body.visitId);
      assert.equal(visit?.visitedAt, body.visitedAt);
      assert.equal(visit?.checkedInAt, request.claimedAt);
      assert.equal(visit?.method, "code");
    },
  );

  await t.step(
    "ten simultaneous sends of one check-in record one visit and all get the same 200",
    async () => {
      const userId = randomUserId();
      const before = await getAttractionStats(kv, ROJENA.slug);
      const request = byCode(ctx, ROJENA.guideCode, 60_000);
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => send(ctx, userId, request)),
      );
      assert.deepEqual(responses.map((res) => res.status), Array(10).fill(200));
      const texts = await Promise.all(responses.map((res) => res.text()));
      assert.equal(new Set(texts).size, 1, texts.join("\n"));
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 1,
        badgeCount: 0,
      });
      assert.equal(
        (await getAttractionStats(kv, ROJENA.slug)).visitCount,
        before.visitCount + 1,
      );
      // A retry after a lost reply: the same success, not "already stamped".
      ctx.clock.advance(HOUR);
      const again = await send(ctx, userId, request);
      assert.equal(again.status, 200);
      assert.equal(await again.text(), texts[0]);
      assert.equal((await getUserStats(kv, userId)).visitCount, 1);
    },
  );

  await t.step(
    "the same id with another code answers 409 id_reused and changes nothing",
    async () => {
      const userId = randomUserId();
      const request = byCode(ctx, PLAZA.guideCode);
      const first = await assertJson(await send(ctx, userId, request), 200);
      const receipts = await receiptsOf(ctx, userId);
      for (
        const other of [
          { ...request, code: ROJENA.guideCode },
          { ...request, code: randomWrongCode() },
          {
            ...request,
            claimedAt: new Date(Date.parse(request.claimedAt) - 1000)
              .toISOString(),
          },
        ]
      ) {
        const body = await assertJson(await send(ctx, userId, other), 409);
        assert.deepEqual(Object.keys(body).sort(), [
          "details",
          "error",
          "reason",
        ]);
        assert.equal(body.reason, "id_reused");
        assert.match(body.details, /otro código/);
      }
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 1,
        badgeCount: 0,
      });
      assert.equal(await getVisit(kv, userId, ROJENA.slug), null);
      assert.equal(await guessesLeft(ctx, userId), 10);
      assert.deepEqual(await receiptsOf(ctx, userId), receipts);
      const replayed = await assertJson(await send(ctx, userId, request), 200);
      assert.deepEqual(replayed, first);
    },
  );

  await t.step(
    "a wrong code queued answers 404, and its retry the same 404 without counting a second guess",
    async () => {
      const userId = randomUserId();
      const request = byCode(ctx, randomWrongCode(), HOUR);
      const res = await send(ctx, userId, request);
      const body = await assertJson(res, 404);
      assert.deepEqual(Object.keys(body).sort(), [
        "details",
        "error",
        "remainingAttempts",
      ]);
      assert.equal(body.remainingAttempts, 9);
      assert.match(body.details, /código de guía/);
      assert.equal(await guessesLeft(ctx, userId), 9);
      ctx.clock.advance(60_000);
      const again = await send(ctx, userId, request);
      assert.deepEqual(await assertJson(again, 404), body);
      assert.equal(await guessesLeft(ctx, userId), 9);
      // Worded in the retry's language.
      const english = await send(ctx, userId, request, {
        "accept-language": "en",
      });
      const said = await assertJson(english, 404);
      assert.equal(said.remainingAttempts, 9);
      assert.match(said.details, /guide code/);
      assert.equal(await guessesLeft(ctx, userId), 9);
    },
  );

  await t.step(
    "a claimed time over 72 hours old or over 5 minutes ahead answers 422 and writes nothing",
    async () => {
      const userId = randomUserId();
      const cases: [number, string][] = [
        [72 * HOUR + 1_000, "claimed_too_old"],
        [-(5 * 60_000 + 1_000), "claimed_in_future"],
      ];
      for (const [ago, reason] of cases) {
        for (const code of [PLAZA.guideCode, randomWrongCode()]) {
          const request = byCode(ctx, code, ago);
          const body = await assertJson(await send(ctx, userId, request), 422);
          assert.equal(body.reason, reason);
          assert.match(body.details, /^[A-Z].*\.$/);
        }
      }
      assert.equal(await getVisit(kv, userId, PLAZA.slug), null);
      assert.deepEqual(await receiptsOf(ctx, userId), []);
      assert.equal(await guessesLeft(ctx, userId), 10);
      // Within the bounds, the same code counts.
      await assertJson(
        await send(ctx, userId, byCode(ctx, PLAZA.guideCode, 71 * HOUR)),
        200,
      );
      await assertJson(
        await send(ctx, userId, byCode(ctx, ROJENA.guideCode, -4 * 60_000)),
        200,
      );
    },
  );

  await t.step(
    "a code already stamped answers 409 already_visited with the first visit, and so does its retry",
    async () => {
      const userId = randomUserId();
      const first = await assertJson(
        await postAsUser(ctx, VERIFY, userId, {
          code: PLAZA.guideCode,
          userId,
        }),
        200,
      );
      const request = byCode(ctx, PLAZA.guideCode);
      const body = await assertJson(await send(ctx, userId, request), 409);
      assert.equal(body.reason, "already_visited");
      assert.equal(body.visitId, first.visitId);
      assert.equal(body.atractivo, PLAZA.slug);
      const again = await assertJson(await send(ctx, userId, request), 409);
      assert.deepEqual(again, body);
    },
  );

  await t.step(
    "a position within the radius answers 200 by gps; the position is kept nowhere",
    async () => {
      const userId = randomUserId();
      const request = byPosition(ctx, BARRANCA.slug, 100, 12.5);
      const body = await assertJson(await send(ctx, userId, request), 200);
      assert.equal(body.atractivo, BARRANCA.slug);
      assert.equal(body.method, "gps");
      const visit = await getVisitById(kv, body.visitId);
      assert.equal(visit?.method, "gps");
      assert.equal(visit?.checkedInAt, request.claimedAt);
      const stored = JSON.stringify([
        ...(await Array.fromAsync(kv.list({ prefix: [] }))).map((e) => [
          e.key,
          e.value,
        ]),
      ], (_, v) => typeof v === "bigint" ? String(v) : v);
      const { lat, lng } = request.position;
      assert.ok(!stored.includes(String(lat)), "latitude stored");
      assert.ok(!stored.includes(String(lng)), "longitude stored");
    },
  );

  await t.step(
    "a position outside the radius, allowing for up to 100 m of accuracy, answers 422 outside_radius",
    async () => {
      const cases: [number, number, number][] = [
        // metres away, accuracy, status
        [140, 5, 200],
        [240, 100, 200],
        [240, 500, 200],
        [260, 500, 422],
        [300, 10, 422],
      ];
      for (const [metres, accuracy, status] of cases) {
        const userId = randomUserId();
        const res = await send(
          ctx,
          userId,
          byPosition(ctx, BARRANCA.slug, metres, accuracy),
        );
        const body = await assertJson(res, status);
        if (status === 422) {
          assert.equal(body.reason, "outside_radius");
          assert.equal(body.radiusM, 150);
          assert.ok(Math.abs(body.distanceM - metres) <= 1, body.distanceM);
          assert.match(body.details, new RegExp(`${body.distanceM} m`));
          assert.equal(await getVisit(kv, userId, BARRANCA.slug), null);
        }
      }
    },
  );

  await t.step(
    "a position with no accuracy, or one worse than 1 km, answers 422",
    async () => {
      const userId = randomUserId();
      const none = await assertJson(
        await send(ctx, userId, byPosition(ctx, BARRANCA.slug, 10, undefined)),
        422,
      );
      assert.equal(none.reason, "accuracy_missing");
      const poor = await assertJson(
        await send(ctx, userId, byPosition(ctx, BARRANCA.slug, 10, 1001)),
        422,
      );
      assert.equal(poor.reason, "accuracy_too_poor");
      await assertJson(
        await send(ctx, userId, byPosition(ctx, BARRANCA.slug, 10, 1000)),
        200,
      );
    },
  );

  await t.step(
    "two check-ins 2.7 km apart one minute apart answer 422 too_fast, by position or code",
    async () => {
      await setRule(ctx, PLAZA.slug, "gps-or-code");
      try {
        const gps = randomUserId();
        await assertJson(
          await send(ctx, gps, byPosition(ctx, BARRANCA.slug, 0, 10)),
          200,
        );
        ctx.clock.advance(60_000);
        const fast = await assertJson(
          await send(ctx, gps, byPosition(ctx, PLAZA.slug, 0, 10)),
          422,
        );
        assert.equal(fast.reason, "too_fast");
        assert.equal(await getVisit(kv, gps, PLAZA.slug), null);
        // Half an hour later it is a walk.
        ctx.clock.advance(30 * 60_000);
        await assertJson(
          await send(ctx, gps, byPosition(ctx, PLAZA.slug, 0, 10)),
          200,
        );

        const code = randomUserId();
        await assertJson(
          await postAsUser(ctx, VERIFY, code, {
            code: PLAZA.guideCode,
            userId: code,
          }),
          200,
        );
        ctx.clock.advance(60_000);
        const after = await assertJson(
          await send(ctx, code, byPosition(ctx, BARRANCA.slug, 0, 10)),
          422,
        );
        assert.equal(after.reason, "too_fast");
      } finally {
        await setRule(ctx, PLAZA.slug, "code");
      }
    },
  );

  await t.step(
    "at a GPS-only attraction a code is refused on both endpoints; at a code-only one a position is",
    async () => {
      await setRule(ctx, ROJENA.slug, "gps");
      const userId = randomUserId();
      const verify = await assertJson(
        await postAsUser(ctx, VERIFY, userId, {
          code: ROJENA.guideCode,
          userId,
        }),
        422,
      );
      assert.equal(verify.reason, "code_not_accepted");
      assert.match(verify.details, /Estoy aquí/);
      const queued = await assertJson(
        await send(ctx, userId, byCode(ctx, ROJENA.guideCode)),
        422,
      );
      assert.equal(queued.reason, "code_not_accepted");
      assert.equal(await getVisit(kv, userId, ROJENA.slug), null);
      assert.equal(await guessesLeft(ctx, userId), 10);

      const position = await assertJson(
        await send(ctx, userId, byPosition(ctx, PLAZA.slug, 0, 10)),
        422,
      );
      assert.equal(position.reason, "position_not_accepted");
      assert.equal(await getVisit(kv, userId, PLAZA.slug), null);
    },
  );

  await t.step(
    "an admin's switch of the method applies on the very next check-in",
    async () => {
      const userId = randomUserId();
      // Rojeña is GPS-only since the step before.
      await assertJson(
        await send(ctx, userId, byPosition(ctx, ROJENA.slug, 20, 10)),
        200,
      );
      await setRule(ctx, ROJENA.slug, "code");
      const other = randomUserId();
      await assertJson(
        await send(ctx, other, byPosition(ctx, ROJENA.slug, 20, 10)),
        422,
      );
      await assertJson(
        await send(ctx, other, byCode(ctx, ROJENA.guideCode)),
        200,
      );
    },
  );

  await t.step(
    "wrong codes queued and typed live share one lockout",
    async () => {
      const userId = randomUserId();
      for (let i = 0; i < 5; i++) {
        await assertJson(
          await postAsUser(ctx, VERIFY, userId, {
            code: randomWrongCode(),
            userId,
          }),
          404,
        );
        await assertJson(
          await send(ctx, userId, byCode(ctx, randomWrongCode())),
          404,
        );
      }
      const queued = await send(ctx, userId, byCode(ctx, PLAZA.guideCode));
      await assertJson(queued, 429);
      assert.ok(Number(queued.headers.get("retry-after")) >= 1);
      await assertJson(
        await postAsUser(ctx, VERIFY, userId, {
          code: PLAZA.guideCode,
          userId,
        }),
        429,
      );
      assert.equal(await getVisit(kv, userId, PLAZA.slug), null);
      // Not kept: the same check-in counts once the lockout ends.
      const request = byCode(ctx, ROJENA.guideCode);
      await assertJson(await send(ctx, userId, request), 429);
      ctx.clock.advance(10 * 60_000);
      await assertJson(await send(ctx, userId, request), 200);
    },
  );

  await t.step(
    "a malformed check-in answers 400 naming the field",
    async () => {
      const userId = randomUserId();
      const base = byCode(ctx, PLAZA.guideCode);
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, checkInId: "uno" }, "checkInId"],
        [{ ...base, claimedAt: "ayer" }, "claimedAt"],
        [{ ...base, claimedAt: undefined }, "claimedAt"],
        [{ ...base, code: undefined }, "code"],
        [
          { ...base, position: { lat: 20.9, lng: -103.8, accuracy: 5 } },
          "code",
        ],
        [
          { ...byPosition(ctx, BARRANCA.slug, 0, 5), atractivo: undefined },
          "atractivo",
        ],
        [{
          ...byPosition(ctx, BARRANCA.slug, 0, 5),
          position: { lat: 91, lng: 0, accuracy: 5 },
        }, "position.lat"],
      ];
      for (const [payload, field] of cases) {
        const body = await assertJson(await send(ctx, userId, payload), 400);
        assert.equal(body.field, field, JSON.stringify(payload));
        assert.match(body.details, /^[A-ZÁÉÍÓÚ«].*\.$/);
      }
      assert.deepEqual(await receiptsOf(ctx, userId), []);
      const stranger = await postJson(ctx, CHECK_IN, { ...base, userId });
      await assertJson(stranger, 401);
      const other = await postAsUser(ctx, CHECK_IN, userId, {
        ...base,
        userId: randomUserId(),
      });
      await assertJson(other, 403);
    },
  );
});

Deno.test("POST /api/turismo/check-in: replaced guide codes as of the claimed time", async (t) => {
  await using ctx = await createTestContext();
  const deps = { kv: ctx.deps.kv, data: ctx.deps.data, now: ctx.clock.now };

  await t.step(
    "a code in its grace period counts after the grace ended if it was typed before",
    async () => {
      const { slug, guideCode } = attraction("mercado-municipal");
      await replaceGuideCode(deps, { slug, graceDays: 1, staff: ADMIN });
      const graceEnd = ctx.clock.now().getTime() + 24 * HOUR;
      ctx.clock.advance(24 * HOUR + HOUR);
      const late = randomUserId();
      const typed = new Date(graceEnd - HOUR).toISOString();
      const body = await assertJson(
        await send(ctx, late, {
          checkInId: crypto.randomUUID(),
          claimedAt: typed,
          code: guideCode,
        }),
        200,
      );
      assert.equal(body.atractivo, slug);
      assert.equal(body.checkedInAt, typed);
      // Typed after the grace ended: refused; live, too.
      const after = randomUserId();
      await assertJson(
        await send(ctx, after, {
          checkInId: crypto.randomUUID(),
          claimedAt: new Date(graceEnd + 1_000).toISOString(),
          code: guideCode,
        }),
        404,
      );
      await assertJson(
        await postAsUser(ctx, VERIFY, after, {
          code: guideCode,
          userId: after,
        }),
        404,
      );
    },
  );

  await t.step(
    "a grace code is still found by a check-in synced 71 hours after the grace ended",
    async () => {
      const { slug, guideCode } = attraction("casa-de-la-cultura");
      await replaceGuideCode(deps, { slug, graceDays: 1, staff: ADMIN });
      const graceEnd = ctx.clock.now().getTime() + 24 * HOUR;
      ctx.clock.advance(24 * HOUR + 70 * HOUR);
      const body = await assertJson(
        await send(ctx, randomUserId(), {
          checkInId: crypto.randomUUID(),
          claimedAt: new Date(graceEnd - 60_000).toISOString(),
          code: guideCode,
        }),
        200,
      );
      assert.equal(body.atractivo, slug);
    },
  );

  await t.step(
    "a leaked code (cut without grace) is refused even when typed before the replacement",
    async () => {
      const { slug, guideCode } = attraction("capilla-del-calvario");
      const before = new Date(ctx.clock.now().getTime() - HOUR).toISOString();
      await replaceGuideCode(deps, { slug, graceDays: 0, staff: ADMIN });
      const userId = randomUserId();
      await assertJson(
        await send(ctx, userId, {
          checkInId: crypto.randomUUID(),
          claimedAt: before,
          code: guideCode,
        }),
        404,
      );
      assert.equal(await getVisit(ctx.deps.kv, userId, slug), null);
    },
  );
});

Deno.test("POST /api/turismo/check-in: a retry on a second instance on the same KV file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "check_in_" });
  try {
    const path = `${dir}/turismo.kv`;
    await using one = await createTestContext({ kvPath: path });
    await using two = await createTestContext({
      kvPath: path,
      clockStart: one.clock.now(),
    });
    const userId = randomUserId();
    const request = byCode(one, PLAZA.guideCode, 5 * 60_000);
    const first = await send(one, userId, request);
    assert.equal(first.status, 200);
    const text = await first.text();
    // The reply was lost; the queue sends it again through another instance.
    const again = await send(two, userId, request);
    assert.equal(again.status, 200);
    assert.equal(await again.text(), text);
    // And a burst on both at once: still one visit.
    const other = byCode(one, ROJENA.guideCode);
    const responses = await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => send(i % 2 ? two : one, userId, other),
      ),
    );
    const texts = await Promise.all(responses.map((res) => res.text()));
    assert.deepEqual(responses.map((res) => res.status), Array(10).fill(200));
    assert.equal(new Set(texts).size, 1);
    assert.deepEqual(await getUserStats(two.deps.kv, userId), {
      visitCount: 2,
      badgeCount: 0,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("POST /api/turismo/check-in: the export shows both times, erasure removes the receipts", async () => {
  await using ctx = await createTestContext();
  const userId = randomUserId();
  const request = byCode(ctx, PLAZA.guideCode, 3 * HOUR);
  const answer = await assertJson(await send(ctx, userId, request), 200);
  const token = await ctx.tokenFor(userId);
  const res = await ctx.app.request(`/api/turismo/users/${userId}/data`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const exported = await assertJson(res, 200);
  assert.deepEqual(
    exported.visits.map((
      v: { visitedAt: string; checkedInAt: string; method: string },
    ) => [v.visitedAt, v.checkedInAt, v.method]),
    [[answer.visitedAt, request.claimedAt, "code"]],
  );
  assert.deepEqual(exported.checkIns, [{
    checkInId: request.checkInId,
    answeredAt: answer.visitedAt,
    status: 200,
  }]);
  assert.ok(!JSON.stringify(exported).includes(PLAZA.guideCode));

  const erase = await postJson(
    ctx,
    `/api/turismo/users/${userId}/erase`,
    {},
    { authorization: `Bearer ${token}` },
  );
  await assertJson(erase, 202);
  ctx.clock.advance(ERASURE_CACHE_GRACE_MS);
  await ctx.deps.personalData.runPending();
  assert.deepEqual(await receiptsOf(ctx, userId), []);
  assert.equal(await getVisit(ctx.deps.kv, userId, PLAZA.slug), null);
});

Deno.test("the privacy notice says the position decides a check-in and is not kept", async () => {
  await using ctx = await createTestContext();
  const res = await ctx.app.request("/aviso-de-privacidad");
  assert.equal(res.status, 200);
  const text = (await res.text()).replace(/<[^>]+>/g, " ");
  assert.match(
    text,
    /«Estoy aquí», tu teléfono nos envía tu ubicación una sola vez: la usamos solo para comprobar que estás en el atractivo y no la guardamos/,
  );
  assert.match(text, /Respuestas a tus registros de visita/);
});

Deno.test("POST /api/turismo/check-in: back-dated claims are held to what the server saw, across two instances", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "check_in_" });
  try {
    const path = `${dir}/turismo.kv`;
    await using one = await createTestContext({ kvPath: path });
    await using two = await createTestContext({
      kvPath: path,
      clockStart: one.clock.now(),
    });
    const both = [one, two];
    const advance = (ms: number) =>
      both.forEach((ctx) => ctx.clock.advance(ms));
    /** A position check-in at `slug`, claimed `agoMs` before now. */
    const at = (slug: string, agoMs: number) => ({
      ...byPosition(one, slug, 0, 10),
      claimedAt: new Date(one.clock.now().getTime() - agoMs).toISOString(),
    });
    const VOLCAN = attraction("volcan-de-tequila");
    const LA_VEGA = attraction("balneario-termal-la-vega");
    const MINAS = attraction("minas-de-opalo-magdalena");

    await t.step(
      "the finding: a code stamp, then three position check-ins claimed 71, 60 and 36 h back within a second: all refused too_fast",
      async () => {
        const userId = randomUserId();
        await assertJson(
          await postAsUser(one, VERIFY, userId, {
            code: PLAZA.guideCode,
            userId,
          }),
          200,
        );
        advance(13 * 60_000);
        // The Volcán 10 km from the plaza; La Vega 28 km from the plaza and
        // 18 km from the Volcán; the canyon 31 km from La Vega. Each claims a time
        // before the code stamp the server already holds, so it counts as
        // made when that stamp arrived: 13 minutes are no time for any of it.
        const refused = [];
        for (
          const [i, request] of [
            at(VOLCAN.slug, 71 * HOUR),
            at(LA_VEGA.slug, 60 * HOUR),
            at(BARRANCA.slug, 36 * HOUR),
          ].entries()
        ) {
          const body = await assertJson(
            await send(both[i % 2], userId, request),
            422,
          );
          refused.push(body.reason);
          advance(26);
        }
        assert.deepEqual(refused, ["too_fast", "too_fast", "too_fast"]);
        assert.deepEqual(await getUserStats(one.deps.kv, userId), {
          visitCount: 1,
          badgeCount: 0,
        });
      },
    );

    await t.step(
      "a day offline synced at once, oldest first, is accepted on either instance",
      async () => {
        const userId = randomUserId();
        const day = [
          at(VOLCAN.slug, 9 * HOUR),
          at(BARRANCA.slug, 7 * HOUR),
          at(MINAS.slug, 5 * HOUR),
          at(LA_VEGA.slug, 3 * HOUR),
        ];
        for (const [i, request] of day.entries()) {
          await assertJson(await send(both[i % 2], userId, request), 200);
          advance(26);
        }
        // And a code typed now, live.
        await assertJson(
          await send(two, userId, byCode(two, PLAZA.guideCode)),
          200,
        );
        assert.equal((await getUserStats(one.deps.kv, userId)).visitCount, 5);
      },
    );

    await t.step(
      "the same claims out of order: one older than a stamp received counts as of that stamp's arrival",
      async () => {
        const userId = randomUserId();
        await assertJson(
          await send(one, userId, at(LA_VEGA.slug, 3 * HOUR)),
          200,
        );
        advance(26);
        // Claimed 9 h back, but La Vega (claimed 3 h back) is already in:
        // judged as made now, 3 h after La Vega, 18 km away: a drive.
        const volcan = await assertJson(
          await send(two, userId, at(VOLCAN.slug, 9 * HOUR)),
          200,
        );
        assert.equal(volcan.checkedInAt, at(VOLCAN.slug, 9 * HOUR).claimedAt);
        advance(26);
        // Claimed 7 h back: as of the Volcán's arrival 26 ms ago, 13 km off.
        const canyon = await assertJson(
          await send(one, userId, at(BARRANCA.slug, 7 * HOUR)),
          422,
        );
        assert.equal(canyon.reason, "too_fast");
        // Still claimed 7 h back two hours on: still as of the Volcán's
        // arrival. Checked in now, the canyon is a drive away.
        advance(2 * HOUR);
        await assertJson(
          await send(two, userId, at(BARRANCA.slug, 7 * HOUR)),
          422,
        );
        await assertJson(await send(two, userId, at(BARRANCA.slug, 0)), 200);
      },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("POST /api/turismo/check-in: 10,000 refused check-ins of one passport keep its last 20 receipts", async () => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;
  const userId = randomUserId();
  const token = await ctx.tokenFor(userId);
  const post = (body: Record<string, unknown>) =>
    postJson(ctx, CHECK_IN, { userId, ...body }, {
      authorization: `Bearer ${token}`,
    });
  const accepted = byCode(ctx, PLAZA.guideCode);
  await assertJson(await post(accepted), 200);
  // Every kind of refusal a device can send over and over: 409 (stamped
  // already) and 422 (a position at a code-only attraction), new ids each.
  const refusals = [
    () => byCode(ctx, PLAZA.guideCode),
    () => byPosition(ctx, ROJENA.slug, 0, 10),
  ];
  const statuses = new Map<number, number>();
  type Sent = { request: Record<string, unknown>; text: string };
  let last: Sent | null = null;
  let kept: Sent | null = null;
  for (let i = 0; i < 10_000; i++) {
    const request = refusals[i % 2]();
    const res = await post(request);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const text = await res.text();
    if (i === 10_000 - MAX_REFUSAL_RECEIPTS) kept = { request, text };
    last = { request, text };
  }
  assert.deepEqual([...statuses], [[409, 5_000], [422, 5_000]]);

  const lines = (await dumpKv(kv)).filter((line) => line.includes(userId));
  const receipts = lines.filter((line) => line.startsWith('[["check_ins"'));
  const ledger = lines.filter((line) =>
    line.startsWith('[["check_in_refusals"')
  );
  const refused = receipts.filter((line) => !line.includes('"status":200'));
  const bytes = [...refused, ...ledger].reduce((n, l) => n + l.length, 0);
  console.log(
    `10,000 refusals leave ${refused.length} refusal receipts and 1 ledger: ${bytes} bytes as JSON`,
  );
  assert.equal(receipts.length, 1 + MAX_REFUSAL_RECEIPTS);
  assert.equal(refused.length, MAX_REFUSAL_RECEIPTS);
  assert.equal(ledger.length, 1);
  assert.ok(bytes <= 10_000, `${bytes} bytes`);

  // Exactly once still holds for the kept ones, the oldest of them too.
  for (const { request, text } of [kept!, last!]) {
    const again = await post(request);
    assert.equal(await again.text(), text);
  }
  const first = await post(accepted);
  assert.equal(first.status, 200);
  assert.equal((await getUserStats(kv, userId)).visitCount, 1);
  // An older refusal sent again is judged again (and answered the same).
  assert.equal(
    (await receiptsOf(ctx, userId)).length,
    1 + MAX_REFUSAL_RECEIPTS,
  );
});

Deno.test("POST /api/turismo/check-in: a guest's receipts move with the merge into an account", async () => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;
  const guest = randomUserId();
  const account = randomUserId();
  await assertJson(
    await send(ctx, account, byCode(ctx, ROJENA.guideCode)),
    200,
  );
  // The guest's queue: a stamp, a refusal, a wrong code, a stamp the
  // account has already.
  const requests = [
    byCode(ctx, PLAZA.guideCode, 5 * 60_000),
    byPosition(ctx, ROJENA.slug, 0, 10),
    byCode(ctx, randomWrongCode()),
    byCode(ctx, ROJENA.guideCode),
  ];
  const before = [];
  for (const request of requests) {
    const res = await send(ctx, guest, request);
    before.push([res.status, await res.text()]);
  }
  assert.deepEqual(before.map(([status]) => status), [200, 422, 404, 200]);
  const left = await guessesLeft(ctx, account);

  ctx.clock.advance(HOUR);
  await mergePassports(kv, {
    from: guest,
    into: account,
    now: ctx.clock.now(),
    totalAttractions: ctx.deps.data.current().totalAttractions,
  });

  // Signed in, the queue sends them again as the account: the same answers.
  const after = [];
  for (const request of requests) {
    const res = await send(ctx, account, request);
    after.push([res.status, await res.text()]);
  }
  assert.deepEqual(after, before);
  assert.deepEqual(await receiptsOf(ctx, guest), []);
  assert.equal(
    await kv.get(keys.checkInRefusals(guest)).then((e) => e.value),
    null,
  );
  assert.equal((await getUserStats(kv, account)).visitCount, 2);
  assert.equal(await guessesLeft(ctx, account), left);
  assert.equal((await receiptsOf(ctx, account)).length, 5);
});

Deno.test("POST /api/turismo/check-in: a merge keeps the last 20 refusals of both passports", async () => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;
  const guest = randomUserId();
  const account = randomUserId();
  const refuse = async (userId: string) => {
    const request = byPosition(ctx, PLAZA.slug, 0, 10);
    const res = await send(ctx, userId, request);
    await assertJson(res.clone(), 422);
    ctx.clock.advance(1_000);
    return { request, text: await res.text() };
  };
  const accountFirst = [];
  for (let i = 0; i < 10; i++) accountFirst.push(await refuse(account));
  const fromGuest = [];
  for (let i = 0; i < 15; i++) fromGuest.push(await refuse(guest));
  await mergePassports(kv, {
    from: guest,
    into: account,
    now: ctx.clock.now(),
    totalAttractions: ctx.deps.data.current().totalAttractions,
  });
  assert.deepEqual(await receiptsOf(ctx, guest), []);
  const kept = new Set(
    (await receiptsOf(ctx, account)).map((entry) => String(entry.key[2])),
  );
  const expected = [...accountFirst.slice(5), ...fromGuest];
  assert.equal(kept.size, MAX_REFUSAL_RECEIPTS);
  assert.deepEqual(
    expected.map(({ request }) => kept.has(request.checkInId)),
    Array(20).fill(true),
  );
  const ledger = await kv.get<{ refusals: { checkInId: string }[] }>(
    keys.checkInRefusals(account),
  );
  assert.deepEqual(
    ledger.value?.refusals.map((refusal) => refusal.checkInId),
    expected.map(({ request }) => request.checkInId),
  );
  // The guest's latest, sent again as the account: the same answer.
  const again = await send(ctx, account, fromGuest.at(-1)!.request);
  assert.equal(await again.text(), fromGuest.at(-1)!.text);
});

Deno.test("POST /api/turismo/check-in from a known address: a code counts against both limits", async (t) => {
  // With a client address, a named check-in by code reads the most keys of
  // any visit (both rate limits, the code's entries, the rule, the receipt
  // and the refusal ledger): app.request alone has no address.
  await using ctx = await createTestContext({ env: { TRUST_PROXY: "1" } });
  const from = { "x-forwarded-for": "203.0.113.7" };

  await t.step("a right code answers 200 and a wrong one 404", async () => {
    const userId = randomUserId();
    const right = await assertJson(
      await send(ctx, userId, byCode(ctx, PLAZA.guideCode), from),
      200,
    );
    assert.equal(right.atractivo, PLAZA.slug);
    const wrong = await assertJson(
      await send(ctx, userId, byCode(ctx, randomWrongCode()), from),
      404,
    );
    assert.equal(typeof wrong.error, "string");
    const byAddress = await peekRateLimit(ctx.deps.kv, {
      ...GUIDE_CODE_ADDRESS_LIMIT,
      subject: "203.0.113.7",
      now: ctx.clock.now(),
    });
    assert.equal(byAddress.remaining, GUIDE_CODE_ADDRESS_LIMIT.limit - 1);
  });
});
