/**
 * The tourist's rights over their data, through the real app in process on
 * KV in memory: export (what was stored, exactly), correction of the name
 * (ticket, CMS post, route page, card URL), erasure (every key listed
 * afterwards; a CMS outage retried until it is back; the share code dead
 * for good), retention of unused guest passports, and the panel's requests
 * by e-mail (audited).
 */
import { claimPrize } from "@/lib/db/rewards.ts";
import { storePartnerWithPrizes } from "@/tests/rewards_fixtures.ts";
import assert from "node:assert/strict";
import { createKvCms } from "@/lib/cms/kv.ts";
import { getCmsPost } from "@/lib/db/cms_posts.ts";
import { ERASURE_RETRY_MS } from "@/lib/db/erasures.ts";
import { keys } from "@/lib/db/keys.ts";
import { BadGatewayError } from "@/lib/errors/mod.ts";
import { RequestLog } from "@/lib/http/request_log.ts";
import { sha256Base64Url } from "@/lib/crypto/sha256.ts";
import {
  ERASURE_CACHE_GRACE_MS,
  requestErasure,
} from "@/lib/personal_data/erase.ts";
import {
  assertJson,
  createTestContext,
  postAsUser,
  postJson,
  serveApp,
  SHIPPED,
  signInStaff,
  type TestContext,
  ticketBody,
  verifyVisits,
} from "../test_utils.ts";
import { assertNothingNames, countEntries, dumpKv } from "../kv_dump.ts";
import { signOwnToken } from "@/lib/auth/mod.ts";

const ORIGIN = "http://localhost";

/** A guest passport as a browser opens it: its cookie, a page token and its user id. */
async function openGuest(ctx: TestContext) {
  const res = await postJson(ctx, "/api/session-token", { guest: true }, {
    origin: ORIGIN,
  });
  const body = await assertJson(res, 200);
  const cookie = res.headers.getSetCookie()[0].split(";")[0];
  return {
    cookie,
    token: body.token as string,
    userId: body.userId as string,
  };
}

/** A guest with 3 visits, 2 rated with notes, and a ticket. */
async function seedTourist(ctx: TestContext) {
  const guest = await openGuest(ctx);
  await verifyVisits(ctx, guest.userId, 3);
  const notes = [
    `Precioso lugar ${crypto.randomUUID().slice(0, 6)}`,
    `Volveré pronto ${crypto.randomUUID().slice(0, 6)}`,
  ];
  for (const [i, text] of notes.entries()) {
    const res = await postAsUser(ctx, "/api/turismo/rate-visit", guest.userId, {
      userId: guest.userId,
      atractivoSlug: SHIPPED.attractions[i].slug,
      rating: 5 - i,
      notes: text,
    });
    assert.equal(res.status, 200, await res.text());
  }
  const ticket = ticketBody({
    name: `Lucía Prueba ${crypto.randomUUID().slice(0, 6)}`,
    phone: `+52 33 ${Math.floor(1e7 + Math.random() * 9e7)}`,
  });
  // A new page token: the visits moved the clock past the first one's life.
  const renewed = await postJson(ctx, "/api/session-token", {}, {
    origin: ORIGIN,
    cookie: guest.cookie,
  });
  const { token } = await assertJson(renewed, 200);
  const res = await postJson(ctx, "/api/turismo/ticket", ticket, {
    authorization: `Bearer ${token}`,
  });
  assert.equal(res.status, 200, await res.text());
  return { ...guest, token: token as string, notes, ticket };
}

/** A partner's prize of three stamps, claimed by the passport: its claim. */
async function claimSeededPrize(ctx: TestContext, userId: string) {
  const { kv } = ctx.deps;
  const now = ctx.clock.now();
  const { timeZone } = ctx.deps.data.current().data.municipality;
  const { prizes: [{ id: prizeId }] } = await storePartnerWithPrizes(kv, now, {
    partner: { name: "Café Central", address: "Portal Hidalgo 4", hours: "" },
    prizes: [{
      name: { es: "Café", en: "Coffee" },
      description: { es: "", en: "" },
      requirement: { kind: "stamps", count: 3 },
      stockTotal: 5,
    }],
  });
  const { claim } = await claimPrize(kv, {
    userId,
    prizeId,
    guest: true,
    data: { attractionCount: SHIPPED.attractions.length, routes: new Map() },
    now,
    timeZone,
  });
  return claim;
}

