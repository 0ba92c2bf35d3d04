/**
 * The partner business's page (`/socio`): signing in with the office's PIN
 * (wrong PIN, the limit of tries), and redeeming a tourist's counter code
 * exactly once: a retry of the same form, a second form, stale digits,
 * another partner's phone, and two phones on two instances at once.
 */
import assert from "node:assert/strict";
import {
  issuePartnerPin,
  listClaimsOfUser,
  listPrizeCounts,
} from "@/lib/db/rewards.ts";
import { getLocalDate } from "@/lib/calendar/mod.ts";
import { counterCode } from "@/lib/prizes/counter_code.ts";
import { createTestContext, type TestContext } from "@/tests/test_utils.ts";
import {
  seedClaim,
  seedPartner,
  STAFF,
  timeZone,
} from "@/tests/rewards_fixtures.ts";

const SAME_SITE = {
  origin: "http://localhost",
  "sec-fetch-site": "same-origin",
};
/** Signs a phone in: its cookie header. */
async function signIn(ctx: TestContext, pin: string): Promise<string> {
  const res = await postForm(ctx, "/socio/entrar", { pin });
  assert.equal(res.status, 303, await res.text());
  const set = res.headers.getSetCookie().find((c) => c.startsWith("socio="));
  assert.ok(set, "the partner cookie is set");
  assert.ok(/HttpOnly/i.test(set) && /SameSite=Lax/i.test(set), set);
  assert.ok(/Path=\/socio/.test(set) && /Max-Age=7776000/.test(set), set);
  return set.split(";")[0];
}

function postForm(
  ctx: TestContext,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(ctx.app.request(path, {
    method: "POST",
    headers: {
      ...SAME_SITE,
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams(form).toString(),
  }));
}

async function redeem(
  ctx: TestContext,
  cookie: string,
  code: string,
  requestId = crypto.randomUUID(),
): Promise<{ status: number; html: string }> {
  const res = await postForm(ctx, "/socio/canjear", {
    codigo: code,
    solicitud: requestId,
  }, { cookie });
  return { status: res.status, html: await res.text() };
}

async function codeAt(
  ctx: TestContext,
  claim: { reference: string; secret: string },
  atMs = ctx.clock.now().getTime(),
) {
  const { reference, digits } = await counterCode(claim, atMs);
  return `${reference.toLowerCase()} ${digits}`;
}

Deno.test("the partner page: signing in with the PIN", async (t) => {
  await using ctx = await createTestContext();
  const { pin } = await seedPartner(ctx);

  await t.step("the sign-in form asks for the PIN", async () => {
    const res = await ctx.app.request("/socio");
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.ok(
      html.includes('name="pin"') && html.includes('inputmode="numeric"'),
    );
    assert.ok(!html.includes("staff-nav"), "no console navigation");
    // The partner's own frame: never called the staff console.
    assert.ok(html.includes("Comercio adherido"));
    assert.ok(!/Panel del personal|· Panel ·/.test(html), "not the console");
  });

  await t.step("a wrong PIN: 401 and a clear message", async () => {
    const wrong = pin === "00000000" ? "11111111" : "00000000";
    const res = await postForm(ctx, "/socio/entrar", { pin: wrong });
    assert.equal(res.status, 401);
    assert.ok((await res.text()).includes("Ese PIN no es válido"));
    assert.deepEqual(res.headers.getSetCookie(), []);
  });

  await t.step(
    "the right PIN opens the page with the business's name",
    async () => {
      const cookie = await signIn(ctx, `${pin.slice(0, 4)} ${pin.slice(4)}`);
      const res = await ctx.app.request("/socio", { headers: { cookie } });
      const html = await res.text();
      assert.ok(html.includes("Café La Parroquia"));
      assert.ok(html.includes("Comprobar y canjear"));
      assert.ok(/name="solicitud" value="[\w-]+"/.test(html));
    },
  );

  await t.step("a form from another site is refused", async () => {
    const res = await postForm(ctx, "/socio/entrar", { pin }, {
      origin: "https://malo.example",
      "sec-fetch-site": "cross-site",
    });
    assert.equal(res.status, 403);
  });

  await t.step("10 tries per 15 minutes, then 429 with when", async () => {
    await using fresh = await createTestContext();
    for (let i = 0; i < 10; i++) {
      const res = await postForm(fresh, "/socio/entrar", { pin: "12345678" });
      assert.equal(res.status, 401);
    }
    const res = await postForm(fresh, "/socio/entrar", { pin: "12345678" });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get("retry-after")) > 0);
    assert.ok((await res.text()).includes("Vuelve a intentarlo en 15 minutos"));
    fresh.clock.advance(15 * 60_000 + 1);
    const later = await postForm(fresh, "/socio/entrar", { pin: "12345678" });
    assert.equal(later.status, 401);
  });

  await t.step("a PIN replaced by the office signs the phone out", async () => {
    const { partner, pin: first } = await seedPartner(ctx, "Dulcería Ana");
    const cookie = await signIn(ctx, first);
    await issuePartnerPin(ctx.deps.kv, {
      partnerId: partner.id,
      staff: STAFF,
      now: ctx.clock.now(),
    });
    const res = await ctx.app.request("/socio", { headers: { cookie } });
    const html = await res.text();
    assert.ok(html.includes("La sesión de este teléfono terminó"));
    assert.ok(!html.includes("Dulcería Ana"));
    const post = await redeem(ctx, cookie, "ABCDE 1234");
    assert.equal(post.status, 303);
  });

  await t.step("Salir ends the session", async () => {
    const cookie = await signIn(ctx, pin);
    const res = await postForm(ctx, "/socio/salir", {}, { cookie });
    assert.equal(res.status, 303);
    const after = await ctx.app.request("/socio", { headers: { cookie } });
    assert.ok(!(await after.text()).includes("Comprobar y canjear"));
  });
});

