import assert from "node:assert/strict";
import { peekRateLimit } from "@/lib/db/rate_limits.ts";
import {
  getAttractionStats,
  getUserStats,
  getVisit,
  getVisitById,
} from "@/lib/db/visits.ts";
import { getTouristRoute } from "@/lib/passport/tourist_route.ts";
import { GUIDE_CODE_LIMIT } from "@/lib/check_in/rules.ts";
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

const VERIFY = "/api/turismo/verify-visit";
/** The shipped data set's guide codes, in file order: the test reads the secret file itself. */
const ATTRACTIONS = SHIPPED.attractions;

function verify(ctx: TestContext, userId: string, code: string) {
  return postAsUser(ctx, VERIFY, userId, { code, userId });
}

function randomWrongCode(): string {
  return `X${crypto.randomUUID().slice(0, 7).toUpperCase()}`;
}

/** Fires every attraction's code at once for one user; checks count and badges. */
async function assertAllAtOnce(ctx: TestContext) {
  const userId = randomUserId();
  const responses = await Promise.all(
    ATTRACTIONS.map((a) => verify(ctx, userId, a.guideCode)),
  );
  const bodies = await Promise.all(
    responses.map((res) => assertJson(res, 200)),
  );
  assert.deepEqual(
    bodies.map((b) => b.atractivo).sort(),
    ATTRACTIONS.map((a) => a.slug).sort(),
  );
  assert.equal(new Set(bodies.map((b) => b.visitId)).size, ATTRACTIONS.length);
  const badges = bodies.filter((b) => b.badge).map((b) => b.badge.id).sort();
  assert.deepEqual(badges, ["explorador", "leyenda", "veterano"]);
  const stats = await getUserStats(ctx.deps.kv, userId);
  assert.deepEqual(stats, { visitCount: 17, badgeCount: 3 });
  const route = await getTouristRoute(
    ctx.deps.kv,
    userId,
    ctx.deps.data.current(),
  );
  assert.equal(route.visitCount, 17);
  assert.equal(route.completionPercent, 100);
  assert.deepEqual(route.badges.map((b) => b.id), [
    "explorador",
    "veterano",
    "leyenda",
  ]);
}

/** Fires one code twenty times at once for one user: one 200, nineteen 409. */
async function assertOneCodeAtOnce(ctx: TestContext) {
  const userId = randomUserId();
  const { slug, guideCode } = ATTRACTIONS[3];
  const before = await getAttractionStats(ctx.deps.kv, slug);
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => verify(ctx, userId, guideCode)),
  );
  const statuses = responses.map((res) => res.status).sort();
  assert.deepEqual(statuses, [200, ...Array(19).fill(409)]);
  const bodies = await Promise.all(responses.map((res) => res.json()));
  const created = bodies.find((b) => b.success);
  for (const body of bodies.filter((b) => !b.success)) {
    assert.equal(body.visitId, created.visitId);
    assert.equal(body.atractivo, slug);
  }
  assert.equal((await getUserStats(ctx.deps.kv, userId)).visitCount, 1);
  assert.equal(
    (await getAttractionStats(ctx.deps.kv, slug)).visitCount,
    before.visitCount + 1,
  );
}