function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** Runs the due erasures once the other instances' caches have expired. */
async function finishErasures(ctx: TestContext) {
  ctx.clock.advance(ERASURE_CACHE_GRACE_MS);
  await ctx.deps.personalData.runPending();
}

Deno.test("GET /api/turismo/users/:userId/data", async (t) => {
  await using ctx = await createTestContext();
  const tourist = await seedTourist(ctx);
  const path = `/api/turismo/users/${tourist.userId}/data`;

  await t.step(
    "the export holds exactly what was stored, and no session id or token",
    async () => {
      const res = await ctx.app.request(path, {
        headers: bearer(tourist.token),
      });
      const body = await assertJson(res, 200);
      assert.match(
        res.headers.get("content-disposition")!,
        /^attachment; filename="mis-datos-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      assert.equal(body.format, "turismo-datos-personales/1");
      assert.equal(body.passport.userId, tourist.userId);
      assert.equal(body.passport.kind, "guest");
      assert.deepEqual(body.passport.counters, { visits: 3, badges: 0 });
      assert.deepEqual(
        body.visits.map((v: { attraction: { slug: string } }) =>
          v.attraction.slug
        ),
        SHIPPED.attractions.slice(0, 3).map((a) => a.slug),
      );
      assert.deepEqual(
        body.visits.map((v: { notes: string | null }) => v.notes),
        [...tourist.notes, null],
      );
      assert.deepEqual(
        body.visits.map((v: { rating: number | null }) => v.rating),
        [5, 4, null],
      );
      // Each visit as KV holds it.
      for (const visit of body.visits) {
        const stored = (await ctx.deps.kv.get<{ visitId: string }>(
          keys.visit(tourist.userId, visit.attraction.slug),
        )).value;
        assert.equal(stored?.visitId, visit.visitId);
      }
      assert.deepEqual(
        body.tickets.map((t: Record<string, unknown>) => ({
          shareCode: t.shareCode,
          name: t.name,
          email: t.email,
          phone: t.phone,
        })),
        [{
          shareCode: tourist.ticket.shareCode.toLowerCase(),
          name: tourist.ticket.name,
          email: tourist.ticket.email,
          phone: tourist.ticket.phone,
        }],
      );
      assert.equal(body.tickets[0].cms.kind, "kv");
      assert.equal(typeof body.tickets[0].cms.postId, "number");
      assert.equal(body.sessions.length, 1);
      assert.deepEqual(Object.keys(body.sessions[0]).sort(), [
        "createdAt",
        "expiresAt",
        "guest",
        "lastUsedDay",
      ]);
      const text = JSON.stringify(body);
      assert.ok(!text.includes(tourist.cookie.split("=")[1]), "no cookie id");
      assert.ok(!text.includes(tourist.token), "no token");
      assert.deepEqual(body.identities, []);
    },
  );

  await t.step("without a token it is a 401", async () => {
    const res = await ctx.app.request(path);
    await assertJson(res, 401);
  });

  await t.step("another user's data is a 403", async () => {
    const other = await openGuest(ctx);
    const res = await ctx.app.request(path, { headers: bearer(other.token) });
    await assertJson(res, 403);
  });

  await t.step("the passport page's download uses the cookie", async () => {
    const res = await ctx.app.request("/mi-pasaporte/datos.json", {
      headers: { cookie: tourist.cookie },
    });
    assert.equal(res.status, 200);
    const body = JSON.parse(await res.text());
    assert.equal(body.passport.userId, tourist.userId);
    const anonymous = await ctx.app.request("/mi-pasaporte/datos.json");
    await assertJson(anonymous, 401);
  });
});

Deno.test("POST /api/turismo/users/:userId/name", async (t) => {
  await using ctx = await createTestContext({ cachePages: true });
  const tourist = await seedTourist(ctx);
  const path = `/api/turismo/users/${tourist.userId}/name`;
  const code = tourist.ticket.shareCode.toLowerCase();

  await t.step(
    "the new name is on the ticket, the CMS post, the route page and a new card URL",
    async () => {
      const before = await (await ctx.app.request(`/ruta/${code}`)).text();
      assert.ok(before.includes(tourist.ticket.name));
      const res = await postJson(ctx, path, { name: "  Lucía\u202E Nueva " }, {
        ...bearer(tourist.token),
      });
      assert.deepEqual(await assertJson(res, 200), {
        shareCode: code,
        name: "Lucía Nueva",
      });
      assert.equal((await getCmsPost(ctx.deps.kv, code))?.name, "Lucía Nueva");
      const page = await (await ctx.app.request(`/ruta/${code}`)).text();
      assert.ok(page.includes("Lucía Nueva"));
      assert.ok(!page.includes(tourist.ticket.name));
      assert.match(page, new RegExp(`/api/turismo/og/${code}\\?v=3-0-1`));
    },
  );

  await t.step("an empty name is a 400 naming the field", async () => {
    const res = await postJson(ctx, path, { name: "\u200B " }, {
      ...bearer(tourist.token),
    });
    const body = await assertJson(res, 400);
    assert.equal(body.field, "name");
  });

  await t.step("another user's name is a 403", async () => {
    const other = await openGuest(ctx);
    const res = await postJson(ctx, path, { name: "Intruso" }, {
      ...bearer(other.token),
    });
    await assertJson(res, 403);
  });

  await t.step("a passport without a ticket is a 404", async () => {
    const other = await openGuest(ctx);
    const res = await postJson(
      ctx,
      `/api/turismo/users/${other.userId}/name`,
      { name: "Sin boleto" },
      bearer(other.token),
    );
    await assertJson(res, 404);
  });

  await t.step("a CMS that fails is a 502 and changes nothing", async () => {
    const rename = ctx.deps.cms.renameTicket;
    ctx.deps.cms.renameTicket = () => {
      throw new BadGatewayError("El CMS no respondió a tiempo");
    };
    const res = await postJson(ctx, path, { name: "Otro Nombre" }, {
      ...bearer(tourist.token),
    });
    ctx.deps.cms.renameTicket = rename;
    await assertJson(res, 502);
    const ticket = (await ctx.deps.kv.get<{ name: string }>(keys.ticket(code)))
      .value;
    assert.equal(ticket?.name, "Lucía Nueva");
  });
});

Deno.test("POST /api/turismo/users/:userId/erase", async (t) => {
  let cmsDown = false;
  await using ctx = await createTestContext({ cachePages: true });
  const kvCms = createKvCms(ctx.deps.kv);
  ctx.deps.cms.deleteTicket = (code) => {
    if (cmsDown) throw new BadGatewayError("No se pudo conectar con el CMS");
    return kvCms.deleteTicket(code);
  };

  await t.step(
    "after an erase no key or value names the person, and the CMS post is gone",
    async () => {
      const tourist = await seedTourist(ctx);
      const code = tourist.ticket.shareCode.toLowerCase();
      const claim = await claimSeededPrize(ctx, tourist.userId);
      // Warm the caches: the page and the card.
      assert.equal((await ctx.app.request(`/ruta/${code}`)).status, 200);
      await (await ctx.app.request(`/api/turismo/og/${code}`)).body?.cancel();

      const res = await postJson(
        ctx,
        `/api/turismo/users/${tourist.userId}/erase`,
        {},
        bearer(tourist.token),
      );
      const body = await assertJson(res, 202);
      assert.equal(body.status, "pending");
      // Gone at once from this instance's pages and cards.
      assert.equal((await ctx.app.request(`/ruta/${code}`)).status, 404);
      await assertJson(await ctx.app.request(`/api/turismo/og/${code}`), 404);
      // "En proceso" until the other instances' caches have expired.
      const pending = await ctx.app.request(
        `/api/turismo/erasures/${body.erasureId}`,
      );
      assert.equal((await assertJson(pending, 200)).status, "pending");

      await finishErasures(ctx);
      const done = await ctx.app.request(
        `/api/turismo/erasures/${body.erasureId}`,
      );
      assert.equal((await assertJson(done, 200)).status, "done");
      assert.equal(await getCmsPost(ctx.deps.kv, code), null);
      await assertNothingNames(ctx.deps.kv, {
        "user id": tourist.userId,
        name: tourist.ticket.name,
        "e-mail": tourist.ticket.email,
        phone: tourist.ticket.phone,
        "share code": code,
        "first note": tourist.notes[0],
        "second note": tourist.notes[1],
        "prize claim": claim.claimId,
        "counter reference": claim.reference,
      });
      // The unredeemed claim's unit is back in the stock.
      assert.deepEqual(
        (await ctx.deps.kv.get(keys.prizeStock(claim.prizeId))).value,
        { claimed: 0 },
      );
      // The attractions' anonymous totals still count the visits.
      const stats = await ctx.app.request(
        `/turismo/atractivos/${SHIPPED.attractions[0].slug}`,
      );
      assert.equal(stats.status, 200);
      await stats.body?.cancel();
    },
  );

  await t.step("the share code cannot be claimed again", async () => {
    const tourist = await seedTourist(ctx);
    const code = tourist.ticket.shareCode;
    await postJson(
      ctx,
      `/api/turismo/users/${tourist.userId}/erase`,
      {},
      bearer(tourist.token),
    );
    for (const email of [tourist.ticket.email, "otra@ejemplo.mx"]) {
      const res = await postJson(ctx, "/api/turismo/ticket", {
        ...tourist.ticket,
        email,
        shareCode: code.toUpperCase(),
      });
      await assertJson(res, 409);
    }
    await finishErasures(ctx);
    const again = await postJson(ctx, "/api/turismo/ticket", tourist.ticket);
    await assertJson(again, 409);
  });

  await t.step("a second erase of the same passport is harmless", async () => {
    const tourist = await seedTourist(ctx);
    const path = `/api/turismo/users/${tourist.userId}/erase`;
    // A token of the identity provider's kind: it outlives the sessions.
    const token = await ctx.tokenFor(tourist.userId);
    // Two at once (a double tap): both pass the token check, the second joins.
    const [first, second] = await Promise.all(
      [token, token].map(async (each) =>
        await assertJson(await postJson(ctx, path, {}, bearer(each)), 202)
      ),
    );
    assert.equal(second.erasureId, first.erasureId, "it joins the first");
    // Later, every token of the passport is refused: the page's, and the other.
    for (const each of [tourist.token, token]) {
      await assertJson(await postJson(ctx, path, {}, bearer(each)), 401);
    }
    await finishErasures(ctx);
    const status = await ctx.app.request(
      `/api/turismo/erasures/${first.erasureId}`,
    );
    assert.equal((await assertJson(status, 200)).status, "done");
    await assertJson(await postJson(ctx, path, {}, bearer(token)), 401);
    await assertNothingNames(ctx.deps.kv, { "user id": tourist.userId });
  });

  await t.step(
    "an erased user id is refused for good: every token of it, on every endpoint, writes nothing",
    async () => {
      const tourist = await seedTourist(ctx);
      const { userId } = tourist;
      // A token without a session (`deno task token`, an identity
      // provider's), valid for 30 days.
      const token = await signOwnToken(ctx.deps.signingSecret, userId, {
        now: ctx.clock.now(),
        expiresInSeconds: 30 * 24 * 3600,
      });
      const { erasureId } = await assertJson(
        await postJson(
          ctx,
          `/api/turismo/users/${userId}/erase`,
          {},
          bearer(tourist.token),
        ),
        202,
      );
      await finishErasures(ctx);
      const status = await ctx.app.request(
        `/api/turismo/erasures/${erasureId}`,
      );
      assert.equal((await assertJson(status, 200)).status, "done");

      const attraction = SHIPPED.attractions[5];
      const calls: [string, unknown][] = [
        ["/api/turismo/verify-visit", { userId, code: attraction.guideCode }],
        ["/api/turismo/check-in", {
          userId,
          checkInId: crypto.randomUUID(),
          claimedAt: ctx.clock.now().toISOString(),
          code: attraction.guideCode,
        }],
        ["/api/turismo/rate-visit", {
          userId,
          atractivoSlug: SHIPPED.attractions[0].slug,
          rating: 5,
          notes: "Otra vez",
        }],
        ["/api/turismo/ticket", ticketBody()],
        [`/api/turismo/users/${userId}/name`, { name: "Otro Nombre" }],
      ];
      // Days later too, and with a token signed after the erasure.
      for (const days of [0, 20]) {
        ctx.clock.advance(days * 24 * 3600_000);
        const fresh = await ctx.tokenFor(userId);
        for (const each of [token, fresh]) {
          for (const [path, body] of calls) {
            const res = await postJson(ctx, path, body, bearer(each));
            const answer = await assertJson(res, 401);
            assert.deepEqual(Object.keys(answer).sort(), ["details", "error"]);
            assert.equal(answer.error, "No autorizado", path);
            assert.match(answer.details, /borró/, path);
          }
          const data = await ctx.app.request(
            `/api/turismo/users/${userId}/data`,
            { headers: bearer(each) },
          );
          await assertJson(data, 401);
        }
      }
      // Nothing names the user: no visit, check-in, ticket or counter came back.
      await assertNothingNames(ctx.deps.kv, { "user id": userId });
      assert.equal(
        await countEntries(ctx.deps.kv, keys.visitsOfUser(userId)),
        0,
      );
    },
  );

  await t.step(
    "a ticket asked for while its passport is erased is not stored, and its CMS post goes",
    async () => {
      const userId = crypto.randomUUID();
      const token = await ctx.tokenFor(userId);
      const ticket = ticketBody();
      const cms = ctx.deps.cms;
      const createTicket = cms.createTicket;
      cms.createTicket = async (input) => {
        const post = await createTicket.call(cms, input);
        // The erasure lands while the CMS is asked (the token was checked).
        await requestErasure(ctx.deps, { userId, origin: "tourist" });
        return post;
      };
      try {
        const res = await postJson(
          ctx,
          "/api/turismo/ticket",
          ticket,
          bearer(token),
        );
        assert.match((await assertJson(res, 401)).details, /borró/);
      } finally {
        cms.createTicket = createTicket;
      }
      const code = ticket.shareCode.toLowerCase();
      assert.equal(await getCmsPost(ctx.deps.kv, code), null);
      await finishErasures(ctx);
      await assertNothingNames(ctx.deps.kv, {
        "user id": userId,
        "e-mail": ticket.email,
      });
    },
  );

  await t.step(
    "another instance on the same KV refuses the erased user's token at once",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "turismo-erased-" });
      try {
        const kvPath = `${dir}/turismo.kv`;
        await using one = await createTestContext({ kvPath });
        await using two = await createTestContext({ kvPath });
        const userId = crypto.randomUUID();
        const token = await one.tokenFor(userId);
        const verify = (on: TestContext, i: number) =>
          postJson(on, "/api/turismo/verify-visit", {
            userId,
            code: SHIPPED.attractions[i].guideCode,
          }, bearer(token));
        await assertJson(await verify(two, 0), 200);
        await assertJson(
          await postJson(
            one,
            `/api/turismo/users/${userId}/erase`,
            {},
            bearer(token),
          ),
          202,
        );
        const refused = await assertJson(await verify(two, 1), 401);
        assert.match(refused.details, /borró/);
        await finishErasures(one);
        await assertJson(await verify(two, 2), 401);
        await assertNothingNames(two.deps.kv, { "user id": userId });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );

  await t.step(
    "a CMS outage leaves it in progress and it is retried until the CMS is back",
    async () => {
      const tourist = await seedTourist(ctx);
      const code = tourist.ticket.shareCode.toLowerCase();
      cmsDown = true;
      const { erasureId } = await assertJson(
        await postJson(
          ctx,
          `/api/turismo/users/${tourist.userId}/erase`,
          {},
          bearer(tourist.token),
        ),
        202,
      );
      for (let i = 0; i < 3; i++) {
        ctx.clock.advance(ERASURE_RETRY_MS * 2 ** i + ERASURE_CACHE_GRACE_MS);
        await ctx.deps.personalData.runPending();
        const res = await ctx.app.request(`/api/turismo/erasures/${erasureId}`);
        assert.equal((await assertJson(res, 200)).status, "pending");
        assert.ok(await getCmsPost(ctx.deps.kv, code), "the post is there");
      }
      // Everything but the post is already gone.
      await assertJson(await ctx.app.request(`/api/turismo/og/${code}`), 404);
      cmsDown = false;
      ctx.clock.advance(ERASURE_RETRY_MS * 8);
      await ctx.deps.personalData.runPending();
      const res = await ctx.app.request(`/api/turismo/erasures/${erasureId}`);
      assert.equal((await assertJson(res, 200)).status, "done");
      assert.equal(await getCmsPost(ctx.deps.kv, code), null);
      await assertNothingNames(ctx.deps.kv, {
        "user id": tourist.userId,
        "e-mail": tourist.ticket.email,
        "share code": code,
      });
    },
  );

  await t.step(
    "without a token it is a 401, another user's a 403",
    async () => {
      const tourist = await openGuest(ctx);
      const path = `/api/turismo/users/${tourist.userId}/erase`;
      await assertJson(await postJson(ctx, path, {}), 401);
      const other = await openGuest(ctx);
      await assertJson(await postJson(ctx, path, {}, bearer(other.token)), 403);
    },
  );

  await t.step(
    "the passport page erases with a confirmation, signs out and says 'en proceso' until done",
    async () => {
      const tourist = await seedTourist(ctx);
      const confirm = await ctx.app.request("/mi-pasaporte/borrar", {
        headers: { cookie: tourist.cookie },
      });
      assert.equal(confirm.status, 200);
      assert.match(await confirm.text(), /Sí, borrar mi pasaporte y mis datos/);
      const res = await ctx.app.request("/mi-pasaporte/borrar", {
        method: "POST",
        headers: { cookie: tourist.cookie, origin: ORIGIN },
      });
      assert.equal(res.status, 303);
      assert.match(res.headers.getSetCookie().join(), /session=;/);
      const status = res.headers.get("location")!;
      assert.match(await (await ctx.app.request(status)).text(), /en proceso/);
      await finishErasures(ctx);
      assert.match(
        await (await ctx.app.request(status)).text(),
        /data-erasure-state="done"/,
      );
      const crossSite = await ctx.app.request("/mi-pasaporte/borrar", {
        method: "POST",
        headers: { cookie: tourist.cookie, origin: "https://otro.example" },
      });
      assert.equal(crossSite.status, 403);
      await crossSite.body?.cancel();
    },
  );
});