Deno.test("the partner page: a code is redeemed exactly once", async (t) => {
  await using ctx = await createTestContext();
  const { prize, pin } = await seedPartner(ctx);
  const { userId, claim } = await seedClaim(ctx, prize);
  const cookie = await signIn(ctx, pin);
  const requestId = crypto.randomUUID();

  await t.step(
    "stale digits (3 minutes ago): caducado, not redeemed",
    async () => {
      const old = await codeAt(ctx, claim, ctx.clock.now().getTime() - 180_000);
      const current = await codeAt(ctx, claim);
      if (old === current) return; // one chance in 10 000
      const { status, html } = await redeem(ctx, cookie, old);
      assert.equal(status, 422);
      assert.ok(html.includes("Código caducado"));
      const [stored] = await listClaimsOfUser(ctx.deps.kv, userId);
      assert.equal(stored.redeemedAt, null);
    },
  );

  await t.step("another partner's phone: unknown", async () => {
    const other = await seedPartner(ctx, "Tienda El Agave");
    const otherCookie = await signIn(ctx, other.pin);
    const { status, html } = await redeem(
      ctx,
      otherCookie,
      await codeAt(ctx, claim),
    );
    assert.equal(status, 404);
    assert.ok(html.includes("no corresponde a ningún premio de tu comercio"));
    assert.ok(!html.includes("10 % de descuento"));
  });

  await t.step("the current code: Válido, with the prize only", async () => {
    const { status, html } = await redeem(
      ctx,
      cookie,
      await codeAt(ctx, claim),
      requestId,
    );
    assert.equal(status, 200);
    assert.ok(html.includes("Válido: 10 % de descuento"), html);
    assert.ok(html.includes("En cualquier bebida de la carta"));
    assert.ok(!html.includes(userId));
  });

  await t.step("a new request: Ya canjeado el … a las …", async () => {
    const { status, html } = await redeem(
      ctx,
      cookie,
      await codeAt(ctx, claim),
    );
    assert.equal(status, 200);
    assert.ok(/Ya canjeado el \d+ de \p{L}+ a las \d\d:\d\d/u.test(html), html);
    assert.ok(!html.includes("Válido"));
  });

  await t.step(
    "the same request again (a lost reply): Válido again",
    async () => {
      const { html } = await redeem(
        ctx,
        cookie,
        await codeAt(ctx, claim),
        requestId,
      );
      assert.ok(html.includes("Válido: 10 % de descuento"));
    },
  );

  await t.step("the day's count shows one redemption", async () => {
    const res = await ctx.app.request("/socio", { headers: { cookie } });
    const html = await res.text();
    assert.ok(html.includes("Canjes de los últimos 14 días"));
    assert.ok(/<td>1<\/td>/.test(html), html);
  });
});

Deno.test("the partner page: two phones on two instances at once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "turismo-socio-" });
  try {
    const kvPath = `${dir}/turismo.kv`;
    const clockStart = new Date();
    await using one = await createTestContext({ kvPath, clockStart });
    await using two = await createTestContext({ kvPath, clockStart });
    const { prize, pin } = await seedPartner(one);
    const { userId, claim } = await seedClaim(one, prize);
    two.clock.advance(one.clock.now().getTime() - two.clock.now().getTime());
    const [cookieOne, cookieTwo] = [
      await signIn(one, pin),
      await signIn(two, pin),
    ];
    const code = await codeAt(one, claim);
    const answers = await Promise.all([
      redeem(one, cookieOne, code),
      redeem(two, cookieTwo, code),
    ]);
    const valid = answers.filter((a) => a.html.includes("Válido:"));
    const already = answers.filter((a) => a.html.includes("Ya canjeado el"));
    assert.equal(valid.length, 1);
    assert.equal(already.length, 1);
    const claims = await listClaimsOfUser(one.deps.kv, userId);
    assert.equal(claims.length, 1);
    assert.ok(claims[0].redeemedAt !== null);
    const day = getLocalDate(one.clock.now(), timeZone(one));
    const counts = await listPrizeCounts(one.deps.kv, { from: day, to: day });
    assert.equal(
      counts.find((row) => row.prizeId === prize.id)?.redeemed,
      1,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