Deno.test("POST /api/turismo/verify-visit", async (t) => {
  await using ctx = await createTestContext();
  const { kv } = ctx.deps;

  await t.step(
    "a right code, in any case and with spaces, answers 200 and records the visit",
    async () => {
      const userId = randomUserId();
      const res = await verify(ctx, userId, "  plz4ka ");
      const body = await assertJson(res, 200);
      assert.deepEqual(Object.keys(body).sort(), [
        "atractivo",
        "badge",
        "success",
        "visitId",
      ]);
      assert.equal(body.success, true);
      assert.match(body.visitId, UUID);
      assert.equal(body.atractivo, "plaza-principal");
      assert.equal(body.badge, null);

      const visit = await getVisit(kv, userId, "plaza-principal");
      assert.equal(visit?.visitId, body.visitId);
      assert.equal(visit?.visitedAt, ctx.clock.now().toISOString());
      assert.deepEqual(await getVisitById(kv, body.visitId), visit);
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 1,
        badgeCount: 0,
      });
      assert.deepEqual(await getAttractionStats(kv, "plaza-principal"), {
        visitCount: 1,
        ratingCount: 0,
        ratingSum: 0,
        averageRating: null,
      });
      const route = await getTouristRoute(kv, userId, ctx.deps.data.current());
      assert.deepEqual(route.visits, [{
        visitId: body.visitId,
        slug: "plaza-principal",
        name: ATTRACTIONS[0].name,
        visitedAt: ctx.clock.now().toISOString(),
        rating: null,
        notes: null,
      }]);
      assert.equal(route.completionPercent, 5);
    },
  );

  await t.step(
    "the same code twice answers 409 with the first visitId, and records nothing more",
    async () => {
      const userId = randomUserId();
      const first = await assertJson(await verify(ctx, userId, "SNTG7A"), 200);
      const statsBefore = await getAttractionStats(kv, first.atractivo);
      ctx.clock.advance(60_000);
      const again = await assertJson(await verify(ctx, userId, "sntg7a"), 409);
      assert.deepEqual(Object.keys(again).sort(), [
        "atractivo",
        "details",
        "error",
        "visitId",
      ]);
      assert.equal(again.error, "Conflicto");
      assert.equal(again.visitId, first.visitId);
      assert.equal(again.atractivo, "parroquia-santiago-apostol");
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 1,
        badgeCount: 0,
      });
      assert.deepEqual(
        await getAttractionStats(kv, first.atractivo),
        statsBefore,
      );
      const visit = await getVisit(kv, userId, first.atractivo);
      assert.equal(visit?.visitId, first.visitId);
    },
  );

  await t.step(
    "the 5th, 10th and 17th visits unlock Explorador, Veterano and Leyenda, the others none",
    async () => {
      const userId = randomUserId();
      const badges: unknown[] = [];
      for (const attraction of ATTRACTIONS) {
        ctx.clock.advance(1_000);
        const body = await assertJson(
          await verify(ctx, userId, attraction.guideCode),
          200,
        );
        badges.push(body.badge);
      }
      const expected = Array(17).fill(null);
      expected[4] = { id: "explorador", name: "Explorador", icon: "🧭" };
      expected[9] = { id: "veterano", name: "Veterano", icon: "🎖️" };
      expected[16] = { id: "leyenda", name: "Leyenda", icon: "👑" };
      assert.deepEqual(badges, expected);

      const route = await getTouristRoute(kv, userId, ctx.deps.data.current());
      assert.deepEqual(
        route.visits.map((v) => v.slug),
        ATTRACTIONS.map((a) => a.slug),
      );
      assert.deepEqual(route.badges.map((b) => [b.id, b.unlockedAt]), [
        ["explorador", route.visits[4].visitedAt],
        ["veterano", route.visits[9].visitedAt],
        ["leyenda", route.visits[16].visitedAt],
      ]);
      assert.equal(route.visitCount, 17);
      assert.equal(route.totalAttractions, 17);
      assert.equal(route.completionPercent, 100);
    },
  );

  await t.step(
    "all 17 codes at once count 17 and unlock each badge in exactly one response",
    async () => {
      await assertAllAtOnce(ctx);
    },
  );

  await t.step(
    "twenty simultaneous requests with one code give one 200 and nineteen 409",
    async () => {
      await assertOneCodeAtOnce(ctx);
    },
  );

  await t.step(
    "on a KV file, concurrent verifications are just as exact",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "verify_visit_" });
      try {
        await using fileCtx = await createTestContext({
          kvPath: `${dir}/turismo.kv`,
        });
        await assertAllAtOnce(fileCtx);
        await assertOneCodeAtOnce(fileCtx);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "an unknown code answers 404 and records no visit",
    async () => {
      const userId = randomUserId();
      const body = await assertJson(
        await verify(ctx, userId, randomWrongCode()),
        404,
      );
      assert.deepEqual(Object.keys(body).sort(), [
        "details",
        "error",
        "remainingAttempts",
      ]);
      assert.equal(body.error, "No encontrado");
      assert.match(body.details, /código de guía/);
      assert.equal(body.remainingAttempts, 9);
      assert.deepEqual(await getUserStats(kv, userId), {
        visitCount: 0,
        badgeCount: 0,
      });
    },
  );

  await t.step(
    "the 11th wrong code in 10 minutes answers 429 with Retry-After, and so does a right one",
    async () => {
      const userId = randomUserId();
      const start = ctx.clock.now().getTime();
      for (let i = 0; i < 10; i++) {
        await assertJson(await verify(ctx, userId, randomWrongCode()), 404);
        ctx.clock.advance(30_000);
      }
      // Five minutes after the first failure: it leaves the window in 300 s.
      assert.equal(ctx.clock.now().getTime() - start, 300_000);
      const wrong = await verify(ctx, userId, randomWrongCode());
      const body = await assertJson(wrong, 429);
      assert.deepEqual(Object.keys(body).sort(), ["details", "error"]);
      assert.equal(body.error, "Demasiadas solicitudes");
      assert.equal(wrong.headers.get("retry-after"), "300");

      ctx.clock.advance(100_000);
      const right = await verify(ctx, userId, "PMR3XW");
      await assertJson(right, 429);
      assert.equal(right.headers.get("retry-after"), "200");
      assert.equal(await getVisit(kv, userId, "presidencia-municipal"), null);
    },
  );

  await t.step(
    "once the oldest failure leaves the window, a right code works again",
    async () => {
      const userId = randomUserId();
      for (let i = 0; i < 10; i++) {
        await assertJson(await verify(ctx, userId, randomWrongCode()), 404);
      }
      const locked = await verify(ctx, userId, "MNT8Q2");
      await assertJson(locked, 429);
      const wait = Number(locked.headers.get("retry-after"));
      assert.equal(wait, 600);
      ctx.clock.advance(wait * 1000 - 1_000);
      await assertJson(await verify(ctx, userId, "MNT8Q2"), 429);
      ctx.clock.advance(1_000);
      const body = await assertJson(await verify(ctx, userId, "MNT8Q2"), 200);
      assert.equal(body.atractivo, "museo-nacional-del-tequila");
    },
  );

  await t.step(
    "thirty wrong codes at once: exactly 10 answer 404 and 20 answer 429",
    async () => {
      const userId = randomUserId();
      const responses = await Promise.all(
        Array.from(
          { length: 30 },
          () => verify(ctx, userId, randomWrongCode()),
        ),
      );
      const statuses = responses.map((res) => res.status);
      assert.equal(statuses.filter((s) => s === 404).length, 10);
      assert.equal(statuses.filter((s) => s === 429).length, 20);
      await Promise.all(responses.map((res) => res.body?.cancel()));
      const left = await peekRateLimit(kv, {
        ...GUIDE_CODE_LIMIT,
        subject: userId,
        now: ctx.clock.now(),
      });
      assert.equal(left.allowed, false);
    },
  );

  await t.step(
    "one user's wrong codes do not lock out another user",
    async () => {
      const guesser = randomUserId();
      const other = randomUserId();
      for (let i = 0; i < 11; i++) {
        await verify(ctx, guesser, randomWrongCode());
      }
      await assertJson(await verify(ctx, guesser, "MRC5DT"), 429);
      await assertJson(await verify(ctx, other, "MRC5DT"), 200);
    },
  );

  await t.step(
    "without a token, or with a bad one, answers 401 with WWW-Authenticate",
    async () => {
      const userId = randomUserId();
      const cases: Record<string, string>[] = [
        {},
        { authorization: "Bearer not.a.jwt" },
        { authorization: `Basic ${btoa("a:b")}` },
        {
          authorization: `Bearer ${
            (await ctx.tokenFor(userId)).slice(0, -4)
          }AAAA`,
        },
      ];
      for (const headers of cases) {
        const res = await postJson(
          ctx,
          VERIFY,
          { code: "PLZ4KA", userId },
          headers,
        );
        const body = await assertJson(res, 401);
        assert.equal(body.error, "No autorizado");
        assert.match(res.headers.get("www-authenticate")!, /^Bearer /);
      }
      // Even a bad body is a 401 first: nothing is said to strangers.
      const res = await postJson(ctx, VERIFY, { code: 7 });
      await assertJson(res, 401);
      assert.equal(await getVisit(kv, userId, "plaza-principal"), null);
    },
  );

  await t.step(
    "a missing or wrong-typed field answers 400 naming it",
    async () => {
      const userId = randomUserId();
      const cases: [unknown, string][] = [
        [{ userId }, "code"],
        [{ code: 123456, userId }, "code"],
        [{ code: "x".repeat(65), userId }, "code"],
        [{ code: "PLZ4KA" }, "userId"],
        [{ code: "PLZ4KA", userId: "usuario-1" }, "userId"],
        [{ code: "PLZ4KA", userId: 42 }, "userId"],
      ];
      for (const [payload, field] of cases) {
        const res = await postAsUser(ctx, VERIFY, userId, payload);
        const body = await assertJson(res, 400);
        assert.equal(body.field, field, JSON.stringify(payload));
        // A Spanish sentence (each one: tests/api/validation_messages_test.ts).
        assert.match(body.details, /^[A-ZÁÉÍÓÚ].*\.$/);
      }
      const body = await assertJson(
        await postAsUser(ctx, VERIFY, userId, [1, 2]),
        400,
      );
      assert.equal(body.error, "Solicitud no válida");
      assert.equal(await getVisit(kv, userId, "plaza-principal"), null);
    },
  );

  await t.step(
    "a userId other than the token's answers 403 and writes nothing",
    async () => {
      const me = randomUserId();
      const victim = randomUserId();
      const statsBefore = await getAttractionStats(kv, "casa-de-la-cultura");
      for (const code of ["CSC2UL", randomWrongCode()]) {
        const res = await postAsUser(ctx, VERIFY, me, { code, userId: victim });
        const body = await assertJson(res, 403);
        assert.equal(body.error, "Prohibido");
      }
      assert.equal(await getVisit(kv, victim, "casa-de-la-cultura"), null);
      assert.equal(await getVisit(kv, me, "casa-de-la-cultura"), null);
      assert.deepEqual(
        await getAttractionStats(kv, "casa-de-la-cultura"),
        statsBefore,
      );
      for (const subject of [me, victim]) {
        const limit = await peekRateLimit(kv, {
          ...GUIDE_CODE_LIMIT,
          subject,
          now: ctx.clock.now(),
        });
        assert.equal(limit.remaining, 10);
      }
    },
  );

  await t.step(
    "openapi.json lists the path with bearer security and no guide code",
    async () => {
      const res = await ctx.app.request("/openapi.json");
      const doc = await res.json();
      const post = doc.paths["/api/turismo/verify-visit"].post;
      assert.deepEqual(post.security, [{ bearerAuth: [] }]);
      assert.deepEqual(
        Object.keys(post.responses).sort(),
        [
          "200",
          "400",
          "401",
          "403",
          "404",
          "405",
          "408",
          "409",
          "413",
          "415",
          "422",
          "429",
          "500",
          "503",
        ],
      );
      const text = JSON.stringify(doc).toUpperCase();
      for (const { guideCode } of ATTRACTIONS) {
        assert.ok(!text.includes(`"${guideCode}"`), guideCode);
      }
    },
  );
});