Deno.test("retention of guest passports", async (t) => {
  await using ctx = await createTestContext();

  await t.step(
    "a guest passport unused for 24 months is erased, a recent one is kept",
    async () => {
      const old = await seedTourist(ctx);
      ctx.clock.advance(13 * 30 * 24 * 60 * 60 * 1000);
      const recent = await seedTourist(ctx);
      // The old passport is used once more, 13 months ago by then.
      ctx.clock.advance(12 * 30 * 24 * 60 * 60 * 1000);
      const started = await ctx.deps.personalData.runRetention();
      assert.equal(started, 1);
      await finishErasures(ctx);
      await assertNothingNames(ctx.deps.kv, {
        "old user id": old.userId,
        "old e-mail": old.ticket.email,
        "old note": old.notes[0],
      });
      const res = await ctx.app.request(
        `/api/turismo/users/${recent.userId}/data`,
        { headers: bearer(await ctx.tokenFor(recent.userId)) },
      );
      const body = await assertJson(res, 200);
      assert.equal(body.visits.length, 3);
      assert.equal(body.tickets[0].email, recent.ticket.email);
    },
  );
});

Deno.test("GET /panel/solicitudes", async (t) => {
  await using ctx = await createTestContext();
  const tourist = await seedTourist(ctx);
  const code = tourist.ticket.shareCode.toLowerCase();
  const staff = await signInStaff(ctx);

  await t.step(
    "an admin finds the ticket by e-mail and sees counts",
    async () => {
      const res = await ctx.app.request(
        `/panel/solicitudes?correo=${
          encodeURIComponent(tourist.ticket.email.toUpperCase())
        }`,
        { headers: { cookie: staff } },
      );
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, new RegExp(`data-share-code="${code}"`));
      assert.match(html, /3 visitas, 2 calificaciones, 2 notas/);
    },
  );

  await t.step("a viewer may not see requests", async () => {
    const viewer = await signInStaff(ctx, {
      email: "consulta@municipio.gob.mx",
      role: "viewer",
    });
    const res = await ctx.app.request("/panel/solicitudes", {
      headers: { cookie: viewer },
    });
    assert.equal(res.status, 403);
    await res.body?.cancel();
  });

  await t.step("the export for the person is audited", async () => {
    const res = await ctx.app.request(
      `/panel/solicitudes/${code}/datos.json`,
      { headers: { cookie: staff } },
    );
    assert.equal(res.status, 200);
    assert.equal(JSON.parse(await res.text()).passport.userId, tourist.userId);
    const audit = await dumpKv(ctx.deps.kv);
    assert.ok(
      audit.some((line) => line.includes('"personal_data_exported"')),
      "the export is in the audit log",
    );
  });

  await t.step(
    "an erasure by e-mail needs the confirmation, is audited and leaves nothing of the person",
    async () => {
      const unconfirmed = await ctx.app.request(
        `/panel/solicitudes/${code}/borrar`,
        {
          method: "POST",
          headers: {
            cookie: staff,
            origin: ORIGIN,
            "content-type": "application/x-www-form-urlencoded",
          },
          body: "",
        },
      );
      assert.equal(unconfirmed.status, 400);
      await unconfirmed.body?.cancel();
      const res = await ctx.app.request(`/panel/solicitudes/${code}/borrar`, {
        method: "POST",
        headers: {
          cookie: staff,
          origin: ORIGIN,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "confirmo=si",
      });
      assert.equal(res.status, 303);
      const erasureId = new URL(res.headers.get("location")!, ORIGIN)
        .searchParams.get("borrado")!;
      const erasureHash = await sha256Base64Url(erasureId);
      await finishErasures(ctx);
      const lines = await dumpKv(ctx.deps.kv);
      assert.ok(
        lines.some((line) =>
          line.includes('"erasure"') &&
          line.includes(`erasure:${erasureHash.slice(0, 12)}`)
        ),
        "the erasure is in the audit log, by its id's hash",
      );
      assert.ok(
        !lines.some((line) =>
          line.startsWith('[["staff_actions"') && line.includes(erasureId)
        ),
        "the erasure's id (the key to its status page) is in no audit entry",
      );
      await assertNothingNames(ctx.deps.kv, {
        "user id": tourist.userId,
        name: tourist.ticket.name,
        "e-mail": tourist.ticket.email,
        "share code": code,
        note: tourist.notes[0],
      });
      const page = await ctx.app.request(
        `/panel/solicitudes?borrado=${erasureId}`,
        { headers: { cookie: staff } },
      );
      assert.match(await page.text(), /data-erasure-state="done"/);
    },
  );
});

Deno.test("the request log", async (t) => {
  await t.step(
    "a line holds the method, path, status and time, never the client's address",
    async () => {
      const written: string[] = [];
      const requestLog = new RequestLog({
        write: (text) => Promise.resolve(void written.push(text)),
      });
      await using ctx = await createTestContext({
        env: { LOG_REQUESTS: "true" },
        requestLog,
      });
      await using server = serveApp((req, info) => ctx.app.fetch(req, info));
      const res = await fetch(`${server.origin}/mi-pasaporte`, {
        headers: { "x-forwarded-for": "203.0.113.77" },
      });
      await res.body?.cancel();
      await requestLog.flush();
      const lines = written.join("").trim().split("\n");
      assert.match(lines.at(-1)!, /^GET \/mi-pasaporte 200 \d+\.\dms$/);
      for (const address of ["127.0.0.1", "203.0.113.77"]) {
        assert.ok(!written.join("").includes(address), address);
      }
    },
  );
});