/** A KV whose reads are recorded: which calls, with how many keys. */
function recordReads(kv: Deno.Kv) {
  const reads: string[] = [];
  const proxy = new Proxy(kv, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      if (name === "get" || name === "getMany" || name === "list") {
        return (...args: unknown[]) => {
          const count = name === "getMany" ? (args[0] as unknown[]).length : 1;
          reads.push(`${String(name)}(${count})`);
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { kv: proxy, reads };
}

Deno.test("POST /api/turismo/verify-visit: wrong codes per client address", async (t) => {
  const spy = recordReads(await Deno.openKv(":memory:"));
  await using ctx = await createTestContext({
    kv: spy.kv,
    env: { TRUST_PROXY: "1" },
  });
  const fromAddress = async (ip: string, userId: string, code: string) =>
    await postJson(ctx, VERIFY, { code, userId }, {
      authorization: `Bearer ${await ctx.tokenFor(userId)}`,
      "x-forwarded-for": ip,
    });

  await t.step(
    "30 wrong codes from one address, each from a new user: then every code is a 429, right ones too",
    async () => {
      const ip = "203.0.113.50";
      for (let i = 0; i < 30; i++) {
        const res = await fromAddress(ip, randomUserId(), randomWrongCode());
        await assertJson(res, 404);
      }
      for (const code of [randomWrongCode(), ATTRACTIONS[0].guideCode]) {
        const userId = randomUserId();
        const res = await fromAddress(ip, userId, code);
        const body = await assertJson(res, 429);
        const retryAfter = Number(res.headers.get("retry-after"));
        assert.ok(retryAfter >= 1 && retryAfter <= 600, `${retryAfter}`);
        assert.match(body.details, /Demasiados códigos incorrectos/);
        assert.equal(
          await getVisit(ctx.deps.kv, userId, "plaza-principal"),
          null,
        );
      }
    },
  );

  await t.step("another address is not affected", async () => {
    const res = await fromAddress(
      "198.51.100.9",
      randomUserId(),
      ATTRACTIONS[0].guideCode,
    );
    await assertJson(res, 200);
  });

  await t.step("an IPv6 subscriber is one address: its /64", async () => {
    for (let i = 0; i < 30; i++) {
      const res = await fromAddress(
        `2001:db8:7:7::${(i + 1).toString(16)}`,
        randomUserId(),
        randomWrongCode(),
      );
      await assertJson(res, 404);
    }
    const res = await fromAddress(
      "2001:db8:7:7:ffff::1",
      randomUserId(),
      randomWrongCode(),
    );
    await assertJson(res, 429);
  });

  await t.step(
    "while locked out, a right and a wrong code do the very same reads",
    async () => {
      const userId = randomUserId();
      for (let i = 0; i < 10; i++) {
        await assertJson(
          await fromAddress("192.0.2.77", userId, randomWrongCode()),
          404,
        );
      }
      const readsOf = async (code: string) => {
        spy.reads.length = 0;
        await assertJson(await fromAddress("192.0.2.77", userId, code), 429);
        return [...spy.reads];
      };
      const wrong = await readsOf(randomWrongCode());
      const right = await readsOf(ATTRACTIONS[3].guideCode);
      assert.deepEqual(right, wrong);
      assert.ok(wrong.length > 0);
    },
  );
});
